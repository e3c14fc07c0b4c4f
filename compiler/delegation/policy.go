package delegation

import (
	"encoding/json"
	"maps"
	"slices"

	"github.com/regate/regate/compiler"
)

// Policy is a delegation policy: what a child agent's calls are held to at
// the ceiling (step 2.1), and what Narrow and SubsetProblems compare. The
// JSON names are the spec's. An absent field has its default; the zero
// Policy admits every tool.
type Policy struct {
	// AllowedTools: empty with DefaultDeny false admits every tool;
	// otherwise a tool must match one pattern.
	AllowedTools []string `json:"allowed_tools"`
	DefaultDeny  bool     `json:"default_deny"`
	// DeniedTools: a match refuses, whatever the allowlist says.
	DeniedTools []string `json:"denied_tools"`
	// TimeRestrictions maps a tool glob to a window "HH:MM-HH:MM"; the most
	// specific matching pattern's window must contain the call's time.
	// Values are kept as written: an invalid one is a problem, not a
	// decoding error, and refuses every call at the ceiling.
	TimeRestrictions map[string]string `json:"time_restrictions"`
	// RateLimits maps a tool glob to a rate "N/hour" (token buckets).
	RateLimits map[string]string `json:"rate_limits"`
	// RateLimitMode is "most_specific" (the default) or "all".
	RateLimitMode string `json:"rate_limit_mode"`
	// RateLimitScope is "policy" (the default: one bucket per pattern) or
	// "agent" (one per pattern per agent).
	RateLimitScope string `json:"rate_limit_scope"`
	RequireAgentID bool   `json:"require_agent_id"`
	// AllowedRoles: empty admits any role; otherwise the agent needs one.
	AllowedRoles []string `json:"allowed_roles"`
	// Reauth requires an authorize-once grant for a tool re-invoked after
	// untrusted output, once the prior invocations reach ReauthThreshold.
	Reauth          bool  `json:"reauth_on_untrusted_reinvocation"`
	ReauthThreshold int64 `json:"untrusted_reinvocation_threshold"`
	// EscalateTools maps a tool glob to the reason its calls escalate.
	EscalateTools map[string]string `json:"escalate_tools"`
	// Approver, EscalationChannel and EscalationLedger: nil is none.
	Approver          *string `json:"approver"`
	EscalationChannel *string `json:"escalation_channel"`
	EscalationLedger  *string `json:"escalation_ledger"`
	// StandingGrants are escalations approved in advance (globs).
	StandingGrants []string `json:"standing_grants"`
	// CallBudget is the amplification budget; nil is none.
	CallBudget *CallBudget `json:"amplification_budget"`
	// Opaque holds the fields the ceiling does not apply (the guards, the
	// capability policy, ...): a child must carry the parent's, compared as
	// JSON.
	Opaque map[string]json.RawMessage `json:"-"`
	// Unknown holds keys outside the spec's table. They are kept, and any
	// policy that has one fails SubsetProblems: a field nobody compares is
	// never proven.
	Unknown map[string]json.RawMessage `json:"-"`

	pos map[string]compiler.Pos // where fields and their entries were written
}

// CallBudget is the amplification budget. A nil bound is unbounded.
type CallBudget struct {
	Baseline       *int64       `json:"baseline_calls_per_run,omitempty"`
	MaxCalls       *int64       `json:"max_calls_per_run,omitempty"`
	MaxRatio       *json.Number `json:"max_amplification_ratio,omitempty"`
	MaxWallSeconds *json.Number `json:"max_wall_seconds,omitempty"`
	MaxSessions    *int64       `json:"max_sessions,omitempty"`
	// Action is "block" (the default, "") or "warn".
	Action string `json:"action,omitempty"`
}

// opaqueFields are the spec's fields outside the ceiling: compared by JSON
// equality ("the parent's own object").
var opaqueFields = []string{
	"capability_policy", "stdio_mode", "model_tier_budget", "sequence_guard", "action_contradiction_gate",
	"deserialization_guard", "trace_redaction", "escalation_timeout_seconds",
}

// AdmitsEveryTool reports whether the allowlist admits any tool.
func (p *Policy) AdmitsEveryTool() bool { return len(p.AllowedTools) == 0 && !p.DefaultDeny }

// Admits reports whether the tool lists admit tool: not denied, and allowed.
func (p *Policy) Admits(tool string) bool {
	return !matchesAny(p.DeniedTools, tool) && p.allowed(tool)
}

