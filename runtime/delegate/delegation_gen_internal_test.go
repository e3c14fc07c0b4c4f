package delegate

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/regate/regate/compiler/delegation"
)

// The generator of the delegation soundness fuzzer (soundness_internal_test):
// random delegation policies drawn from the whole policy grammar, children
// made from their parents by random edits (so that the prover accepts a good
// share of them), narrowing requests, and call sequences with times, agents,
// roles and sessions. Patterns and tool names come from small vocabularies
// that overlap in every way the glob shapes can (prefix, suffix, "?", a
// class, two stars, literals), so that most-specific choices, ties and
// uncovered names all occur.

var (
	genPatterns = []string{
		"*", "read_*", "read_a", "read_?", "read_[ab]", "*_a", "r*", "write_*", "w*_b", "fetch_*",
		"*e*", "[rw]*", "a*b", "ab", "x", "rm_*", "wire_*", "wire_1", "*_file",
	}
	genTools = []string{
		"read_a", "read_b", "read_file", "write_a", "write_b", "fetch_x", "rm_a", "ab", "a_b", "x", "wire_1", "wire_2",
	}
	genWindows = []string{
		"09:00-17:00", "00:00-23:59", "08:00-18:00", "22:00-06:00", "12:00-12:00", "10:00-14:00", "17:00-09:00",
		"00:00-11:59", "12:00-23:59",
	}
	genMinutes = []int{0, 359, 360, 480, 540, 599, 600, 719, 720, 721, 840, 1019, 1020, 1021, 1080, 1320, 1439}
	genRoles   = []string{"ops", "dev", "admin"}
	genAgents  = []string{"a1", "a2", "a3"}
	genPeriods = []string{"second", "minute", "hour", "day"}
	genSteps   = []float64{0, 0, 0, 0, 0, 0, 0, 0, 0.5, 1, 1, 10, 59, 60, 600, 1000, 3600, 86400}
)

// gen draws from one pair's random source.
type gen struct {
	r  *rand.Rand
	on map[string]bool // the fields this pair's policies may have
}

func (g gen) chance(p float64) bool  { return g.r.Float64() < p }
func (g gen) pick(s []string) string { return s[g.r.IntN(len(s))] }

// some returns 1 to n distinct entries of s.
func (g gen) some(s []string, n int) []any {
	k := 1 + g.r.IntN(n)
	var out []any
	for _, i := range g.r.Perm(len(s))[:min(k, len(s))] {
		out = append(out, s[i])
	}
	return out
}

func (g gen) rate() string {
	if g.chance(0.01) {
		return "01/hour" // invalid: refuses every call, and never proven
	}
	return fmt.Sprintf("%d/%s", []int{0, 1, 1, 1, 2, 2, 3, 5, 60}[g.r.IntN(9)], g.pick(genPeriods))
}

func (g gen) window() string {
	if g.chance(0.01) {
		return "09:00-24:00"
	}
	return g.pick(genWindows)
}

func (g gen) globMap(value func() string) map[string]any {
	m := map[string]any{}
	for _, p := range g.some(genPatterns, 3) {
		m[p.(string)] = value()
	}
	return m
}

// budgetKeys are the call budget's fields, each drawn by budgetValue.
var budgetKeys = []string{
	"max_calls_per_run", "baseline_calls_per_run", "max_amplification_ratio", "max_wall_seconds", "max_sessions", "action",
}

func (g gen) budgetValue(key string) any {
	switch key {
	case "max_calls_per_run":
		return g.r.IntN(6)
	case "baseline_calls_per_run":
		return g.r.IntN(4)
	case "max_amplification_ratio":
		return []float64{0, 0.5, 1, 1.5, 2}[g.r.IntN(5)]
	case "max_wall_seconds":
		return []float64{0, 30, 600, 3600, 90000}[g.r.IntN(5)]
	case "max_sessions":
		return []int{0, 0, 1, 2, 3}[g.r.IntN(5)]
	}
	return []string{"block", "warn"}[g.r.IntN(2)]
}

