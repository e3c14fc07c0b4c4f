package compiler

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/open-policy-agent/opa/v1/format"
)

// decisionSpec is everything the generated decision module is built from:
// the three layers as decoded, what failed to load, and the policy's knobs
// that change how a decision is composed.
type decisionSpec struct {
	home         string
	strict, yolo bool
	policy       Permission
	policyFloors []any
	hard         Permission
	hardFloors   []any
	agents       []agentSpec // sorted by name
	sources      []string
	// policyConfirms are the kinds of entries to confirm (matcher.go:
	// starts, ends, globs) some surface of the policy files, so that the
	// quick lookup confirms only those kinds.
	policyConfirms map[string]bool
	// policyMany is whether a surface of the policy files many of them
	// (matcher.go, fewMaybe), so that the quick lookup walks the value's
	// keys rather than the entries.
	policyMany bool
	// self is whether the self floor guards places (selfguard.go);
	// guardSelf is the hard guards' guardSelf, false to turn it off;
	// selfConfirms and selfMany are its layer's policyConfirms and
	// policyMany.
	self, guardSelf bool
	selfConfirms    map[string]bool
	selfMany        bool
	// selfSecrets is whether the self floor guards secrets (selfguard.go).
	selfSecrets bool
}

type agentSpec struct {
	name   string
	perm   Permission
	floors []any
}

