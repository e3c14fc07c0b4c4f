// Package server is `regate serve`: the decision API for hosts that do not
// embed the Go library, shaped like OPA's Data API.
//
//	POST /v1/data/regate/decision         {"input": CALL} → {"result": DECISION, "decision_id": ID}
//	POST /v1/sessions/{id}/approvals      {"surface", "pattern"} → 204
//	GET  /health                          200 with the policy's revision, 503 without a policy
//
// CALL is {"tool", "input", "agent"?, "registered"?, "session"?, "cwd"?}.
// The policy is reloaded when its files change; a broken edit keeps the
// last good policy in force and is reported by /health. Every request is
// bounded in size and time, and every fault is an error status the host
// must treat as a block. One engine per policy decides for every session
// and folder; sessions live in a bounded LRU (sessions.go), a call past the
// runtime's work budget asks, decisions in flight are bounded by the size
// of their requests (budget.go), and a call whose client left is logged as
// abandoned.
package server
