// Package ghaction holds the test of the composite GitHub Action at the repository root
// (action.yml, docs/ci.md): it reads the action's own `run:` steps and runs them with
// bash, as a GitHub runner does, in temporary git repositories with a base branch and
// a pull-request branch, and checks the annotations, the job summary, the outputs and
// the exit status. The package has no code of its own besides the test.
package ghaction
