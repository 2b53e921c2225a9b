// Package sdksubset holds the proof of issue 15 that the manifest profile of `bqgen
// jsonschema` (the `*.sdk.schema.json` files registry.json points at) says to the
// BabelQueue SDKs' own schema readers what the registry says, as far as their subset
// of draft-07 allows. Its tests read those schemas with a small reader that follows the
// facts of babelqueue-go schema.Parse, Schema.Validate and Schema.SensitivePaths (which
// the Python SDK and babelqueue-registry mirror; docs/jsonschema.md, "The manifest
// profile"), and require, on every test registry and on random registries
// (internal/synth.Random):
//
//   - PII: the reader's sensitive paths equal internal/pii's paths of the URN, equal an
//     independent walk of the model, equal a walk of the full-fidelity data schema that
//     follows $ref, and equal what `bqgen docs` lists; every mark the model holds at a
//     position the SDKs cannot address is reported by BQ048 at its cause;
//   - validation: no instance that jsonschema/v6 accepts on the full-fidelity data
//     schema (the stand-in for the generated decoder, with which internal/agreement
//     proves it agrees) is rejected by the reader, and the reader rejects exactly the
//     instances that break a constraint the subset can express (a type, a required or
//     unknown key, an enum value, a lower bound, a minimum length), as an oracle on
//     the model computes them.
//
// TestProtectedWire proves the generated code's PII protection against the SDKs' Protect
// and Unprotect, which it follows as a small model (wire_test.go): round trips through
// the generated producer, Decode and Router with a test cipher, on every test registry
// with protected values and random registries.
//
// docs/pii.md, "Proof" and "PII protection in the generated Go code", gives the figures.
package sdksubset
