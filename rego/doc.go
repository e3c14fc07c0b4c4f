// Package rego is regate's static Rego library, the hand-written half of
// every decision (package prefix regate.lib). The compiler generates the
// other half for each policy (regate.gen.decision: the decision rule,
// specialised to the policy) and the compiled rule sets as data
// (data.regate.rules); the library holds what does not depend on the
// policy.
//
// # Packages
//
//   - regate.lib.decide: the helpers the generated decision composes: the
//     lookup of the most specific rule by a value's candidate keys
//     (graph.reachable over the compiled index, then the entries to
//     confirm), the candidate keys themselves for a document that does not
//     carry them, the session layer, the floors a check's shape puts on its
//     outcome, fault, decisionFloor and yolo, and the decision object with
//     the agent's message.
//   - regate.lib.permission: the entry point stock OPA servers, opa eval and
//     opa test ask, decision: the generated decision, or the fault decision
//     when there is none.
//   - regate.lib.message: response, the decision under its older name.
//   - regate.lib.ceiling, regate.lib.lease, regate.lib.profile: delegation
//     ceilings, argument leases and profile resolution.
//
// The library's own tests are the lib/*_test.rego files; TestRegoLibrary
// runs them through OPA's tester so that go test ./... covers them.
package rego