// emitDecision renders regate/gen/decision.rego: the decision rule of this
// policy, composed with the static helpers of regate.lib.decide, with only
// the parts the policy uses (hard guards, agents, the self floor, the kinds
// of entries to confirm, strict mode, yolo, the fallbacks as constants).
//
// A rule is found by a lookup in the compiled indexes (matcher.go): one
// graph.reachable from the value's candidate keys, whose greatest node is
// the most specific rule (R1), and, only when a key files entries to
// confirm, those entries confirmed against the spellings (lookup,
// confirmed). docs/design.md describes the whole decision.
func emitDecision(spec *decisionSpec) (Module, error) {
	const path = "regate/gen/decision.rego"
	var b bytes.Buffer
	b.WriteString(Header + "\n")
	b.WriteString("#\n# The decision of one tool call under this policy (docs/design.md).\n\n")
	b.WriteString("package regate.gen.decision\n\nimport data.regate.lib.decide\n\n")
	fmt.Fprintf(&b, "sources := %s\n\n", mustJSON(nonNilStrings(spec.sources)))
	fmt.Fprintf(&b, "strict := %t\n\n", spec.strict)

	hasHard := len(spec.hard.Surfaces) > 0 || spec.hard.Fallback != nil
	hasAgents := len(spec.agents) > 0
	counted := "not c.strict_only"
	if spec.strict {
		counted = "not c.spec_only"
	}

	// The decision: every counted check's entry [severity, -index, layer,
	// rule, flags], so that the largest is the most restrictive and, on a
	// tie, the first (R13).
	b.WriteString(faultDecision + "\n\n")
	b.WriteString("decision := decide.unregistered if {\n\tinput.unregistered\n}")
	if hasHard {
		b.WriteString(" else := decide.assemble(e) if {\n\te := hard_guard\n}")
	}
	if spec.self {
		// The self floor's ask stands over every decision short of a
		// deny, after yolo and approvals have had their say.
		b.WriteString(" else := decide.assemble(s) if {\n\ts := self_guard\n\tfinal[0] < 2\n} else := decide.assemble(final)\n\n")
		fmt.Fprintf(&b, "final := %s if {\n\te := max(entries)\n}\n\n", finalFloors(spec))
		writes := fmt.Sprintf(selfWrites, ruleLookup(spec.selfConfirms, "grp", "ks"))
		if spec.selfSecrets {
			writes = "array.concat(\n" + writes + ",\n" + selfSecrets + ",\n)"
		}
		fmt.Fprintf(&b, "self_guard := os[0] if {\n\tos := %s\n}\n\n", writes)
	} else {
		fmt.Fprintf(&b, " else := decide.assemble(%s) if {\n\te := max(entries)\n}\n\n", finalFloors(spec))
	}
	writeFaultFloors(&b, spec)

	// fast: only the policy's rules can decide (no session approval, no
	// agent), so that a plain check (facts' plain) is one lookup, and any
	// other one a few more (quick).
	plainRule := ruleLookup(spec.policyConfirms, "grp", "ks")
	plainGroup := "[grp] := c.forms"
	if !strings.Contains(plainRule, "grp") {
		plainGroup = "count(c.forms) == 1"
	}
	fmt.Fprintf(&b, "entries := [e |\n\tsome i, c in input.checks\n\t%s\n\te := quick(i, c)\n\te != null\n] if {\n\tfast\n} else := [e |\n\tsome i, c in input.checks\n\t%s\n\te := check(i, c)\n]\n\n", counted, counted)
	b.WriteString("fast if {\n\tcount(object.get(input, [\"session\", \"approvals\"], {})) == 0\n")
	if hasAgents {
		b.WriteString("\tobject.get(input, \"agent\", \"\") == \"\"\n")
	}
	b.WriteString("}\n\n")
	// The members that make a check more than one lookup: hard ones always
	// (check), mild ones only when the rule found is one they change.
	hard := []string{"error", "malformed", "unparseable"}
	flooring := []string{"wrapper"} // the members that floor an allow
	if spec.strict {
		flooring = []string{"strict", "wrapper"}
	}
	floors := mustJSON(flooring)
	besidesBare := slices.Sorted(slices.Values(append([]string{"within"}, flooring...)))
	lookup := fmt.Sprintf(`	%s
	[ks] := c.keys
	m := data.regate.rules.policy.surfaces[c.surface]
	r := %s
`, plainGroup, plainRule)

	// The same lookup for each of many spelling groups (a recursive
	// read's walk): the most restrictive group's rule, the first on a tie,
	// as layered composes them.
	wideRule := ruleLookup(spec.policyConfirms, "forms", "keys")
	everyForms := "forms" // strict Rego: a variable every declares is used
	if !strings.Contains(wideRule, "forms") {
		everyForms = "_"
	}
	wide := fmt.Sprintf(`	count(c.forms) > 1
	m := data.regate.rules.policy.surfaces[c.surface]
	[_, _, r] := max([[q.sev, 0 - g, q] |
		some g, forms in c.forms
		keys := c.keys[g]
		q := %s
	])
`, wideRule)

	// quick is a check that lookups decide when only the policy's rules
	// can: a plain one (facts' plain: one group, no member that changes the
	// rule's say), or one whose mild members do not change the
	// rule found (a bare name is not gated by the catch-all, a recursive
	// read caps a deny, a wrapper or a strict reason floors an allow). A
	// bare name whose every spelling only the catch-all reaches counts for
	// nothing (null, which entries leaves out). Any other check goes the
	// whole way (check).
	mildOK := `	[object.get(c, "bare", false), object.get(r, "catch_all", false)] != [true, true]
	[object.get(c, "within", "") != "", r.sev] != [true, 2]
	[count(object.filter(c, ` + floors + `)) > 0, r.sev] != [true, 0]
`
	// A plain check's rule is one graph.reachable, inline; only when a key
	// files entries to confirm does it take the confirming lookup.
	plain := `quick(i, c) := [r.sev, 0 - i, "policy", r, {"fault": false, "floor": "", "yolo": false}] if {
	c.plain
	[ks] := c.keys
	m := data.regate.rules.policy.surfaces[c.surface]
	r := m.rules[max(graph.reachable(m.graph, ks))]
}`
	if strings.Contains(plainRule, "grp") {
		plain += ` else := [r.sev, 0 - i, "policy", r, {"fault": false, "floor": "", "yolo": false}] if {
	c.plain
	[grp] := c.forms
	[ks] := c.keys
	m := data.regate.rules.policy.surfaces[c.surface]
	r := confirmed(m, ks, grp)
}`
	}
	b.WriteString(plain)
	// A bare name whose spellings' keys together (facts' any_keys) reach
	// no rule above the catch-all: every spelling only the catch-all
	// reaches, and none files an entry to confirm ("~~" would be greater).
	fmt.Fprintf(&b, ` else := null if {
	c.bare
	count(object.filter(c, %s)) == 0
	m := data.regate.rules.policy.surfaces[c.surface]
	m.rules[max(graph.reachable(m.graph, c.any_keys))].catch_all
}`, mustJSON(slices.Concat(hard, besidesBare)))
	fmt.Fprintf(&b, ` else := [r.sev, 0 - i, "policy", r, {"fault": false, "floor": "", "yolo": false}] if {
	count(object.filter(c, %s)) == 0
%s%s} else := null if {
	count(object.filter(c, %s)) == 0
	c.bare
	count(c.keys) == count(c.forms)
	m := data.regate.rules.policy.surfaces[c.surface]
	every g, %s in c.forms {
		keys := c.keys[g]
		q := %s
		q.catch_all
	}
} else := [r.sev, 0 - i, "policy", r, {"fault": false, "floor": "", "yolo": false}] if {
	count(object.filter(c, %s)) == 0
%s%s} else := check(i, c)

`, mustJSON(hard), lookup, mildOK,
		mustJSON(slices.Concat(hard, besidesBare)), everyForms, wideRule, mustJSON(hard), wide, mildOK)
	writeLookup(&b, spec)
	b.WriteString(`check(i, c) := decide.entry(decide.within_cap(c, decide.unit_floor(c, o))) if {
	o := layered(i, c)
}`)
	if spec.strict {
		b.WriteString(" else := decide.entry(decide.strict_floor(i, c)) if {\n\tc.strict\n}")
	}
	b.WriteString("\n\n")
	b.WriteString(`layered(i, c) := decide.top(os) if {
	os := array.concat([o | some g, grp in c.forms; o := group(i, c, decide.keys(c, g), grp)], [decide.error(i, c) | c.error])
	count(os) > 0
} else := fallback(i) if {
	c.surface != "path"
	not c.bare
	not c.role
}

group(i, c, ks, grp) := o if {
	o := decide.session(i, c, ks, grp)
}`)
	if hasAgents {
		b.WriteString(" else := decide.outcome(i, r, \"agent\") if {\n\tr := decide.counted(c, data.regate.rules.agents.agents[input.agent].surfaces[c.surface], ks, grp)\n}")
	}
	b.WriteString(" else := decide.outcome(i, r, \"policy\") if {\n\tr := decide.counted(c, data.regate.rules.policy.surfaces[c.surface], ks, grp)\n}\n\n")

	// Fallbacks.
	b.WriteString("fallback(i) := ")
	agentFallbacks := map[string]any{}
	for _, a := range spec.agents {
		if a.perm.Fallback != nil {
			agentFallbacks[a.name] = lookupValue(*a.perm.Fallback, 0, false)
		}
	}
	if len(agentFallbacks) > 0 {
		fmt.Fprintf(&b, "decide.outcome(i, r, \"agent\") if {\n\tr := %s[input.agent]\n} else := ", mustJSON(agentFallbacks))
	}
	if spec.policy.Fallback != nil {
		fmt.Fprintf(&b, "decide.outcome(i, %s, \"policy\")\n\n", mustJSON(lookupValue(*spec.policy.Fallback, 0, false)))
	} else {
		fmt.Fprintf(&b, "decide.outcome(i, %s, \"fallback\")\n\n", mustJSON(map[string]any{"action": "ask", "pattern": "", "pos": "-", "sev": 1, "tail": Tail("", "", false)}))
	}

	// Hard guards.
	if hasHard {
		fallback := "[]"
		if spec.hard.Fallback != nil {
			fallback = fmt.Sprintf("[[2, 0, \"hard-guard\", %s, {\"fault\": false, \"floor\": \"\", \"yolo\": false}]]", mustJSON(lookupValue(Rule{Pattern: spec.hard.Fallback.Pattern, Action: Deny, Reason: spec.hard.Fallback.Reason, Pos: spec.hard.Fallback.Pos}, 0, false)))
		}
		fmt.Fprintf(&b, `hard_guard := os[0] if {
	os := array.concat(
		[o |
			some i, c in input.checks
			%s
			some g, grp in c.forms
			r := decide.best(data.regate.rules.hardguards.surfaces[c.surface], decide.keys(c, g), grp)
			o := [2, 0 - i, "hard-guard", r, {"fault": false, "floor": "", "yolo": false}]
		],
		%s,
	)
}

`, counted, fallback)
	}

	out, err := format.Source(path, b.Bytes())
	if err != nil {
		return Module{}, fmt.Errorf("compiler: format %s: %w\n%s", path, err, b.String())
	}
	return Module{Path: path, Text: string(out), Deps: []string{"data.regate.lib.decide"}}, nil
}

