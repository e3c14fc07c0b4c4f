// Package conformance runs the conformance cases of shared/conformance (a
// copy lives under testdata/conformance, whose FORMAT.md is the case
// format) against regate. The engine's test suite and the `regate
// conformance` command both use it.
//
// # Running cases
//
// Run reads cases from JSON Lines, one case per line, and returns one
// Result per case (RunFile and RunFileProgress read a file, the latter
// telling a Progress after each case). A Result says whether the case
// passed and, when not, what was wanted and what came out ("<decision>
// [<matched>]"), with Line rendering it as `regate conformance` prints
// it; Count tallies passes and failures.
//
// Each case runs in its suite:
//
//   - permission: the case's rule files compiled and its call decided by
//     the runtime (cases sharing rules share one prepared query through a
//     runtime.Pool);
//   - delegation: by op, narrow and subset (compiler/delegation), ceiling
//     (the Rego ceiling of runtime/delegate), budget (runbudget) and lease
//     (the capability engine);
//   - profile: resolution and composition (compiler/profile,
//     runtime/profile).
//
// # Faults
//
// Fail closed: a case whose suite or op regate cannot run yet is a failed
// Result, never a pass, and so is a case whose inputs do not decode. A
// line that is not a JSON object stops the run with an error naming the
// file and line (file:line:1), with the Results before it.
//
// # The same cases through other entry points
//
// The permission cases are exported for tests that decide them another way
// (stock OPA's evaluator on the bundle, a stock OPA server, mutated
// policies):
// PermissionCases reads them, PermissionCase.Setup turns one into compiler
// input, environment and call, and Engine, EngineWith and DecidePermission
// build the engine and decide.
//
// The ceiling cases run through any ChainDecider (RunCeiling): the Rego
// ceiling over named policies (RegoCeiling), the Go API's delegated runs
// (GoAPI), or regate serve (built in package server's tests). Entry points
// that delegate only a proven child hand it ProvenChild's completion of
// the case's child, and answer ErrNotDelegated for a chain they cannot
// enter.
package conformance
