package delegation

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/regate/regate/compiler"
	"github.com/regate/regate/compiler/internal/ruledoc"
)

// Decode reads a delegation policy from a JSONC document named file
// (comments allowed, trailing commas not: docs/policy.md). Every problem is a
// compiler.Error with the file, line and column; the policy is nil when
// there is any. Unknown keys are kept (Policy.Unknown), and rates and
// windows are kept as written: SubsetProblems and the ceiling judge them.
// Check also warns of the unknown keys.
func Decode(file string, src []byte) (*Policy, error) {
	var d decoder
	root := d.parse(file, src)
	if root == nil {
		return nil, d.List
	}
	p := d.policy(root)
	if len(d.List) > 0 {
		d.List.Sort()
		return nil, d.List
	}
	return p, nil
}

// DecodeRequest reads a Narrow request: an object with any of
// allowed_tools, denied_tools, rate_limits and amplification_budget. A null
// value is no request.
func DecodeRequest(file string, src []byte) (Request, error) {
	var d decoder
	root := d.parse(file, src)
	if root == nil {
		return Request{}, d.List
	}
	var r Request
	if d.object(root) {
		for _, m := range root.Members {
			key, v := m.Key, m.Val
			if v.IsNull() {
				continue
			}
			switch key {
			case "$schema":
				d.schemaRef(v)
			case "allowed_tools":
				r.AllowedTools = d.globs(key, v)
				if r.AllowedTools == nil {
					r.AllowedTools = []string{}
				}
			case "denied_tools":
				r.DeniedTools = d.globs(key, v)
			case "rate_limits":
				r.RateLimits = d.globMap(key, v)
			case "amplification_budget":
				r.CallBudget = d.budget(v)
			default:
				d.Errorf(m.KeyPos, compiler.CodeUnknownKey, "narrow does not take %q: it takes allowed_tools, denied_tools, rate_limits and amplification_budget", key)
			}
		}
	}
	if len(d.List) > 0 {
		d.List.Sort()
		return Request{}, d.List
	}
	return r, nil
}

// decoder decodes one delegation file. Its diagnostics are all errors:
// a delegation file either loads whole or not at all.
type decoder struct {
	ruledoc.Diags
}

// parse reads the file as JSONC, every member kept (a repeated key is
// read again, and the later value wins) and every number as written.
func (d *decoder) parse(file string, src []byte) *ruledoc.Node {
	return ruledoc.Parse(file, src, ruledoc.Options{Dialect: ruledoc.JSONC, KeepDuplicates: true, KeepHugeNumbers: true}, &d.Diags)
}

func (d *decoder) errorf(n *ruledoc.Node, code, format string, args ...any) {
	d.Errorf(n.Pos, code, format, args...)
}

// object reports whether n is an object, and reports it when it is not.
func (d *decoder) object(n *ruledoc.Node) bool {
	if n.Kind != ruledoc.Object {
		d.errorf(n, compiler.CodeWrongType, "want an object")
		return false
	}
	return true
}

func (d *decoder) policy(n *ruledoc.Node) *Policy {
	// The object itself is at "": where a problem about a field the policy
	// leaves out points.
	p := &Policy{ReauthThreshold: 1, pos: map[string]compiler.Pos{"": n.Pos}}
	if !d.object(n) {
		return p
	}
	for _, m := range n.Members {
		key, v := m.Key, m.Val
		p.pos[key] = v.Pos
		entryPositions(p, key, v)
		switch key {
		case "$schema":
			d.schemaRef(v)
		case "allowed_tools":
			p.AllowedTools = d.globs(key, v)
		case "default_deny":
			d.bool(v, &p.DefaultDeny)
		case "denied_tools":
			p.DeniedTools = d.globs(key, v)
		case "time_restrictions":
			p.TimeRestrictions = d.globMap(key, v)
		case "rate_limits":
			p.RateLimits = d.globMap(key, v)
		case "rate_limit_mode":
			p.RateLimitMode = d.oneOf(v, "most_specific", "all")
		case "rate_limit_scope":
			p.RateLimitScope = d.oneOf(v, "policy", "agent")
		case "require_agent_id":
			d.bool(v, &p.RequireAgentID)
		case "allowed_roles":
			p.AllowedRoles, _ = d.strings(v)
		case "reauth_on_untrusted_reinvocation":
			d.bool(v, &p.Reauth)
		case "untrusted_reinvocation_threshold":
			if d.int64(v, &p.ReauthThreshold) && p.ReauthThreshold < 0 {
				d.errorf(v, compiler.CodeOutOfRange, "untrusted_reinvocation_threshold must not be negative")
			}
		case "escalate_tools":
			p.EscalateTools = d.globMap(key, v)
		case "approver":
			d.optString(v, &p.Approver)
		case "escalation_channel":
			d.optString(v, &p.EscalationChannel)
		case "escalation_ledger":
			d.optString(v, &p.EscalationLedger)
		case "standing_grants":
			p.StandingGrants = d.globs(key, v)
		case "amplification_budget":
			if !v.IsNull() {
				p.CallBudget = d.budget(v)
			}
		default:
			raw := v.Standard()
			if slices.Contains(opaqueFields, key) {
				if p.Opaque == nil {
					p.Opaque = map[string]json.RawMessage{}
				}
				p.Opaque[key] = raw
				continue
			}
			if p.Unknown == nil {
				p.Unknown = map[string]json.RawMessage{}
			}
			p.Unknown[key] = raw
		}
	}
	return p
}

