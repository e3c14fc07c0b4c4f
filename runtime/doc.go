// Package runtime decides tool calls with embedded OPA.
//
// # Engine
//
// New takes a compiled policy (compiler.Output), loads the static Rego
// library beside the generated modules and prepares the decision query once.
// Decide extracts the facts of a call (package facts), builds the input
// document as an AST value and evaluates the prepared query. An Engine is
// safe for concurrent use.
//
// # Decisions and faults
//
// A Decision is data: the action, the rule that decided as written, its
// layer and source position, the custom reason and the message the agent
// sees. A Go error means regate could not decide (the policy produced no
// decision, evaluation failed): the host must block the call. No fault ever
// becomes an allow.
//
// # Sessions
//
// A Session holds the user's "approve for this session" answers. Approvals
// are compiled into matchers when they change and travel in the input, so
// the prepared query never has to be rebuilt for them. An engine has a
// session of its own (WithSession shares one); DecideIn decides a call in a
// Scope, a working directory and a session of the caller's, so that one
// engine and its caches serve any number of them (regate serve).
//
// # Logs
//
// A Log is a JSON Lines file only its owner can read, each entry masked
// (values under sensitive keys), bounded (MaxLogDepth, MaxLogEntryBytes,
// a width per string) and written whole or not at all. The DecisionLog
// (WithDecisionLog) is one; package ask's review and debug logs are
// others. A LogValuer gives its entry as plain values so that a Log walks
// it instead of encoding it; Masked is an entry as such a Log writes it.
//
// # Beside the engine
//
// Packages beneath this one hold the rest of the house: ask (who answers
// an ask: the authorizer chain, terminals, prompt facts, the review log,
// and autoreview), delegate (the calls of delegated runs: ceilings, leases,
// run budgets) and profile (which prompt profile applies). They reach the
// engine through its exported methods (Knobs, Cwd, Facts, Session) and
// share its Rego library through PrepareLibrary and EvalLibrary; runtime
// imports none of them.
package runtime
