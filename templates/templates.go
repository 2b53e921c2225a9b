// Package templates embeds the text/template files bqgen renders Markdown outputs
// from (the `bqgen diff --format markdown` pull-request comment, …).
package templates

import "embed"

// FS holds every *.tmpl file of this directory.
//
//go:embed *.tmpl
var FS embed.FS
