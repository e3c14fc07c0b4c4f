package delegation

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/regate/regate/compiler"
	"github.com/tailscale/hujson"
)

// Decode reads a delegation policy from a JSONC document named file. Every
// problem is a compiler.Error with the file, line and column; the policy is
// nil when there is any. Unknown keys are kept (Policy.Unknown), and rates
// and windows are kept as written: SubsetProblems and the ceiling judge
// them.
func Decode(file string, src []byte) (*Policy, error) {
	doc, errs := compiler.ParseDocument(file, src)
	if errs != nil {
		return nil, errs
	}
	d := decoder{doc: doc}
	p := d.policy(&doc.Root)
	if len(d.errs) > 0 {
		d.errs.Sort()
		return nil, d.errs
	}
	return p, nil
}

// DecodeRequest reads a Narrow request: an object with any of
// allowed_tools, denied_tools, rate_limits and amplification_budget. A null
// value is no request.
func DecodeRequest(file string, src []byte) (Request, error) {
	doc, errs := compiler.ParseDocument(file, src)
	if errs != nil {
		return Request{}, errs
	}
	d := decoder{doc: doc}
	var r Request
	d.members(&doc.Root, func(key string, v *hujson.Value) {
		if isNull(v) {
			return
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
			d.errorf(v, compiler.CodeUnknownKey, "narrow does not take %q: it takes allowed_tools, denied_tools, rate_limits and amplification_budget", key)
		}
	})
	if len(d.errs) > 0 {
		d.errs.Sort()
		return Request{}, d.errs
	}
	return r, nil
}

type decoder struct {
	doc  *compiler.Document
	errs compiler.Errors
}

func (d *decoder) errorf(v *hujson.Value, code, format string, args ...any) {
	d.errs = append(d.errs, &compiler.Error{
		Pos: d.doc.Pos(v.StartOffset), Code: code, Msg: fmt.Sprintf(format, args...), Severity: compiler.SeverityError,
	})
}

// members calls f for each member of the object v, or reports v. An
// unknown key is reported where the key stands.
func (d *decoder) members(v *hujson.Value, f func(key string, v *hujson.Value)) {
	obj, ok := v.Value.(*hujson.Object)
	if !ok {
		d.errorf(v, compiler.CodeWrongType, "want an object")
		return
	}
	for i := range obj.Members {
		m := &obj.Members[i]
		n := len(d.errs)
		f(m.Name.Value.(hujson.Literal).String(), &m.Value)
		at := d.doc.Pos(m.Value.StartOffset)
		for _, e := range d.errs[n:] {
			if e.Code == compiler.CodeUnknownKey && e.Pos == at {
				e.Pos = d.doc.Pos(m.Name.StartOffset)
			}
		}
	}
}

func (d *decoder) policy(v *hujson.Value) *Policy {
	// The object itself is at "": where a problem about a field the policy
	// leaves out points.
	p := &Policy{ReauthThreshold: 1, pos: map[string]compiler.Pos{"": d.doc.Pos(v.StartOffset)}}
	d.members(v, func(key string, v *hujson.Value) {
		p.pos[key] = d.doc.Pos(v.StartOffset)
		d.entryPositions(p, key, v)
		switch key {
		case "$schema":
			d.schemaRef(v)
		case "allowed_tools":
			p.AllowedTools = d.globs(key, v)
		case "default_deny":
			d.scalar(v, &p.DefaultDeny)
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
			d.scalar(v, &p.RequireAgentID)
		case "allowed_roles":
			d.scalar(v, &p.AllowedRoles)
		case "reauth_on_untrusted_reinvocation":
			d.scalar(v, &p.Reauth)
		case "untrusted_reinvocation_threshold":
			if d.scalar(v, &p.ReauthThreshold) && p.ReauthThreshold < 0 {
				d.errorf(v, compiler.CodeOutOfRange, "untrusted_reinvocation_threshold must not be negative")
			}
		case "escalate_tools":
			p.EscalateTools = d.globMap(key, v)
		case "approver":
			d.scalar(v, &p.Approver)
		case "escalation_channel":
			d.scalar(v, &p.EscalationChannel)
		case "escalation_ledger":
			d.scalar(v, &p.EscalationLedger)
		case "standing_grants":
			p.StandingGrants = d.globs(key, v)
		case "amplification_budget":
			if !isNull(v) {
				p.CallBudget = d.budget(v)
			}
		default:
			raw := standard(v)
			if slices.Contains(opaqueFields, key) {
				if p.Opaque == nil {
					p.Opaque = map[string]json.RawMessage{}
				}
				p.Opaque[key] = raw
				return
			}
			if p.Unknown == nil {
				p.Unknown = map[string]json.RawMessage{}
			}
			p.Unknown[key] = raw
		}
	})
	return p
}

