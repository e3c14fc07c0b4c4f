// Package rego is regate's static Rego library, the hand-written half of
// every decision (package prefix regate.lib). Generated modules (prefix
// regate.gen) hold the compiled rule sets as data; this library reads them.
//
// # Packages
//
//   - regate.lib.match: the most specific rule of one compiled pattern map,
//     found through indexes so that the cost of a lookup depends on the
//     number of distinct key lengths, not on the number of rules.
//   - regate.lib.checks: every check of a call resolved through session
//     approvals, agent, policy and fallback, with the unit floors.
//   - regate.lib.gate: decide(input, rules), the permission decision as a
//     function: registry, hard guards, the most restrictive check, fault and
//     decisionFloor floors, yolo.
//   - regate.lib.permission: the entry point, decision: gate.decide over
//     input and data.regate.rules, or the fault decision.
//   - regate.lib.message: the decision with the message the agent sees.
//
// fast/ holds the embedded runtime's twin of gate, which calls its Go
// builtin; FastModules returns the library with it in place.
//
// The library's own tests are the lib/*_test.rego files; TestRegoLibrary
// runs them through OPA's tester so that go test ./... covers them.
package rego
