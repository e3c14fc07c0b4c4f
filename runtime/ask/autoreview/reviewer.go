package autoreview

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/regate/regate/runtime"
	"github.com/regate/regate/runtime/ask"
)

// A Request is one review call.
type Request struct {
	Model           string
	System          string
	User            string
	Tools           []Tool
	MaxOutputTokens int
	Reasoning       string
}

// A Tool is one of the two verdict tools offered to the model.
type Tool struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
}

// A Provider calls a model. An error is a provider error, which is retried
// while attempts and time remain.
type Provider interface {
	Complete(ctx context.Context, req Request) (Reply, error)
}

// Config is the policy's autoReview with the host's model.
type Config struct {
	Provider Provider
	// Model is a pinned model; when empty, SessionModel gives the session's
	// current model at each ask.
	Model           string
	SessionModel    func() string
	Timeout         time.Duration // default 30 s
	MaxAttempts     int           // default 2
	MaxOutputTokens int           // default 4000
	Reasoning       string        // default "low"
	// Misconfigured, when set, says why no review can run (say, provider
	// without model): every ask defers with it.
	Misconfigured string
	// Transcript, when set, gives the session transcript the reviewer sees
	// for an ask, rendered under Budget.
	Transcript func(ask.Ask) []Entry
	Budget     Budget
	// Log, when set, is the review log every outcome is written to.
	Log *runtime.Log
}

// Fixed notes of the failures, written by regate, not the model.
var failureNotes = map[string]string{
	NoVerdict:       "automatic review gave no verdict (the model called no tool)",
	InvalidResponse: "automatic review gave an invalid response",
	Truncated:       "automatic review was cut off before a verdict",
	ProviderError:   "automatic review could not reach its model",
	Timeout:         "automatic review ran out of time",
	NoModel:         "automatic review has no model to ask",
}

var verdictTools = []Tool{
	{Name: Approve, Description: "Approve the planned action. Give the reason.", Parameters: reasonSchema},
	{Name: Reject, Description: "Reject the planned action; a human will decide. Give the reason.", Parameters: reasonSchema},
}

var reasonSchema = json.RawMessage(`{"type":"object","properties":{"reason":{"type":"string","minLength":1}},"required":["reason"]}`)

// SystemPrompt is the fixed review system prompt.
const SystemPrompt = "You review one action a coding agent plans to take, which its permission policy sent to review. " +
	"Call exactly one tool: approve if the action is what the user asked for and safe, reject otherwise. " +
	"Always give a short reason. Do not answer in prose."

// Reviewer is the auto-review link. It is safe for concurrent use.
type Reviewer struct {
	cfg Config

	mu      sync.Mutex
	message string              // the user message the cache belongs to
	allowed map[string]struct{} // actions approved during it
}

// New returns the reviewer with the defaults filled in.
func New(cfg Config) *Reviewer {
	if cfg.Timeout <= 0 {
		cfg.Timeout = 30 * time.Second
	}
	if cfg.MaxAttempts <= 0 {
		cfg.MaxAttempts = 2
	}
	if cfg.MaxOutputTokens <= 0 {
		cfg.MaxOutputTokens = 4000
	}
	if cfg.Reasoning == "" {
		cfg.Reasoning = "low"
	}
	return &Reviewer{cfg: cfg, allowed: map[string]struct{}{}}
}

// Result is a review's outcome, for the review log.
type Result struct {
	Model    string `json:"model,omitempty"`
	Outcome  string `json:"outcome"`
	Reason   string `json:"reason,omitempty"`
	Attempts int    `json:"attempts"`
	Cached   bool   `json:"cached,omitempty"`
	Usage    Usage  `json:"usage"`
	// Transcript describes what the model was shown.
	Transcript *Stats `json:"transcript,omitempty"`
}

// Authorize reviews an ask: the ask.Authorizer of the chain. The
// outcome goes to Config.Log, the review log, when set.
func (r *Reviewer) Authorize(ctx context.Context, a ask.Ask) (ask.Verdict, error) {
	v, res := r.Review(ctx, a)
	if r.cfg.Log != nil {
		if err := ask.LogReview(r.cfg.Log, a, v, res); err != nil {
			return v, fmt.Errorf("autoreview: review log: %w", err)
		}
	}
	return v, nil
}