func (g gen) budget() map[string]any {
	b := map[string]any{}
	for i, p := range []float64{0.6, 0.3, 0.3, 0.3, 0.6, 0.2} {
		if g.chance(p) {
			b[budgetKeys[i]] = g.budgetValue(budgetKeys[i])
		}
	}
	return b
}

// policy is a random policy document: the fields this pair has switched on
// (swarm testing: a pair that leaves most fields out lets the rest show),
// each present with some probability.
func (g gen) policy() map[string]any {
	p := map[string]any{}
	if g.has("allowed_tools", 0.6) {
		p["allowed_tools"] = g.some(genPatterns, 3)
	}
	if g.has("default_deny", 0.3) {
		p["default_deny"] = g.chance(0.7)
	}
	if g.has("denied_tools", 0.6) {
		p["denied_tools"] = g.some(genPatterns, 2)
	}
	if g.has("time_restrictions", 0.7) {
		p["time_restrictions"] = g.globMap(g.window)
	}
	if g.has("rate_limits", 0.8) {
		p["rate_limits"] = g.globMap(g.rate)
	}
	if g.has("rate_limit_mode", 0.7) {
		p["rate_limit_mode"] = []string{"most_specific", "all"}[g.r.IntN(2)]
	}
	if g.has("rate_limit_scope", 0.7) {
		p["rate_limit_scope"] = []string{"policy", "agent"}[g.r.IntN(2)]
	}
	if g.has("require_agent_id", 0.5) {
		p["require_agent_id"] = true
	}
	if g.has("allowed_roles", 0.6) {
		p["allowed_roles"] = g.some(genRoles, 2)
	}
	if g.has("reauth_on_untrusted_reinvocation", 0.6) {
		p["reauth_on_untrusted_reinvocation"] = true
	}
	if g.has("untrusted_reinvocation_threshold", 0.6) {
		p["untrusted_reinvocation_threshold"] = g.r.IntN(4)
	}
	if g.has("escalate_tools", 0.7) {
		p["escalate_tools"] = g.globMap(func() string { return "review" })
	}
	if g.has("approver", 0.7) {
		p["approver"] = g.pick([]string{"alice", "bob"})
	}
	if g.has("escalation_channel", 0.3) {
		p["escalation_channel"] = "chat"
	}
	if g.has("escalation_ledger", 0.3) {
		p["escalation_ledger"] = "ledger"
	}
	if g.has("standing_grants", 0.6) {
		p["standing_grants"] = g.some(genPatterns, 2)
	}
	if g.has("amplification_budget", 0.8) {
		p["amplification_budget"] = g.budget()
	}
	if g.has("stdio_mode", 0.3) {
		p["stdio_mode"] = g.pick([]string{"strict", "lenient"})
	}
	if g.chance(0.005) {
		p["future_guard"] = true
	}
	return p
}

// genFields are the fields a pair may switch on, and edit.
var genFields = []string{
	"allowed_tools", "default_deny", "denied_tools", "time_restrictions", "rate_limits", "rate_limit_mode",
	"rate_limit_scope", "require_agent_id", "allowed_roles", "reauth_on_untrusted_reinvocation",
	"untrusted_reinvocation_threshold", "escalate_tools", "approver", "escalation_channel", "escalation_ledger",
	"standing_grants", "amplification_budget", "stdio_mode",
}

// newGen is the generator of one pair: its random source, and the fields
// it switches on, each with an even chance.
func newGen(r *rand.Rand) gen {
	g := gen{r: r, on: map[string]bool{}}
	for _, f := range genFields {
		g.on[f] = g.chance(0.5)
	}
	return g
}

func (g gen) has(field string, p float64) bool { return g.on[field] && g.chance(p) }

// child is parent after a few random edits, or now and then a policy of
// its own. An edit may tighten or widen: the prover decides. A pair the
// prover refuses tests nothing at run time, so child draws up to eight
// candidates and keeps the first the prover accepts that differs from
// parent (the last one otherwise).
func (g gen) child(parent map[string]any) map[string]any {
	var c map[string]any
	for range 8 {
		c = g.candidate(parent)
		if jsonString(c) != jsonString(parent) && accepts(parent, c) {
			return c
		}
	}
	return c
}

