package main

import (
	"os"
	"testing"
)

// TestMain runs bqgen's main instead of the tests when BQGEN_TEST_MAIN is 1, so that
// a test can run the real command (its arguments, its signal handling) as a child
// process of this test binary.
func TestMain(m *testing.M) {
	if os.Getenv("BQGEN_TEST_MAIN") == "1" {
		main()
	}
	os.Exit(m.Run())
}
