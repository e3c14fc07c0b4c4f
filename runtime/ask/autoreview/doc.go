// Package autoreview is the built-in authorizer "auto-review" (the spec's
// "Built-in AutoReview"): one model call per ask, whose verdict is exactly
// one tool call, approve or reject, with a non-empty reason. approve
// allows; reject defers with the model's reason labelled as model-generated;
// every failure (no tool call, two calls, an unknown tool, a missing
// reason, a truncated reply, a provider error past the attempts or the
// time budget, no model) defers with a fixed note. A cancelled review
// denies. An allow is reused for the rest of the current user message.
package autoreview
