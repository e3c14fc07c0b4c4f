package ask

import (
	"context"
	"strings"

	"github.com/regate/regate/compiler"
	"github.com/regate/regate/runtime"
)

// The choices of a permission prompt (the spec's inline dialog: y, s, n and
// r, which is n with a reason).
const (
	ApproveOnce    = "once"
	ApproveSession = "session"
	Deny           = "deny"
)

// An Answer is what a person chose at a permission prompt. Reason is a
// deny's reason, which the agent is shown.
type Answer struct {
	Choice string `json:"choice"`
	Reason string `json:"reason,omitempty"`
}

// A Prompter shows a person the prompt of an ask and returns their answer:
// the host's UI. An error, or a cancelled context, denies the ask.
type Prompter interface {
	Prompt(ctx context.Context, ask Ask, p Prompt) (Answer, error)
}

// PrompterFunc adapts a function to Prompter.
type PrompterFunc func(ctx context.Context, ask Ask, p Prompt) (Answer, error)

// Prompt calls f.
func (f PrompterFunc) Prompt(ctx context.Context, ask Ask, p Prompt) (Answer, error) {
	return f(ctx, ask, p)
}

// Interactive is the terminal of a session a person answers: it renders the
// ask's prompt facts under the policy's budgets, asks the Prompter, and
// records "approve for this session" as a session approval of exactly the
// value that was asked about.
type Interactive struct {
	Prompter Prompter
	// Session receives session approvals; nil makes them approve once.
	Session *runtime.Session
	// Cwd is shown as evidence; MaxRows and MaxWidth are promptMaxRows and
	// promptFieldMaxWidth (0: unbounded).
	Cwd               string
	MaxRows, MaxWidth int
}

// NewInteractive returns the interactive terminal of an engine: its
// session, its working directory and its policy's prompt budgets.
func NewInteractive(e *runtime.Engine, p Prompter) *Interactive {
	k := e.Knobs()
	return &Interactive{Prompter: p, Session: e.Session(), Cwd: e.Cwd(), MaxRows: k.PromptMaxRows, MaxWidth: k.PromptFieldMaxWidth}
}

// Authorize asks the person. Only an explicit approval allows.
func (t *Interactive) Authorize(ctx context.Context, ask Ask) (Verdict, error) {
	a, err := t.Prompter.Prompt(ctx, ask, BuildPrompt(ask, t.Cwd, t.MaxRows, t.MaxWidth))
	switch {
	case err != nil:
		return Verdict{}, err
	case ctx.Err() != nil:
		return Verdict{Action: "deny", Reason: "the prompt was cancelled"}, nil
	}
	switch a.Choice {
	case ApproveOnce:
		return Verdict{Action: "allow", Reason: "approved once by the user"}, nil
	case ApproveSession:
		return t.approveSession(ask)
	case Deny:
		reason := strings.Join(strings.Fields(a.Reason), " ")
		if reason == "" {
			reason = "denied by the user"
		}
		return Verdict{Action: "deny", Reason: reason}, nil
	}
	return Verdict{Action: "deny", Reason: "the prompt gave no answer regate knows (" + a.Choice + "), so the ask is denied"}, nil
}

// approveSession records an approval of the decided value on its surface.
// A value containing "*" or "?" cannot be approved for the session: the pattern
// language reads both as wildcards, so the approval would admit more than
// the person saw. It is approved once instead, and the verdict says so.
func (t *Interactive) approveSession(ask Ask) (Verdict, error) {
	d := ask.Decision
	switch {
	case t.Session == nil:
		return Verdict{Action: "allow", Reason: "approved once (this session keeps no approvals)"}, nil
	case d.Surface == "" || d.Value == "" || strings.ContainsAny(d.Value, "*?"):
		return Verdict{Action: "allow", Reason: "approved once: this value cannot be approved for the session without approving more than it"}, nil
	}
	if err := t.Session.Approve(compiler.Approval{Surface: d.Surface, Pattern: d.Value}); err != nil {
		return Verdict{}, err
	}
	return Verdict{Action: "allow", Reason: "approved for this session by the user"}, nil
}