// Review reviews an ask and reports how.
func (r *Reviewer) Review(ctx context.Context, a ask.Ask) (ask.Verdict, Result) {
	action := actionJSON(a)
	if r.cachedAllow(a.UserMessage, action) {
		return ask.Verdict{Action: "allow", Reason: "approved by automatic review earlier in this user message"}, Result{Outcome: Approve, Cached: true}
	}
	model := r.cfg.Model
	if model == "" && r.cfg.SessionModel != nil {
		model = r.cfg.SessionModel()
	}
	if r.cfg.Misconfigured != "" || r.cfg.Provider == nil || model == "" {
		return deferred(NoModel, r.cfg.Misconfigured), Result{Outcome: NoModel}
	}
	res := Result{Model: model}
	budget, cancel := context.WithTimeout(ctx, r.cfg.Timeout)
	defer cancel()
	user := "Planned action:\n" + action
	if r.cfg.Transcript != nil {
		text, st := Render(r.cfg.Transcript(a), r.cfg.Budget)
		user = "Transcript:\n" + text + "\n" + user
		res.Transcript = &st
	}
	req := Request{Model: model, System: SystemPrompt, User: user, Tools: verdictTools,
		MaxOutputTokens: r.cfg.MaxOutputTokens, Reasoning: r.cfg.Reasoning}
	for res.Attempts < r.cfg.MaxAttempts {
		res.Attempts++
		reply, err := r.cfg.Provider.Complete(budget, req)
		switch {
		case ctx.Err() != nil: // the user aborted: deny, so no dialog follows a no
			res.Outcome = Cancelled
			return ask.Verdict{Action: "deny", Reason: "the review was cancelled"}, res
		case errors.Is(budget.Err(), context.DeadlineExceeded):
			res.Outcome = Timeout
			return deferred(Timeout, ""), res
		case err != nil:
			res.Outcome = ProviderError
			continue // retried while attempts and time remain
		}
		res.Usage.InputTokens += reply.Usage.InputTokens
		res.Usage.OutputTokens += reply.Usage.OutputTokens
		outcome, reason := ParseVerdict(reply)
		res.Outcome, res.Reason = outcome, reason
		switch outcome {
		case Approve:
			r.cacheAllow(a.UserMessage, action)
			return ask.Verdict{Action: "allow", Reason: "[model-generated] " + reason}, res
		case Reject:
			return ask.Verdict{Action: "defer", Reason: "[model-generated] " + reason}, res
		}
		return deferred(outcome, ""), res // malformed or truncated: not retried
	}
	return deferred(ProviderError, ""), res
}

func deferred(outcome, detail string) ask.Verdict {
	note := failureNotes[outcome]
	if detail != "" {
		note += ": " + detail
	}
	return ask.Verdict{Action: "defer", Reason: "[regate] " + note}
}

// actionJSON is the bounded description of the planned action the model
// sees, and the cache's key.
func actionJSON(a ask.Ask) string {
	b, _ := json.Marshal(map[string]any{
		"tool": a.Call.Tool, "input": a.Call.Input, "agent": a.Call.Agent,
		"surface": a.Decision.Surface, "value": a.Decision.Value, "matched": a.Decision.Matched,
		"runs": a.Runs,
	})
	if len(b) > 8000 {
		return string(b[:8000]) + "…"
	}
	return string(b)
}

func (r *Reviewer) cachedAllow(message, action string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if message != r.message {
		return false
	}
	_, ok := r.allowed[action]
	return ok
}

// cacheAllow remembers an approval for the rest of message; a new message
// forgets every earlier one. Rejects are never cached.
func (r *Reviewer) cacheAllow(message, action string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if message != r.message {
		r.message, r.allowed = message, map[string]struct{}{}
	}
	r.allowed[action] = struct{}{}
}
