// Package stockopa holds regate's Rego to what an unmodified OPA decides,
// for tests: regate's bundle must load and decide the same in a stock OPA
// server as in the embedded runtime.
//
// # In this process
//
// Eval evaluates a Data API path (for example
// "regate/lib/permission/decision") with an input against the bundle of a
// compiler.Output, with stock OPA's rego package and nothing of the
// embedded runtime (its caches, its input conversion). It builds no
// binary, so it runs in -short mode and under the race detector. A path
// that is undefined for the input is an error.
//
// # A stock server
//
// Binary builds the opa command of the OPA module pinned in go.mod (a tool
// dependency, `go tool -n opa`) once per test process and returns its
// path. Start runs `opa run --server` on a free loopback port with the
// given arguments (bundle paths, flags), waits until it is healthy and
// stops it when the test ends. A Server takes modules (PutPolicy,
// PutModules, which retries until modules that import one another all
// compile) and data (PutData), and answers Query through the Data API: the
// decoded result, or nil when the document is undefined. A response other
// than 2xx is an error carrying OPA's body.
//
// # Skips
//
// Binary and Start skip the test in -short mode and under the race
// detector (an external process, where the detector finds nothing, several
// times slower); a failed build fails the test.
package stockopa