func (g gen) candidate(parent map[string]any) map[string]any {
	if g.chance(0.1) {
		return g.policy()
	}
	c := cloneDoc(parent)
	for range 1 + g.r.IntN(3) {
		g.edit(c)
	}
	return c
}

// accepts reports whether the prover accepts child within parent.
func accepts(parent, child map[string]any) bool {
	p, err := decodeDoc("parent", parent)
	if err != nil {
		return false
	}
	c, err := decodeDoc("child", child)
	return err == nil && c.IsSubsetOf(p)
}

// edit changes one field of p: set afresh from the generator, removed, or,
// for lists and maps, one entry added, removed or changed.
func (g gen) edit(p map[string]any) {
	fresh := g.policy()
	var fields []string
	for _, f := range genFields {
		if g.on[f] {
			fields = append(fields, f)
			if f == "rate_limits" || f == "amplification_budget" {
				fields = append(fields, f, f) // stateful: their edits need calls to show
			}
		}
	}
	if len(fields) == 0 || g.chance(0.1) {
		fields = genFields
	}
	f := g.pick(fields)
	switch v := p[f].(type) {
	case []any:
		switch {
		case len(v) > 0 && g.chance(0.5):
			i := g.r.IntN(len(v))
			p[f] = slices.Delete(slices.Clone(v), i, i+1)
		default:
			entry := g.pick(genPatterns)
			if f == "allowed_roles" {
				entry = g.pick(genRoles)
			}
			p[f] = append(slices.Clone(v), entry)
		}
		return
	case map[string]any:
		keys := sortedMapKeys(v)
		switch {
		case f == "amplification_budget":
			// one bound changed or dropped at a time
			k := g.pick(budgetKeys)
			if _, ok := v[k]; ok && g.chance(0.3) {
				delete(v, k)
			} else {
				v[k] = g.budgetValue(k)
			}
		case len(keys) > 0 && g.chance(0.4):
			delete(v, keys[g.r.IntN(len(keys))])
		case len(keys) > 0 && g.chance(0.5):
			k := keys[g.r.IntN(len(keys))]
			v[k] = g.value(f)
		case len(keys) > 0 && g.chance(0.6):
			// A new pattern with a value the policy already has (for a rate,
			// its strictest when there is one), often one within an existing
			// pattern: the added patterns that overlap the parent's are the
			// ones whose most specific choice matters.
			k := keys[g.r.IntN(len(keys))]
			pattern := g.pick(genPatterns)
			var within []string
			for _, q := range genPatterns {
				if q != k && delegation.Within(q, k) {
					within = append(within, q)
				}
			}
			if len(within) > 0 && g.chance(0.7) {
				pattern = g.pick(within)
			}
			v[pattern] = v[k]
			if f == "rate_limits" && g.chance(0.7) {
				v[pattern] = strictestRate(v, v[k])
			}
		default:
			v[g.pick(genPatterns)] = g.value(f)
		}
		return
	}
	if val, ok := fresh[f]; ok && g.chance(0.7) {
		p[f] = val
	} else {
		delete(p, f)
	}
}

// value is a random value for an entry of the keyed field f.
func (g gen) value(f string) any {
	switch f {
	case "time_restrictions":
		return g.window()
	case "rate_limits":
		return g.rate()
	}
	return "review"
}

