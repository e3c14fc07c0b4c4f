// Command regate decides coding-agent tool calls against permission rules
// compiled to Rego and evaluated by embedded OPA.
//
// Usage:
//
//	regate COMMAND [flags] [arguments]
//
// `regate --help` and `regate COMMAND --help` are the reference for every
// flag; README.md walks through the commands.
//
// # Commands
//
// Deciding:
//
//   - decide: decide tool calls (one, or a JSON Lines file): allow, ask or deny
//   - facts: print the input document of tool calls, as a stock OPA server running regate's bundle takes it
//   - hook HOST: answer a coding agent's command hook (claude, codex, copilot, gemini, opencode) in the host's protocol
//   - approve: approve a pattern for the rest of a hook session
//   - serve: serve decisions over HTTP (package server), on a port or a Unix socket
//   - bench: measure what the rules cost: decisions/s, p50/p99 latency, allocations
//
// Writing and shipping rules:
//
//   - init [HOST]: write a starter policy.jsonc and hard-guards.jsonc, importing the host's own permission rules
//   - install HOST: print (or, with --write, merge) the host settings that register regate's hook
//   - check: validate rule files and print every problem with file:line:col
//   - test: run OPA's test runner over the compiled policy, its inline examples and Rego tests
//   - compile: write the generated Rego, its data and the static library to a folder
//   - bundle: write the compiled policy as an OPA bundle that a stock OPA server loads unchanged
//   - export: write every compiled rule for auditors: JSON, CSV or Markdown
//   - diff OLD NEW: list the calls of a corpus whose decision changes between two policy versions
//   - conformance PATH…: run conformance case files and print N passed, N failed
//   - coverage: which rules decide calls (a decision log, calls, the examples): table, JSON or an HTML page
//   - suggest: propose rules from asks people approved again and again, checked against every logged call
//
// Delegation and profiles:
//
//   - delegate narrow, subset, check: narrow a delegation policy, prove a child within its parent, validate policy files
//   - profile resolve, compose: which prompt profile applies to a model and why; the prompt composed with it
//
// # Exit codes
//
// One contract for every command, printed by `regate --help`
// (exitcodes.go): 0 done; 1 a call was denied (decide --exit-code) or a
// decision changed (diff --exit-code); 2 a rule file has an error; 3 a call
// asks (decide --exit-code); 4 bad flags, arguments or input; 5 regate
// could not decide or write, so a host must block; 6 a conformance case
// failed; 7 a delegation request widens its parent. A command that vouches
// for rules (check, test, compile, bundle, export, diff) never exits 0 on a
// rule file with an error; a command that decides does so under the
// fail-closed policy, as a host would. hook answers in its host's
// protocol: exit 0 with the answer, or exit 2, which every host takes as a
// block.
//
// # Layout
//
// main.go only calls os.Exit(Main(…)). root.go builds the cobra root and
// lists every command's constructor once; each command lives in its own
// file with a newXxxCmd(app) constructor, a params struct and RunE. Main
// prints an error once and maps it to its exit code through one typed
// error (exitError). This is the only package that imports cobra.
// End-to-end behaviour is tested through testscript, in
// testdata/script/*.txtar. The compiled-policy cache and the approvals of
// hook sessions live in internal/statedir.
package main
