package profile

import (
	"context"
	"fmt"

	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/open-policy-agent/opa/v1/storage/inmem"
	profilerules "github.com/regate/regate/compiler/profile"
	"github.com/regate/regate/runtime"
)

// ProfileQuery is the decision of profile resolution.
const ProfileQuery = "data.regate.lib.profile.decision"

// Profiles resolves which prompt profile applies (regate.lib.profile) over
// a compiled profile rule set, and composes the prompt with it.
type Profiles struct {
	query rego.PreparedEvalQuery
	out   *profilerules.Output
}

// NewProfiles prepares the resolution over out.
func NewProfiles(ctx context.Context, out *profilerules.Output) (*Profiles, error) {
	store := inmem.NewFromObject(map[string]any{"regate": map[string]any{"profile": out.Data}})
	q, err := runtime.PrepareLibrary(ctx, ProfileQuery, store, out.Module)
	if err != nil {
		return nil, err
	}
	return &Profiles{query: q, out: out}, nil
}

// Model is the selected model.
type Model struct {
	Provider string `json:"provider"`
	Model    string `json:"model"`
}

// ProfileRequest is what resolution depends on besides the rule set.
type ProfileRequest struct {
	// Model is nil before a model is selected.
	Model *Model
	// Subagent is set when the process marks itself as a subagent child.
	Subagent bool
	// Flags are the start-up selection flags (--sp-profile, --sp-auto,
	// --sp-off); more than one is ignored.
	Flags []profilerules.Selection
	// Session holds the selection entries of the session's active branch,
	// oldest first; the newest decides when it can be read.
	Session []profilerules.Selection
}

// ProfileDecision is what applies, as data: the selection (mode, where it
// came from), the profile and its layers most specific first, and why.
type ProfileDecision struct {
	// Profile is the applied profile, "global:id" or "project:id"; "" is
	// none, and the host keeps its own prompt.
	Profile string `json:"profile"`
	// Mode is auto, manual or off.
	Mode string `json:"mode"`
	// SelectionFrom is flag, session, project, global or default.
	SelectionFrom string `json:"selection_from"`
	// Binding ("scope:id"), its Specificity (0-3) and Priority, when a
	// binding applied.
	Binding     string  `json:"binding,omitempty"`
	Specificity int     `json:"specificity,omitempty"`
	Priority    float64 `json:"priority,omitempty"`
	// Conflict is the scope whose tie applied no binding, if any.
	Conflict string   `json:"conflict,omitempty"`
	Layers   []string `json:"layers"`
	// Diagnostics are the codes resolution reported (profile-missing,
	// auto-none, binding-conflict, ...); the rule set's own are in
	// compiler/profile's Output.Diagnostics.
	Diagnostics []string `json:"diagnostics"`
}

type profileResult struct {
	Profile       *string  `json:"profile"`
	Mode          string   `json:"mode"`
	SelectionFrom string   `json:"selection_from"`
	Binding       *string  `json:"binding"`
	Specificity   *int     `json:"specificity"`
	Priority      *float64 `json:"priority"`
	Conflict      *string  `json:"conflict"`
	Layers        []string `json:"layers"`
	Diagnostics   []string `json:"diagnostics"`
}

// Input returns the input document of a resolution: what a stock OPA
// server holding the library and the compiled rule set decides on at
// /v1/data/regate/lib/profile/decision.
func (p *Profiles) Input(req ProfileRequest) map[string]any {
	in := map[string]any{"model": nil, "subagent": req.Subagent, "flags": selections(req.Flags), "session": selections(req.Session)}
	if req.Model != nil {
		in["model"] = req.Model
	}
	return in
}

// Resolve decides which profile applies.
func (p *Profiles) Resolve(ctx context.Context, req ProfileRequest) (ProfileDecision, error) {
	in := p.Input(req)
	var r profileResult
	if err := runtime.EvalLibrary(ctx, p.query, in, &r); err != nil {
		return ProfileDecision{}, err
	}
	switch r.Mode {
	case "auto", "manual", "off":
	default:
		return ProfileDecision{}, fmt.Errorf("profile: profile resolution returned mode %q", r.Mode)
	}
	d := ProfileDecision{Mode: r.Mode, SelectionFrom: r.SelectionFrom, Layers: r.Layers, Diagnostics: r.Diagnostics}
	d.Profile, d.Binding, d.Conflict = deref(r.Profile), deref(r.Binding), deref(r.Conflict)
	if r.Specificity != nil {
		d.Specificity = *r.Specificity
	}
	if r.Priority != nil {
		d.Priority = *r.Priority
	}
	return d, nil
}

// Compose returns the prompt with the decision's managed block, or false
// when no profile applies (the host keeps its own prompt).
func (p *Profiles) Compose(d ProfileDecision, prompt string) (string, bool) {
	if d.Profile == "" || len(d.Layers) == 0 {
		return "", false
	}
	bodies := make([]string, len(d.Layers))
	for i, ref := range d.Layers {
		bodies[i] = p.out.Bodies[ref]
	}
	return profilerules.Compose(prompt, bodies), true
}

func selections(s []profilerules.Selection) []profilerules.Selection {
	if s == nil {
		return []profilerules.Selection{}
	}
	return s
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
