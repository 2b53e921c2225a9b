// Package interop holds tests that feed bqgen's output to other languages' tools
// (docs/jsonschema.md, "Other generators"): quicktype turns the emitted data schemas
// into TypeScript, and tsc type-checks the result. The tools are the pinned Node.js
// packages of tools/node (internal/nodetools). The package has no code of its own.
package interop
