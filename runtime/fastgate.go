package runtime

import (
	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/open-policy-agent/opa/v1/types"
)

// decideBuiltin is regate_decide, the Go twin of regate.lib.gate.decide
// (rego/lib/gate.rego), which it follows step for step with the twins of
// regate.lib.checks (resolver) and regate.lib.match (bestRule). OPA spends
// about a microsecond and several allocations per Rego expression, and a
// decision in Rego evaluates a few hundred; in Go it is one builtin call.
// It is attached to the engine's own rego instance, never to OPA's global
// registry, and TestAgreement (every conformance case) and
// TestFastPathAgreesOnWorkload hold it to the Rego.
func decideBuiltin(fs *fastState) func(*rego.Rego) {
	decl := &rego.Function{
		Name: "regate_decide",
		Decl: types.NewFunction(types.Args(types.A, types.A), types.A),
	}
	return rego.Function2(decl, func(_ rego.BuiltinContext, it, rt *ast.Term) (*ast.Term, error) {
		rules, ok := rt.Value.(ast.Object)
		if !ok {
			return nil, nil
		}
		return decideWith(fs, ruleSetsOf(rules), it)
	})
}

// boundDecideBuiltin is regate_decide_bound(input): regate_decide with its
// second argument, data.regate.rules, read from the engine's store once at
// prepare time. A prepared query's data never changes (a new policy is a
// new engine), so the result is the same; what it spares is OPA's read of
// the rules and its base-document cache on every decision, about a dozen
// allocations.
func boundDecideBuiltin(fs *fastState, rules ast.Value) func(*rego.Rego) {
	obj, bound := rules.(ast.Object)
	var sets ruleSets
	if bound {
		sets = ruleSetsOf(obj)
	}
	decl := &rego.Function{
		Name: "regate_decide_bound",
		Decl: types.NewFunction(types.Args(types.A), types.A),
	}
	return rego.Function1(decl, func(_ rego.BuiltinContext, it *ast.Term) (*ast.Term, error) {
		if !bound {
			return nil, nil // data.regate.rules is not an object: undefined
		}
		return decideWith(fs, sets, it)
	})
}

// ruleSets are the parts of data.regate.rules a decision reads, each {}
// when absent, as decide_sets receives them.
type ruleSets struct {
	policy, hardguards ast.Object
	agents             ast.Object // agent name to its rule set; nil when none
}

func ruleSetsOf(rules ast.Object) ruleSets {
	s := ruleSets{
		policy:     objectOrEmpty(get(rules, "policy")),
		hardguards: objectOrEmpty(get(rules, "hardguards")),
	}
	if agents, ok := get(rules, "agents").(ast.Object); ok {
		s.agents, _ = get(agents, "agents").(ast.Object)
	}
	return s
}

func decideWith(fs *fastState, sets ruleSets, it *ast.Term) (*ast.Term, error) {
	inp, ok := it.Value.(ast.Object)
	if !ok {
		return nil, nil
	}
	checks, ok := get(inp, "checks").(*ast.Array)
	if !ok {
		return nil, nil
	}
	g := gate{fs: fs, inp: inp, checks: checks, policy: sets.policy, hardguards: sets.hardguards, agent: emptyObject}
	if sets.agents != nil {
		// The agent's name is looked up with the input's own term, which
		// spares building one; no agent is "", as object.get's default.
		name := inp.Get(term("agent"))
		if name == nil {
			name = term("")
		}
		if a := sets.agents.Get(name); a != nil {
			if o, ok := a.Value.(ast.Object); ok {
				g.agent = o
			}
		}
	}
	return g.decide()
}

// gate is one evaluation of regate_decide. A nil result is undefined, which
// the library turns into the fault decision.
type gate struct {
	fs     *fastState
	inp    ast.Object
	checks *ast.Array
	// The rule sets, {} when absent, as decide_sets receives them.
	policy, hardguards, agent ast.Object
}

var emptyObject = ast.NewObject()

func objectOrEmpty(v ast.Value) ast.Object {
	if o, ok := v.(ast.Object); ok {
		return o
	}
	return emptyObject
}

// decide is gate.decide: each branch whose result is undefined falls
// through to the next, as a Rego else chain does.
func (g *gate) decide() (*ast.Term, error) {
	if truthy(get(g.inp, "unregistered")) {
		if t := g.unregistered(); t != nil {
			return t, nil
		}
	}
	o, ok, err := g.hardGuard()
	if err != nil {
		return nil, err
	}
	if ok {
		if t := g.assemble(o); t != nil {
			return t, nil
		}
	}
	if o, ok, err = g.resolve(); err != nil || !ok {
		return nil, err
	}
	return g.assemble(g.yolo(g.floored(o))), nil
}

func (g *gate) unregistered() *ast.Term {
	tool := get(g.inp, "tool")
	if tool == nil {
		return nil
	}
	return ast.ObjectTerm(
		item("action", term("deny")),
		item("matched", term("<unregistered-tool>")),
		item("layer", term("registry")),
		item("surface", ast.NewTerm(tool)),
		item("value", ast.NewTerm(tool)),
		item("origin", term("")),
		item("at", term("")),
		item("pos", term("-")),
		item("reason", term("")),
		item("floor", term("")),
		item("yolo", ast.InternedTerm(false)),
	)
}

