# Package checks, the embedded runtime's variant: resolve is regate's Go
# builtin regate_resolve (runtime/fastresolve.go), which follows
# lib/checks.rego step for step. The runtime loads this file in place of
# lib/checks.rego; a test holds the two to the same decisions on every
# conformance case and a workload. Stock OPA, opa test and bundles use
# lib/checks.rego.
package regate.lib.checks

resolve(checks, ctx) := regate_resolve(checks, ctx)
