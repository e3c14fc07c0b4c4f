package runtime

import "github.com/open-policy-agent/opa/v1/ast"

// resolver is the Go twin of regate.lib.checks (rego/lib/checks.rego),
// which it follows step for step: for each check the first layer with a
// matching rule per spelling group (a bare name's catch-all skipped), the
// most restrictive group, the error outcome, the fallback (none for the path
// surface), the malformed, wrapper, unparseable and strict floors, and the
// cap of a recursive read's paths at ask. It exists because OPA
// spends microseconds per Rego expression and a bash call has about ten
// checks; TestAgreement and TestFastPathAgreesOnWorkload hold it to the
// Rego.
type resolver struct {
	fs             *fastState
	layers         [3]ast.Object
	agentFallback  ast.Value
	policyFallback ast.Value
	strict         bool
}

// outcome is an outcome of regate.lib.checks and regate.lib.gate: the
// action, the rule that decided (or a sentinel), its layer, the index of the
// check, and what floors or yolo did to it.
type outcome struct {
	action string
	rule   ast.Object
	layer  string
	i      int
	fault  bool   // raised by a rule file that failed to load, or a malformed call
	floor  string // the floor that raised an allow, if any
	yolo   bool
}

// outcome is checks.outcome: unit_floor(layered(…)); ok is false for null.
func (r *resolver) outcome(i int, c ast.Object) (o outcome, ok bool, err error) {
	if (!r.strict && getBool(c, "strict_only")) || (r.strict && getBool(c, "spec_only")) {
		return outcome{}, false, nil
	}
	action, rule, layer, err := r.layered(i, c)
	if err != nil {
		return outcome{}, false, err
	}
	if rule == nil {
		if reason, ok := get(c, "strict").(ast.String); ok && r.strict {
			// A strict reason on a path no rule matched still asks.
			return outcome{action: "ask", rule: ast.NewObject(
				item("pattern", term("<strict-floor>")),
				item("pos", term("-")),
				item("reason", ast.NewTerm(reason)),
			), layer: "floor", i: i}, true, nil
		}
		return outcome{}, false, nil
	}
	return withinCap(c, unitFloor(i, c, action, rule, layer, r.strict)), true, nil
}

// withinCap is checks.within_cap: a deny of a path a recursive read of a
// folder reaches asks, with the deny's rule and a reason naming the folder,
// and yolo does not approve it.
func withinCap(c ast.Object, o outcome) outcome {
	folder, ok := get(c, "within").(ast.String)
	if !ok || o.action != "deny" {
		return o
	}
	why := "reading the folder " + string(folder) + " reaches a path this rule denies"
	if reason := getString(o.rule, "reason"); reason != "" {
		why += ": " + reason
	}
	rule := o.rule.Copy()
	rule.Insert(term("reason"), ast.StringTerm(why))
	return outcome{action: "ask", rule: rule, layer: o.layer, i: o.i, fault: true}
}

// layered is checks.layered: the most restrictive spelling group, the error
// outcome, or the fallback; a nil rule for a path check nothing matched.
func (r *resolver) layered(i int, c ast.Object) (string, ast.Object, string, error) {
	surface := getString(c, "surface")
	bare := getBool(c, "bare")
	top, topRule, topLayer := -1, ast.Object(nil), ""
	take := func(action string, rule ast.Object, layer string) {
		if s := severity[action]; s > top { // the first on a tie
			top, topRule, topLayer = s, rule, layer
		}
	}
	if forms, ok := get(c, "forms").(*ast.Array); ok {
		for j := 0; j < forms.Len(); j++ {
			f, ok := forms.Elem(j).Value.(*ast.Array)
			if !ok {
				continue
			}
			for k, layers := range r.layers {
				if layers == nil {
					continue
				}
				m := layers.Get(term(surface))
				if m == nil {
					continue
				}
				rt, err := bestRule(m, f, r.fs)
				if err != nil {
					return "", nil, "", err
				}
				if rt == nil {
					continue
				}
				rule, ok := rt.Value.(ast.Object)
				if !ok || (bare && getBool(rule, "catch_all")) {
					continue
				}
				take(getString(rule, "action"), rule, layerNames[k])
				break
			}
		}
	}
	if e, ok := get(c, "error").(ast.String); ok {
		take("ask", ast.NewObject(
			item("pattern", term("<unresolved-path>")),
			item("pos", term("-")),
			item("reason", ast.NewTerm(e)),
		), "facts")
	}
	if topRule != nil {
		return actionOf(top), topRule, topLayer, nil
	}
	if surface == "path" || bare || get(c, "role") != nil {
		return "", nil, "", nil
	}
	if f, ok := r.agentFallback.(ast.Object); ok {
		return getString(f, "action"), f, "agent", nil
	}
	if f, ok := r.policyFallback.(ast.Object); ok {
		return getString(f, "action"), f, "policy", nil
	}
	return "ask", builtinFallback, "fallback", nil
}

var builtinFallback = ast.NewObject(
	item("pattern", term("")),
	item("action", term("ask")),
	item("pos", term("-")),
)

var layerNames = [3]string{"session", "agent", "policy"}

var wrapperSentinels = map[string]string{"opaque": "<opaque-bash-wrapper>", "indirection": "<indirection-bash-wrapper>"}

// unitFloor is checks.unit_floor.
func unitFloor(i int, c ast.Object, action string, rule ast.Object, layer string, strict bool) outcome {
	if why := get(c, "malformed"); why != nil && action != "deny" {
		return outcome{action: "ask", rule: ast.NewObject(
			item("pattern", term("<malformed-input>")),
			item("pos", term("-")),
			item("reason", ast.NewTerm(why)),
		), layer: "floor", i: i, fault: true}
	}
	if sentinel, ok := wrapperSentinels[getString(c, "wrapper")]; ok && action == "allow" && layer != "session" {
		floored := rule.Copy()
		floored.Insert(term("pattern"), term(sentinel))
		return outcome{action: "ask", rule: floored, layer: "floor", i: i}
	}
	if pos := get(rule, "pos"); pos != nil && getBool(c, "unparseable") && action != "deny" && layer != "session" {
		// (A rule without pos makes the Rego branch undefined; so here.)
		return outcome{action: "ask", rule: ast.NewObject(
			item("pattern", term("<unparseable-bash-command>")),
			item("pos", ast.NewTerm(pos)),
			item("reason", ast.StringTerm(getString(c, "reason"))),
		), layer: "floor", i: i}
	}
	if reason, ok := get(c, "strict").(ast.String); ok && strict && action == "allow" && layer != "session" {
		if pos := get(rule, "pos"); pos != nil {
			return outcome{action: "ask", rule: ast.NewObject(
				item("pattern", term("<strict-floor>")),
				item("pos", ast.NewTerm(pos)),
				item("reason", ast.NewTerm(reason)),
			), layer: "floor", i: i}
		}
	}
	return outcome{action: action, rule: rule, layer: layer, i: i}
}

var severity = map[string]int{"allow": 0, "ask": 1, "deny": 2}

func actionOf(s int) string { return [...]string{"allow", "ask", "deny"}[s] }

func item(key string, v *ast.Term) [2]*ast.Term { return ast.Item(term(key), v) }

func get(o ast.Object, key string) ast.Value { return field(o, key) }

func getString(o ast.Object, key string) string {
	s, _ := get(o, key).(ast.String)
	return string(s)
}

func getBool(o ast.Object, key string) bool {
	b, _ := get(o, key).(ast.Boolean)
	return bool(b)
}
