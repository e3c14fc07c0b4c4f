// Package rego is regate's static Rego library, the hand-written half of
// every decision (package prefix regate.lib). Generated modules (prefix
// regate.gen) hold the compiled rule sets as data; this library reads them.
//
// # Packages
//
//   - regate.lib.match: the most specific rule of one compiled pattern map,
//     found through indexes so that the cost of a lookup depends on the
//     number of distinct key lengths, not on the number of rules.
//   - regate.lib.permission: the permission decision: registry, hard guards,
//     session approvals, agent, policy, fallback, floors and yolo.
//
// The library's own tests are the lib/*_test.rego files; TestRegoLibrary
// runs them through OPA's tester so that go test ./... covers them.
package rego
