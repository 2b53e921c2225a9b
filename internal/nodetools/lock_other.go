//go:build !unix

package nodetools

// lock is a no-op where flock is unavailable: sync.Once still guards one test binary.
func lock(string) (func(), error) { return func() {}, nil }
