//go:build !unix

package outdir

import "context"

// lockDir takes no lock where flock(2) does not exist (Windows): two runs into one
// directory at once are not serialised there (docs/hardening.md, "Output safety").
func lockDir(ctx context.Context, dir string, shared bool) (unlock func(), created []string, err error) {
	return func() {}, nil, nil
}
