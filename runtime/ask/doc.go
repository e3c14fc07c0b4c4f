// Package ask answers the calls a policy resolved to ask: who is asked,
// what they are shown, and what is written down. See docs/ask.md.
//
// # The chain
//
// A decision of ask (runtime.Decision) goes to the authorizer Chain, built
// from the policy's authorizerChain by PolicyChain (or NewChain from an
// order of one's own): the named links in the policy's order, then a
// terminal that always decides. A link is an Authorizer; it allows, denies
// or defers with a Verdict. Registering a link grants it nothing until the
// policy names it; a link that fails or answers anything else defers
// (absence of a judge means more prompting, never less); a terminal that
// does not decide, or a cancelled ask, denies. A decision that is not an
// ask is answered as it stands.
//
// # Terminals
//
// Interactive asks a person through the host's Prompter (NewInteractive
// takes the engine's session, working directory and prompt budgets) and
// records "approve for this session" as a session approval of exactly the
// value asked about. An Inbox carries the asks of subagent sessions to
// their parent, whose chain answers them (Inbox.Forwarder is the child's
// terminal, Inbox.Serve the parent's side). HeadlessDeny is the terminal
// of a session no one can answer.
//
// # Prompt facts
//
// New builds the Ask of a decision with the prompt facts the decision
// alone lacks (the command a wrapper such as xargs or sudo runs).
// BuildPrompt renders an ask as a Prompt of PromptLines under the
// policy's budgets: facts of the request are never dropped, evidence gives
// way first, and values under sensitive keys are masked.
//
// # Logs
//
// AskLogs are the review log (permissionReviewLog, on by default) and the
// opt-in debug log, both runtime.Log files: owner-only, masked and
// bounded. LogReview writes one ReviewEvent per answered ask.
//
// # AutoReview
//
// Package autoreview, beneath this one, is the built-in model-judge link
// "auto-review".
package ask