// entryPositions records where the entries of field were written: a list's
// strings at "field/entry", an object's keys at "field/key" (the key, where
// a pattern is written), and the call budget's bounds at
// "amplification_budget.bound". The first of equal entries is kept.
func entryPositions(p *Policy, field string, v *ruledoc.Node) {
	at := func(key string, pos compiler.Pos) {
		if _, ok := p.pos[key]; !ok {
			p.pos[key] = pos
		}
	}
	switch v.Kind {
	case ruledoc.Array:
		for _, e := range v.Elems {
			if s, ok := e.Text(); ok {
				at(field+"/"+s, e.Pos)
			}
		}
	case ruledoc.Object:
		for _, m := range v.Members {
			if field == "amplification_budget" {
				at(field+"."+m.Key, m.Val.Pos)
				continue
			}
			at(field+"/"+m.Key, m.KeyPos)
		}
	}
}

// schemaRef checks a "$schema" member: a string naming the schema the file
// follows (compiler/schema's delegation.schema.json), for editors. It is
// not part of the policy: narrow, subset and the ceiling never read it.
func (d *decoder) schemaRef(v *ruledoc.Node) {
	var ref string
	d.string(v, &ref)
}

func (d *decoder) oneOf(v *ruledoc.Node, values ...string) string {
	var s string
	if !d.string(v, &s) {
		return ""
	}
	if !slices.Contains(values, s) {
		d.errorf(v, compiler.CodeOutOfRange, "%q is not one of %q", s, values)
		return ""
	}
	return s
}

// globs decodes a list of globs, each checked.
func (d *decoder) globs(field string, v *ruledoc.Node) []string {
	gs, ok := d.strings(v)
	if !ok {
		return nil
	}
	for _, g := range gs {
		if err := CheckGlob(g); err != nil {
			d.errorf(v, compiler.CodeInvalidGlob, "%s: %v", field, err)
		}
	}
	return gs
}

// globMap decodes an object keyed by globs, each checked.
func (d *decoder) globMap(field string, v *ruledoc.Node) map[string]string {
	m, ok := d.stringMap(v)
	if !ok {
		return nil
	}
	for g := range m {
		if err := CheckGlob(g); err != nil {
			d.errorf(v, compiler.CodeInvalidGlob, "%s: %v", field, err)
		}
	}
	return m
}

func (d *decoder) budget(v *ruledoc.Node) *CallBudget {
	b := &CallBudget{}
	if !d.object(v) {
		return b
	}
	for _, m := range v.Members {
		key, v := m.Key, m.Val
		if v.IsNull() {
			continue
		}
		switch key {
		case "baseline_calls_per_run":
			b.Baseline = d.count(v)
		case "max_calls_per_run":
			b.MaxCalls = d.count(v)
		case "max_sessions":
			b.MaxSessions = d.count(v)
		case "max_amplification_ratio":
			b.MaxRatio = d.amount(v)
		case "max_wall_seconds":
			b.MaxWallSeconds = d.amount(v)
		case "action":
			b.Action = d.oneOf(v, "block", "warn")
		default:
			msg := fmt.Sprintf("amplification_budget has no field %q", key)
			if s := ruledoc.DidYouMean(key, budgetKeys); s != "" {
				msg += fmt.Sprintf("; did you mean %q?", s)
			}
			d.Errorf(m.KeyPos, compiler.CodeUnknownKey, "%s", msg)
		}
	}
	return b
}

func (d *decoder) count(v *ruledoc.Node) *int64 {
	var n int64
	if !d.int64(v, &n) {
		return nil
	}
	if n < 0 {
		d.errorf(v, compiler.CodeOutOfRange, "must not be negative")
	}
	return &n
}

func (d *decoder) amount(v *ruledoc.Node) *json.Number {
	var n json.Number
	if !d.number(v, &n) {
		return nil
	}
	if r, ok := ratOf(n); !ok || r.Sign() < 0 {
		d.errorf(v, compiler.CodeOutOfRange, "must be a number, not negative")
	}
	return &n
}
