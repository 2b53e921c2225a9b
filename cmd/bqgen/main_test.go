package main

import (
	"os"
	"testing"
)

// TestMain runs bqgen's main instead of the tests when BQGEN_TEST_MAIN is 1, so that
// a test can run the real command (its arguments, its signal handling) as a child
// process of this test binary.
//
// The children run without a build cache unless the test sets BQGEN_CACHE: tests
// never use the user's.
func TestMain(m *testing.M) {
	if _, ok := os.LookupEnv("BQGEN_CACHE"); !ok {
		os.Setenv("BQGEN_CACHE", "off")
	}
	if os.Getenv("BQGEN_TEST_MAIN") == "1" {
		main()
	}
	os.Exit(m.Run())
}