var severities = map[Action]int{Allow: 0, Ask: 1, Deny: 2}

// lookupValue is a rule as a lookup returns it.
func lookupValue(r Rule, rank int, catchAll bool) map[string]any {
	v := map[string]any{"pattern": r.Pattern, "action": r.Action.String(), "pos": r.Pos.String(), "rank": rank, "sev": severities[r.Action],
		"tail": Tail(r.Pattern, r.Reason, false)}
	if r.Reason != "" {
		v["reason"] = r.Reason
	}
	if catchAll {
		v["catch_all"] = true
	}
	return v
}

// selfWrites are the self floor's entries (selfguard.go), asks: one for
// each check on the write or edit surface that meets a guarded place; %s
// is the most specific of the layer's rules that match (ruleLookup).
// selfSecrets are those of the path checks that name a secret. self_guard
// is the first of them.
const (
	selfWrites = `[[1, 0 - i, "self-guard", r, {"fault": true, "floor": "", "yolo": false}] |
		some i, c in input.checks
		m := data.regate.rules.self.surfaces[c.surface]
		some g, grp in c.forms
		ks := decide.keys(c, g)
		r := %s
	]`
	selfSecrets = `[[1, 0 - i, "self-guard", r, {"fault": true, "floor": "", "yolo": false}] |
		some i, c in input.checks
		c.surface == "path"
		some grp in c.forms
		some f in grp
		r := data.regate.rules.self.secrets[f]
	]`
)