// hardGuard is gate.hard_guard: the first hard-guard match in check order,
// else the hard guards' fallback for the first check.
func (g *gate) hardGuard() (outcome, bool, error) {
	hg := g.hardguards
	surfaces, _ := get(hg, "surfaces").(ast.Object)
	fallback := get(hg, "fallback")
	if (surfaces == nil || surfaces.Len() == 0) && !truthy(fallback) {
		return outcome{}, false, nil
	}
	for i := 0; i < g.checks.Len() && surfaces != nil; i++ {
		c, ok := g.checks.Elem(i).Value.(ast.Object)
		if !ok || (getBool(c, "strict_only") && !g.strict()) {
			continue
		}
		m := surfaces.Get(term(getString(c, "surface")))
		forms, _ := get(c, "forms").(*ast.Array)
		for j := 0; m != nil && forms != nil && j < forms.Len(); j++ {
			f, ok := forms.Elem(j).Value.(*ast.Array)
			if !ok {
				continue
			}
			rt, err := bestRule(m, f, g.fs)
			if err != nil {
				return outcome{}, false, err
			}
			if rt != nil {
				rule, _ := rt.Value.(ast.Object)
				return outcome{action: "deny", rule: rule, layer: "hard-guard", i: i}, true, nil
			}
		}
	}
	if fallback == nil {
		return outcome{}, false, nil
	}
	rule, _ := fallback.(ast.Object)
	return outcome{action: "deny", rule: rule, layer: "hard-guard", i: 0}, true, nil
}

// resolve is checks.resolve(inp.checks, layers(inp, rules)) followed by
// r.outcomes[r.top]: the most restrictive outcome, the first on a tie.
func (g *gate) resolve() (outcome, bool, error) {
	agent, policy := g.agent, g.policy
	r := resolver{fs: g.fs, agentFallback: get(agent, "fallback"), policyFallback: get(policy, "fallback"), strict: g.strict()}
	if s, ok := get(g.inp, "session").(ast.Object); ok {
		r.layers[0], _ = get(s, "approvals").(ast.Object)
	}
	r.layers[1], _ = get(agent, "surfaces").(ast.Object)
	r.layers[2], _ = get(policy, "surfaces").(ast.Object)
	var top outcome
	found := false
	for i := 0; i < g.checks.Len(); i++ {
		c, ok := g.checks.Elem(i).Value.(ast.Object)
		if !ok {
			return outcome{}, false, nil
		}
		o, ok, err := r.outcome(i, c)
		if err != nil {
			return outcome{}, false, err
		}
		if ok && (!found || severity[o.action] > severity[top.action]) {
			top, found = o, true
		}
	}
	return top, found, nil
}

// floored is gate.floored: a fault floor turns anything short of deny into
// an ask naming the broken file; the decisionFloor raises an allow.
func (g *gate) floored(o outcome) outcome {
	if o.action != "deny" {
		if f, ok := g.faultFloor(); ok {
			rule, _ := f.(ast.Object)
			return outcome{action: "ask", rule: rule, layer: "floor", i: o.i, fault: true}
		}
	}
	if o.action == "allow" && getString(g.inp, "floor") == "ask" {
		o.action, o.floor = "ask", "decisionFloor"
	}
	return o
}

// faultFloor is fault_floors(rules)[0]: the first floor of the policy, the
// hard guards or the agent.
func (g *gate) faultFloor() (ast.Value, bool) {
	var first ast.Value
	for _, set := range [...]ast.Object{g.policy, g.hardguards, g.agent} {
		floors := get(set, "floors")
		if floors == nil {
			continue
		}
		a, ok := floors.(*ast.Array)
		if !ok {
			return nil, false // array.concat fails on a non-array
		}
		if first == nil && a.Len() > 0 {
			first = a.Elem(0).Value
		}
	}
	return first, first != nil
}

// strict is gate.strict: the policy's "strict".
func (g *gate) strict() bool { return getBool(g.policy, "strict") }

// yolo is gate.yolo: yolo mode approves an ask that is not a fault.
func (g *gate) yolo(o outcome) outcome {
	if truthy(get(g.policy, "yolo")) && o.action == "ask" && !o.fault {
		o.action, o.yolo = "allow", true
	}
	return o
}

// assemble is gate.assemble: the decision object, or nil when the check or
// the rule lacks what it needs.
func (g *gate) assemble(o outcome) *ast.Term {
	if o.rule == nil || o.i < 0 || o.i >= g.checks.Len() {
		return nil
	}
	c, ok := g.checks.Elem(o.i).Value.(ast.Object)
	if !ok {
		return nil
	}
	pattern, pos := get(o.rule, "pattern"), get(o.rule, "pos")
	surface, value := get(c, "surface"), get(c, "value")
	if pattern == nil || pos == nil || surface == nil || value == nil {
		return nil
	}
	return ast.ObjectTerm(
		item("action", term(o.action)),
		item("matched", ast.NewTerm(pattern)),
		item("layer", term(o.layer)),
		item("surface", ast.NewTerm(surface)),
		item("value", ast.NewTerm(value)),
		item("origin", orEmpty(get(c, "origin"))),
		item("at", orEmpty(get(c, "at"))),
		item("pos", ast.NewTerm(pos)),
		item("reason", orEmpty(get(o.rule, "reason"))),
		item("floor", term(o.floor)),
		item("yolo", ast.InternedTerm(o.yolo)),
	)
}

func orEmpty(v ast.Value) *ast.Term {
	if v == nil {
		return term("")
	}
	return ast.NewTerm(v)
}

// truthy is whether v, as a Rego expression, succeeds: defined and not
// false.
func truthy(v ast.Value) bool {
	return v != nil && ast.Compare(v, ast.Boolean(false)) != 0
}
