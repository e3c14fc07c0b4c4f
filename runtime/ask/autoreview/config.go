package autoreview

import (
	"fmt"
	"time"

	"github.com/regate/regate/compiler"
	"github.com/regate/regate/runtime/ask"
)

// Name is the link's name in authorizerChain.
const Name = "auto-review"

// Host is what the host supplies for reviews: a way to reach a pinned
// provider, and the session's own client and current model for when the
// policy pins none (the reviewer then follows the session, so a model
// switch applies to the very next ask).
type Host struct {
	Resolve      func(provider string) (Provider, error)
	Session      Provider
	SessionModel func() string
}

// FromPolicy builds the reviewer's Config from the policy's autoReview
// (bounds were checked when the policy compiled). warning is non-empty
// when a pinned review cannot run, which the host shows once at session
// start: autoReview.provider without autoReview.model (or the reverse), or
// a pinned provider the host cannot resolve. Every ask then defers.
func FromPolicy(ar compiler.AutoReview, h Host) (cfg Config, warning string) {
	cfg = Config{
		Timeout:         time.Duration(ar.TimeoutMs) * time.Millisecond,
		MaxAttempts:     ar.MaxAttempts,
		MaxOutputTokens: ar.MaxOutputTokens,
		Reasoning:       ar.Reasoning,
		Budget: Budget{
			MessageTokens:       ar.TranscriptMessageTokens,
			ToolTokens:          ar.TranscriptToolTokens,
			MaxUntrustedEntries: ar.TranscriptMaxUntrustedEntries,
		},
	}
	switch {
	case (ar.Provider == "") != (ar.Model == ""):
		cfg.Misconfigured = "autoReview.provider and autoReview.model must be set together"
		return cfg, "automatic review cannot run: " + cfg.Misconfigured
	case ar.Provider == "":
		// Follow the session: absence of a session model is the session's
		// business, so nothing is warned.
		cfg.Provider, cfg.SessionModel = h.Session, h.SessionModel
		return cfg, ""
	}
	cfg.Model = ar.Model
	if h.Resolve == nil {
		cfg.Misconfigured = fmt.Sprintf("the host offers no provider %q", ar.Provider)
		return cfg, "automatic review cannot run: " + cfg.Misconfigured
	}
	p, err := h.Resolve(ar.Provider)
	if err != nil || p == nil {
		cfg.Misconfigured = fmt.Sprintf("provider %q cannot be resolved", ar.Provider)
		if err != nil {
			cfg.Misconfigured += ": " + err.Error()
		}
		return cfg, "automatic review cannot run: " + cfg.Misconfigured
	}
	cfg.Provider = p
	return cfg, ""
}

// Register registers a reviewer built from the policy on chain when
// autoReview.enabled is set, and returns it (nil when disabled). Like any
// link, it decides nothing until authorizerChain names "auto-review".
func Register(chain *ask.Chain, ar compiler.AutoReview, h Host) (r *Reviewer, warning string) {
	if !ar.Enabled {
		return nil, ""
	}
	cfg, warning := FromPolicy(ar, h)
	r = New(cfg)
	chain.Register(Name, r)
	return r, warning
}
