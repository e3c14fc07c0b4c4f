# Package gate, the embedded runtime's variant: decide is regate's Go
# builtin regate_decide (runtime/fastgate.go), which follows lib/gate.rego,
# lib/checks.rego and lib/match.rego step for step. The runtime loads this
# file in place of lib/gate.rego; a test holds the two to the same decisions
# on every conformance case and a workload. Stock OPA, opa test and bundles
# use lib/gate.rego.
package regate.lib.gate

decide(inp, rules) := regate_decide(inp, rules)
