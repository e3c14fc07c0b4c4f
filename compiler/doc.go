// Package compiler turns regate's permission rule files into generated Rego
// and data that OPA evaluates: policy in, Rego and data out.
//
// # Input and output
//
// Compile reads an Input: the policy (policy.jsonc), the hard guards
// (hard-guards.jsonc) and agent Markdown files, each a Source with the name
// every diagnostic is positioned in. A nil Policy or HardGuards is a file
// that does not exist, which is no error: the built-in fallback asks.
//
// The Output holds the generated modules (regate/gen/*.rego, each starting
// with Header, deterministic and `opa fmt`-clean), the compiled rule sets as
// data (Output.Data, data.regate.rules.{policy,hardguards,agents}: matchers
// with their specificity ranks and indexes precomputed), the policy's
// runtime settings (Knobs), its inline examples and a Hash naming the
// compilation. Output.DataFiles and Output.Bundle write the same as files
// and as an OPA bundle; the static library they link against is package
// rego (github.com/regate/regate/rego), and the runtime loads both.
//
// # Diagnostics, never a silent allow
//
// Bad input is data, not a Go error: every problem is an *Error in
// Output.Diagnostics with a file, line and column (Pos), a stable Code (the
// constants in errors.go) and a Severity. An error makes its file fail
// closed (a policy that failed to load floors every decision to ask; hard
// guards or an agent likewise), a warning changes nothing. A Go error from
// Compile means regate itself failed; the host blocks the call.
//
// # What is decided at compile time
//
// Everything that depends only on the rules: JSONC and YAML parsing, key
// and value validation, home expansion of patterns, the specificity order
// (R1: exact before wildcard, more literal characters, fewer stars, longer,
// later), the matcher indexes, the MCP discovery baseline, the precedence
// lint (a deny a more specific allow outranks). The runtime does only what
// depends on the call. docs/design.md draws the whole flow.
//
// # The other rule sets
//
// Delegation ceilings and model-to-profile bindings compile in the
// subpackages delegation and profile, with the same diagnostic type and
// the same decoder underneath (compiler/internal/ruledoc: the positioned
// tree, duplicate and unknown keys, typed reads); the JSON Schemas of
// every rule file are in schema.
package compiler
