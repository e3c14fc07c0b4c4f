// Package profile decides which prompt profile applies to a session and
// composes the system prompt with it: the host side of the profile rule
// set that package compiler/profile compiles. See docs/profiles.md.
//
// # Resolution
//
// NewProfiles prepares regate's Rego library query for profile resolution
// (regate.lib.profile, ProfileQuery) over a compiled rule set, once.
// Resolve decides a ProfileRequest (the selected Model, whether the
// process is a subagent, the start-up flags, the session's selection
// entries) in Rego, the same query a stock OPA server holding the library
// answers at /v1/data/regate/lib/profile/decision; Input returns the
// document it evaluates. The answer is data, a ProfileDecision: the
// applied profile and its layers most specific first, the selection mode
// and where it came from, the binding that applied and the diagnostics of
// resolution. An error means no resolution: the host keeps its own prompt.
//
// # Composition
//
// Compose puts the decision's layers into the prompt's managed block
// (compiler/profile's Compose), or reports false when no profile applies.
package profile
