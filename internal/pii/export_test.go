package pii

// Visits returns how many schemas the walks of ix have visited so far.
func Visits(ix *Index) int {
	if ix.w == nil {
		return 0
	}
	return ix.w.visits
}