func (p *Policy) allowed(tool string) bool {
	return p.AdmitsEveryTool() || matchesAny(p.AllowedTools, tool)
}

func matchesAny(patterns []string, name string) bool {
	for _, g := range patterns {
		if Match(g, name) {
			return true
		}
	}
	return false
}

// Clone returns a deep copy: what a lease freezes, and what Narrow starts
// from.
func (p *Policy) Clone() *Policy {
	c := *p
	c.AllowedTools = slices.Clone(p.AllowedTools)
	c.DeniedTools = slices.Clone(p.DeniedTools)
	c.AllowedRoles = slices.Clone(p.AllowedRoles)
	c.StandingGrants = slices.Clone(p.StandingGrants)
	c.TimeRestrictions = maps.Clone(p.TimeRestrictions)
	c.RateLimits = maps.Clone(p.RateLimits)
	c.EscalateTools = maps.Clone(p.EscalateTools)
	c.Approver = cloneString(p.Approver)
	c.EscalationChannel = cloneString(p.EscalationChannel)
	c.EscalationLedger = cloneString(p.EscalationLedger)
	if p.CallBudget != nil {
		b := *p.CallBudget
		c.CallBudget = &b
	}
	c.Opaque = maps.Clone(p.Opaque)
	c.Unknown = maps.Clone(p.Unknown)
	c.pos = maps.Clone(p.pos)
	return &c
}

func cloneString(s *string) *string {
	if s == nil {
		return nil
	}
	v := *s
	return &v
}

// Pos is where field (or "field/entry") was written, when the policy was
// decoded from a file.
func (p *Policy) Pos(key string) (compiler.Pos, bool) {
	pos, ok := p.pos[key]
	return pos, ok
}

// MarshalJSON writes the policy's effective values (defaults included,
// lists and maps never null), the opaque and unknown fields as they were.
func (p *Policy) MarshalJSON() ([]byte, error) {
	m := map[string]any{
		"allowed_tools":                    orEmpty(p.AllowedTools),
		"default_deny":                     p.DefaultDeny,
		"denied_tools":                     orEmpty(p.DeniedTools),
		"time_restrictions":                orEmptyMap(p.TimeRestrictions),
		"rate_limits":                      orEmptyMap(p.RateLimits),
		"rate_limit_mode":                  p.Mode(),
		"rate_limit_scope":                 p.Scope(),
		"require_agent_id":                 p.RequireAgentID,
		"allowed_roles":                    orEmpty(p.AllowedRoles),
		"reauth_on_untrusted_reinvocation": p.Reauth,
		"untrusted_reinvocation_threshold": p.ReauthThreshold,
		"escalate_tools":                   orEmptyMap(p.EscalateTools),
		"approver":                         p.Approver,
		"escalation_channel":               p.EscalationChannel,
		"escalation_ledger":                p.EscalationLedger,
		"standing_grants":                  orEmpty(p.StandingGrants),
		"amplification_budget":             p.CallBudget,
	}
	for k, v := range p.Opaque {
		m[k] = v
	}
	for k, v := range p.Unknown {
		m[k] = v
	}
	return json.Marshal(m)
}

// Mode is the effective rate_limit_mode.
func (p *Policy) Mode() string {
	if p.RateLimitMode == "" {
		return "most_specific"
	}
	return p.RateLimitMode
}

// Scope is the effective rate_limit_scope.
func (p *Policy) Scope() string {
	if p.RateLimitScope == "" {
		return "policy"
	}
	return p.RateLimitScope
}

func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func orEmptyMap(m map[string]string) map[string]string {
	if m == nil {
		return map[string]string{}
	}
	return m
}

// ValueProblems lists the rates and windows that are not valid: kept as
// written by Decode, a problem in SubsetProblems, and at the ceiling a
// policy that refuses every call.
func (p *Policy) ValueProblems() []Problem {
	var ps problems
	for _, pattern := range sortedKeys(p.TimeRestrictions) {
		if _, err := ParseWindow(p.TimeRestrictions[pattern]); err != nil {
			ps.add(p, "time_restrictions", pattern, "time_restrictions[%q]: %v", pattern, err)
		}
	}
	for _, pattern := range sortedKeys(p.RateLimits) {
		if _, err := ParseRate(p.RateLimits[pattern]); err != nil {
			ps.add(p, "rate_limits", pattern, "rate_limits[%q]: %v", pattern, err)
		}
	}
	return ps.list
}

// UnknownFields are the keys outside the spec's table, sorted.
func (p *Policy) UnknownFields() []string { return sortedKeys(p.Unknown) }
