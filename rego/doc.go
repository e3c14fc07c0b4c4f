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
//   - regate.lib.permission: the permission decision: registry, hard guards,
//     the most restrictive check, fault and decisionFloor floors, yolo.
//   - regate.lib.message: the decision with the message the agent sees.
//
// fast/ holds the embedded runtime's twins of match and checks, which call
// its Go builtins; FastModules returns the library with them in place.
//
// The library's own tests are the lib/*_test.rego files; TestRegoLibrary
// runs them through OPA's tester so that go test ./... covers them.
package rego
