# Package match, the embedded runtime's variant: best is regate's Go builtin
# regate_match_best (runtime/fastmatch.go), which walks the same compiled
# indexes as the pure-Rego regate.lib.match in lib/match.rego. The runtime
# loads this file in place of lib/match.rego; a test holds the two to the
# same decisions on every conformance case and a workload. Stock OPA, opa
# test and bundles use lib/match.rego.
package regate.lib.match

best(m, values) := regate_match_best(m, values)