// faultDecision is the decision when no check has an outcome: the call is
// blocked as a fault.
const faultDecision = `default decision := {
	"action": "deny",
	"matched": "<no-decision>",
	"layer": "fault",
	"surface": "",
	"value": "",
	"origin": "",
	"at": "",
	"pos": "-",
	"reason": "regate reached no decision for this call; it is blocked",
	"floor": "",
	"yolo": false,
	"message": "[regate] regate reached no decision for this call; it is blocked.",
}`

// finalFloors is the expression that floors the most restrictive entry e:
// a shell tool's decisionFloor, the rule files that failed to load (only
// when one did), then yolo (only when the policy sets it).
func finalFloors(spec *decisionSpec) string {
	final := "decide.shell_floor(e)"
	switch {
	case hasAgentFloors(spec):
		final = "faulted(" + final + ")"
	case len(spec.policyFloors)+len(spec.hardFloors) > 0:
		final = fmt.Sprintf("decide.faulted(%s, %s)", final, mustJSON(slices.Concat(spec.policyFloors, spec.hardFloors)))
	}
	if spec.yolo {
		final = "decide.yolo(" + final + ")"
	}
	return final
}

func hasAgentFloors(spec *decisionSpec) bool {
	return slices.ContainsFunc(spec.agents, func(a agentSpec) bool { return len(a.floors) > 0 })
}