// entryPositions records where the entries of field were written: a list's
// strings at "field/entry", an object's keys at "field/key" (the key, where
// a pattern is written), and the call budget's bounds at
// "amplification_budget.bound". The first of equal entries is kept.
func (d *decoder) entryPositions(p *Policy, field string, v *hujson.Value) {
	at := func(key string, offset int) {
		if _, ok := p.pos[key]; !ok {
			p.pos[key] = d.doc.Pos(offset)
		}
	}
	switch c := v.Value.(type) {
	case *hujson.Array:
		for i := range c.Elements {
			e := &c.Elements[i]
			if lit, ok := e.Value.(hujson.Literal); ok && lit.Kind() == '"' {
				at(field+"/"+lit.String(), e.StartOffset)
			}
		}
	case *hujson.Object:
		for i := range c.Members {
			m := &c.Members[i]
			name := m.Name.Value.(hujson.Literal).String()
			if field == "amplification_budget" {
				at(field+"."+name, m.Value.StartOffset)
				continue
			}
			at(field+"/"+name, m.Name.StartOffset)
		}
	}
}

// schemaRef checks a "$schema" member: a string naming the schema the file
// follows (compiler/schema's delegation.schema.json), for editors. It is
// not part of the policy: narrow, subset and the ceiling never read it.
func (d *decoder) schemaRef(v *hujson.Value) {
	var ref string
	d.scalar(v, &ref)
}

// scalar decodes v into dst with encoding/json, reporting a type mismatch
// at v. It reports whether it succeeded.
func (d *decoder) scalar(v *hujson.Value, dst any) bool {
	dec := json.NewDecoder(bytes.NewReader(standard(v)))
	dec.UseNumber()
	if err := dec.Decode(dst); err != nil {
		d.errorf(v, compiler.CodeWrongType, "want %s", typeName(dst))
		return false
	}
	return true
}

func typeName(dst any) string {
	switch dst.(type) {
	case *bool:
		return "true or false"
	case *int64:
		return "an integer"
	case *string:
		return "a string"
	case **string:
		return "a string or null"
	case *[]string:
		return "a list of strings"
	case *map[string]string:
		return "an object of strings"
	}
	return fmt.Sprintf("%T", dst)
}

func (d *decoder) oneOf(v *hujson.Value, values ...string) string {
	var s string
	if !d.scalar(v, &s) {
		return ""
	}
	if !slices.Contains(values, s) {
		d.errorf(v, compiler.CodeOutOfRange, "%q is not one of %q", s, values)
		return ""
	}
	return s
}

// globs decodes a list of globs, each checked.
func (d *decoder) globs(field string, v *hujson.Value) []string {
	var gs []string
	if !d.scalar(v, &gs) {
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
func (d *decoder) globMap(field string, v *hujson.Value) map[string]string {
	var m map[string]string
	if !d.scalar(v, &m) {
		return nil
	}
	for g := range m {
		if err := CheckGlob(g); err != nil {
			d.errorf(v, compiler.CodeInvalidGlob, "%s: %v", field, err)
		}
	}
	return m
}

func (d *decoder) budget(v *hujson.Value) *CallBudget {
	b := &CallBudget{}
	d.members(v, func(key string, v *hujson.Value) {
		if isNull(v) {
			return
		}
		switch key {
		case "baseline_calls_per_run":
			b.Baseline = d.count(v)
		case "max_calls_per_run":
			b.MaxCalls = d.count(v)
		case "max_sessions":
			b.MaxSessions = d.count(v)
		case "max_amplification_ratio":
			b.MaxRatio = d.number(v)
		case "max_wall_seconds":
			b.MaxWallSeconds = d.number(v)
		case "action":
			b.Action = d.oneOf(v, "block", "warn")
		default:
			d.errorf(v, compiler.CodeUnknownKey, "amplification_budget has no field %q", key)
		}
	})
	return b
}

func (d *decoder) count(v *hujson.Value) *int64 {
	var n int64
	if !d.scalar(v, &n) {
		return nil
	}
	if n < 0 {
		d.errorf(v, compiler.CodeOutOfRange, "must not be negative")
	}
	return &n
}

func (d *decoder) number(v *hujson.Value) *json.Number {
	var n json.Number
	if !d.scalar(v, &n) {
		return nil
	}
	if r, ok := ratOf(n); !ok || r.Sign() < 0 {
		d.errorf(v, compiler.CodeOutOfRange, "must be a number, not negative")
	}
	return &n
}

func isNull(v *hujson.Value) bool {
	lit, ok := v.Value.(hujson.Literal)
	return ok && lit.Kind() == 'n'
}

// standard is v as plain JSON, comments removed.
func standard(v *hujson.Value) json.RawMessage {
	c := v.Clone()
	c.Standardize()
	c.Minimize()
	return json.RawMessage(c.Pack())
}
