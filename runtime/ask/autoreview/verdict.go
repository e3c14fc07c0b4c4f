package autoreview

import (
	"encoding/json"
	"strings"
)

// A ToolCall is one tool call of a model's reply.
type ToolCall struct {
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
}

// A Reply is what a provider returns for one review.
type Reply struct {
	ToolCalls []ToolCall
	Text      string
	// StopReason is the provider's; "length" means the reply was cut off.
	StopReason string
	Usage      Usage
}

// Usage is what a call cost, as the provider reports it.
type Usage struct {
	InputTokens  int `json:"prompt_tokens"`
	OutputTokens int `json:"completion_tokens"`
}

// Outcomes: the two verdicts, and the failures, which are not verdicts.
const (
	Approve         = "approve"
	Reject          = "reject"
	NoVerdict       = "no_verdict"       // no tool call, even if the text is valid JSON
	InvalidResponse = "invalid_response" // two or more calls, an unknown tool, a missing reason
	Truncated       = "truncated"        // the reply hit its length limit
	ProviderError   = "provider_error"   // the provider failed on every attempt
	Timeout         = "timeout"          // the time budget ran out
	NoModel         = "no_model"         // no reviewer model (or a half-pinned one)
	Cancelled       = "cancelled"        // the user aborted the review
)

// ParseVerdict reads a reply: Approve or Reject with the reason, or the
// failure it is. The verdict protocol is the tool call, not prose.
func ParseVerdict(r Reply) (outcome, reason string) {
	if r.StopReason == "length" {
		return Truncated, ""
	}
	if len(r.ToolCalls) == 0 {
		return NoVerdict, ""
	}
	if len(r.ToolCalls) > 1 {
		return InvalidResponse, ""
	}
	call := r.ToolCalls[0]
	if call.Name != Approve && call.Name != Reject {
		return InvalidResponse, ""
	}
	var args struct {
		Reason *string `json:"reason"`
	}
	if err := json.Unmarshal(call.Arguments, &args); err != nil || args.Reason == nil || strings.TrimSpace(*args.Reason) == "" {
		return InvalidResponse, ""
	}
	return call.Name, strings.TrimSpace(*args.Reason)
}
