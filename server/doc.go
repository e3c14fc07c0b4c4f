// Package server is `regate serve`: the decision API for hosts that do not
// embed the Go library, shaped like OPA's Data API.
//
//	POST /v1/data/regate/decision         {"input": CALL} → {"result": DECISION, "decision_id": ID}
//	POST /v1/sessions/{id}/approvals      {"surface", "pattern"} → 204
//	GET  /health                          200 with the policy's revision, 503 without a policy
//	POST /v1/delegations, /v1/delegations/{id}/…   delegated runs decided at the ceiling (delegate.go)
//
// CALL is {"tool", "input", "agent"?, "registered"?, "session"?, "cwd"?}.
// The policy is reloaded when its files change (by content); a broken edit
// keeps the last good policy in force and is reported by /health, and so
// is a rule file the watcher was refused (a FIFO, a device). Every request
// is bounded in size and time, and every fault is an error status the host
// must treat as a block.
//
// The guard (guard.go) refuses a browser's request (Origin or
// Sec-Fetch-Site), a POST not sent as application/json, and, when
// Config.Token is set, a request without "Authorization: Bearer TOKEN",
// throttling an address that keeps sending wrong ones (throttle.go). An
// approval must be the exact value of an ask the session was recently
// shown; a pattern with a wildcard needs Config.AllowWide (approve.go).
//
// One engine per policy decides for every session and folder; sessions
// live in a bounded LRU (sessions.go), a call past the runtime's work
// budget asks, decisions in flight are bounded by the size of their
// requests (budget.go), and a call whose client left is logged as
// abandoned.
package server
