// Package selfcontained holds the tests that keep the repository self-contained
// (docs/decisions.md#self-contained-project): no tracked file cites a document its
// reader does not have (the specification documents bqgen was first written from),
// and every `docs/<page>.md#<anchor>` that a file cites names a heading of that page.
// The package has no code of its own.
package selfcontained
