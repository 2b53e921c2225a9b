package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/babelqueue/bqgen/internal/model"
	"github.com/babelqueue/bqgen/internal/pii"
	"github.com/babelqueue/bqgen/registry"
)

// piiURN is one element of the `pii` array of `bqgen check --pii --format json`: a
// URN, its position, the paths the SDKs protect and the marks they cannot reach
// (docs/pii.md, "The inventory").
type piiURN struct {
	URN         string    `json:"urn"`
	File        string    `json:"file"`
	Line        int       `json:"line"`
	Column      int       `json:"column"`
	Paths       []piiPath `json:"paths"`
	Unreachable []piiLost `json:"unreachable"`
}

// piiPath is a value the SDKs protect: its path in their syntax, its category (null
// for x-gdpr-sensitive: true) and the position of its mark.
type piiPath struct {
	Path     string  `json:"path"`
	Category *string `json:"category"`
	File     string  `json:"file"`
	Line     int     `json:"line"`
	Column   int     `json:"column"`
}

// piiLost is a mark the SDKs cannot reach: its path in bqgen's syntax, its category,
// why (a pii.Reason), the rule that reports it and the position of its mark.
type piiLost struct {
	Path     string  `json:"path"`
	Category *string `json:"category"`
	Reason   string  `json:"reason"`
	Rule     string  `json:"rule"`
	File     string  `json:"file"`
	Line     int     `json:"line"`
	Column   int     `json:"column"`
}

func categoryOrNull(c string) *string {
	if c == "" {
		return nil
	}
	return &c
}

// piiInventory lists every URN of reg, sorted, with its pii.Inventory.
func piiInventory(reg *model.Registry) []piiURN {
	out := []piiURN{}
	ix := pii.NewIndex(reg)
	for _, m := range reg.Messages {
		inv := ix.Of(m)
		u := piiURN{URN: m.URN, File: m.Pos.File, Line: m.Pos.Line, Column: m.Pos.Column, Paths: []piiPath{}, Unreachable: []piiLost{}}
		for _, p := range inv.Paths {
			u.Paths = append(u.Paths, piiPath{p.Path, categoryOrNull(p.Category), p.Pos.File, p.Pos.Line, p.Pos.Column})
		}
		for _, l := range inv.Lost {
			u.Unreachable = append(u.Unreachable, piiLost{l.Path, categoryOrNull(l.Category), string(l.Cause.Reason), registry.RulePIIReach, l.Pos.File, l.Pos.Line, l.Pos.Column})
		}
		out = append(out, u)
	}
	return out
}

// printCheckPII writes the output of `bqgen check --pii`: the diagnostics, then the
// PII inventory of reg (nil when the registry has errors). json is one object
// {"diagnostics": [the array of --format json], "pii": [piiURN…] or null}; text is
// the diagnostics, then per URN its protected paths and unreachable marks.
func printCheckPII(w io.Writer, diags registry.Diagnostics, reg *model.Registry, format string) {
	if format == "json" {
		var buf bytes.Buffer
		printDiagnostics(&buf, diags, "json")
		out := struct {
			Diagnostics json.RawMessage `json:"diagnostics"`
			PII         []piiURN        `json:"pii"`
		}{Diagnostics: buf.Bytes()}
		if reg != nil {
			out.PII = piiInventory(reg)
		}
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		enc.Encode(out)
		return
	}
	printDiagnostics(w, diags, format)
	if reg == nil {
		fmt.Fprintln(w, "no PII inventory: the registry has errors")
		return
	}
	fmt.Fprintln(w, "PII (x-gdpr-sensitive) in the SDKs' path syntax:")
	paths, lost := 0, 0
	inv := piiInventory(reg)
	for _, u := range inv {
		switch {
		case len(u.Paths) == 0 && len(u.Unreachable) == 0:
			fmt.Fprintf(w, "  %s: no sensitive fields\n", u.URN)
			continue
		case len(u.Unreachable) == 0:
			fmt.Fprintf(w, "  %s: %s\n", u.URN, plural(len(u.Paths), "sensitive field"))
		default:
			fmt.Fprintf(w, "  %s: %s, %d the SDKs cannot reach (%s)\n", u.URN, plural(len(u.Paths), "sensitive field"), len(u.Unreachable), registry.RulePIIReach)
		}
		for _, p := range u.Paths {
			fmt.Fprintf(w, "    - %s%s\n", p.Path, categoryText(p.Category))
		}
		for _, l := range u.Unreachable {
			path := l.Path
			if path == "" {
				path = "(data)" // the data block itself: pii.Root
			}
			fmt.Fprintf(w, "    x %s%s: %s\n", path, categoryText(l.Category), l.Reason)
		}
		paths += len(u.Paths)
		lost += len(u.Unreachable)
	}
	fmt.Fprintf(w, "%s, %s, %d unreachable\n", plural(len(inv), "URN"), plural(paths, "sensitive field"), lost)
}

func categoryText(c *string) string {
	if c == nil {
		return ""
	}
	return " (" + *c + ")"
}