// request is a random Narrow request of parent: a requested rate is now
// and then one of the parent's own, which narrow accepts more often.
func (g gen) request(parent map[string]any) delegation.Request {
	var r delegation.Request
	if g.chance(0.5) {
		r.AllowedTools = []string{}
		if !g.chance(0.05) {
			for _, p := range g.some(genPatterns, 2) {
				r.AllowedTools = append(r.AllowedTools, p.(string))
			}
		}
	}
	if g.chance(0.3) {
		for _, p := range g.some(genPatterns, 2) {
			r.DeniedTools = append(r.DeniedTools, p.(string))
		}
	}
	if g.chance(0.6) {
		r.RateLimits = map[string]string{}
		own, _ := parent["rate_limits"].(map[string]any)
		rates := g.globMap(g.rate)
		for _, k := range sortedMapKeys(rates) { // in order: each entry draws
			r.RateLimits[k] = rates[k].(string)
			if keys := sortedMapKeys(own); len(keys) > 0 && g.chance(0.5) {
				r.RateLimits[k], _ = own[keys[g.r.IntN(len(keys))]].(string)
			}
		}
	}
	if g.chance(0.3) {
		b, _ := json.Marshal(g.budget())
		var cb delegation.CallBudget
		if json.Unmarshal(b, &cb) == nil {
			r.CallBudget = &cb
		}
	}
	return r
}

// calls is a random call sequence: times that never go back, the minute of
// the day near window edges, a few agents (or none), roles, sessions,
// untrusted-output counts and grants. Most calls go to a few focus tools,
// often ones the policies' own patterns name, so that their buckets and
// ledgers run out within the sequence and most-specific choices matter.
func (g gen) calls(docs ...map[string]any) []CeilingCall {
	n := 8 + g.r.IntN(33)
	out := make([]CeilingCall, n)
	at := 0.0
	focus := g.focus(docs)
	for i := range out {
		at += genSteps[g.r.IntN(len(genSteps))]
		tool := g.pick(genTools)
		if g.chance(0.75) {
			tool = g.pick(focus)
		}
		c := CeilingCall{
			Tool:    tool,
			Minute:  genMinutes[g.r.IntN(len(genMinutes))],
			At:      at,
			Session: g.pick([]string{"A", "A", "B", "C", "D"}),
		}
		if g.chance(0.05) {
			c.Minute = g.r.IntN(1440)
		}
		if !g.chance(0.2) {
			c.Agent = g.pick(genAgents)
		}
		for _, role := range genRoles {
			if g.chance(0.3) {
				c.Roles = append(c.Roles, role)
			}
		}
		if g.chance(0.3) {
			c.UntrustedPrior = g.r.IntN(4)
		}
		c.AuthorizedOnce = g.chance(0.3)
		out[i] = c
	}
	return out
}

// focus is 1 to 3 tools: for each, a pattern the policies write (a key of
// a keyed field or a list entry) and a tool it matches, or any tool.
func (g gen) focus(docs []map[string]any) []string {
	var patterns []string
	for _, d := range docs {
		for _, v := range d {
			switch v := v.(type) {
			case map[string]any:
				patterns = append(patterns, sortedMapKeys(v)...)
			case []any:
				for _, e := range v {
					if s, ok := e.(string); ok {
						patterns = append(patterns, s)
					}
				}
			}
		}
	}
	slices.Sort(patterns)
	var out []string
	for range 1 + g.r.IntN(3) {
		tool := g.pick(genTools)
		if len(patterns) > 0 && g.chance(0.7) {
			pattern := g.pick(patterns)
			var matching []string
			for _, t := range genTools {
				if delegation.Match(pattern, t) {
					matching = append(matching, t)
				}
			}
			if len(matching) > 0 {
				tool = g.pick(matching)
			}
		}
		out = append(out, tool)
	}
	return out
}

// strictestRate is the rate in m no looser than every other, or def.
func strictestRate(m map[string]any, def any) any {
	for _, k := range sortedMapKeys(m) {
		r, err := delegation.ParseRate(fmt.Sprint(m[k]))
		if err != nil {
			continue
		}
		strictest := true
		for _, o := range m {
			if or, err := delegation.ParseRate(fmt.Sprint(o)); err == nil && !r.NoLooser(or) {
				strictest = false
			}
		}
		if strictest {
			return m[k]
		}
	}
	return def
}

func cloneDoc(m map[string]any) map[string]any {
	b, _ := json.Marshal(m)
	var out map[string]any
	_ = json.Unmarshal(b, &out)
	return out
}

func sortedMapKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// decodeDoc decodes a generated document through the policy decoder.
func decodeDoc(name string, m map[string]any) (*delegation.Policy, error) {
	b, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	return delegation.Decode(name, b)
}