// writeFaultFloors writes faulted(e) when an agent file failed to load: its
// floor applies only while that agent is active.
func writeFaultFloors(b *bytes.Buffer, spec *decisionSpec) {
	if !hasAgentFloors(spec) {
		return
	}
	agentFloors := map[string]any{}
	for _, a := range spec.agents {
		if len(a.floors) > 0 {
			agentFloors[a.name] = a.floors
		}
	}
	static := nonNil(slices.Concat(spec.policyFloors, spec.hardFloors))
	fmt.Fprintf(b, "faulted(e) := decide.faulted(e, floors) if {\n\tfloors := array.concat(%s, object.get(%s, input.agent, []))\n\tcount(floors) > 0\n} else := e\n\n", mustJSON(static), mustJSON(agentFloors))
}

func nonNil(xs []any) []any {
	if xs == nil {
		return []any{}
	}
	return xs
}

func nonNilStrings(xs []string) []string {
	if xs == nil {
		return []string{}
	}
	return xs
}

// mustJSON renders v as JSON, which is Rego's syntax for the same values.
func mustJSON(v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic(err) // only maps, slices, strings, numbers and booleans
	}
	return strings.TrimRight(b.String(), "\n")
}

// ruleLookup is the Rego expression of the most specific rule of the
// matcher m that matches the spelling group in the variable grp, whose
// candidate keys are in ks: one graph.reachable when the layer files no
// entries to confirm (confirms, matcher.go), else the module's lookup.
func ruleLookup(confirms map[string]bool, grp, ks string) string {
	if len(confirms) == 0 {
		return fmt.Sprintf("m.rules[max(graph.reachable(m.graph, %s))]", ks)
	}
	return fmt.Sprintf("lookup(m, %s, %s)", ks, grp)
}

// writeLookup writes lookup(m, ks, grp) when a layer files entries to
// confirm: the greatest node the keys reach, when it is a rule (no key
// files an entry to confirm, so nothing else can match); else
// confirmed(m, ks, grp), which confirms the entries of the group's keys
// against its spellings.
func writeLookup(b *bytes.Buffer, spec *decisionSpec) {
	confirms := map[string]bool{}
	maps.Copy(confirms, spec.policyConfirms)
	maps.Copy(confirms, spec.selfConfirms)
	if len(confirms) == 0 {
		return
	}
	fmt.Fprintf(b, "lookup(m, ks, grp) := r if {\n\tr := m.rules[max(graph.reachable(m.graph, ks))]\n} else := confirmed(m, ks, grp)\n\n")
	fmt.Fprintf(b, "confirmed(m, ks, grp) := m.rules[max(%s - {%q})]\n\n",
		confirmedNodes(confirms, spec.policyMany || spec.selfMany, "grp", "ks"), ConfirmNode)
}

// confirmedNodes is the Rego set of the rank nodes of a layer's rules (the
// matcher m) that match one spelling group, the variable grp, whose
// candidate keys are the variable ks: the nodes the keys reach, and the
// entries to confirm of the kinds the layer files, confirms (matcher.go);
// many: the layer files many, so the keys are walked, not the entries.
func confirmedNodes(confirms map[string]bool, many bool, grp, ks string) string {
	sets := []string{fmt.Sprintf("graph.reachable(m.graph, %s)", ks)}
	for _, kind := range []struct{ name, test string }{
		{"starts", "startswith(f, e[1])"}, {"ends", "endswith(f, e[1])"}, {"globs", "glob.match(e[1], null, f)"},
	} {
		switch {
		case !confirms[kind.name]:
		case many:
			sets = append(sets, fmt.Sprintf("{e[0] | some k in %s; some e in m.%s[k]; some f in %s; %s}", ks, kind.name, grp, kind.test))
		default:
			sets = append(sets, fmt.Sprintf("{e[0] | some k, es in m.%s; k in %s; some e in es; some f in %s; %s}", kind.name, ks, grp, kind.test))
		}
	}
	return "union({" + strings.Join(sets, ", ") + "})"
}
