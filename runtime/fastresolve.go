package runtime

import (
	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/open-policy-agent/opa/v1/types"
)

// resolveBuiltin is regate_resolve, the Go twin of regate.lib.checks.resolve
// (rego/lib/checks.rego), which it follows step for step: the index of the
// most restrictive outcome, and for each check
// the first layer with a matching rule per spelling group (a bare name's
// catch-all skipped), the most restrictive group, the error outcome, the
// fallback (none for the path surface), and the wrapper and unparseable
// floors. It exists because OPA spends microseconds per Rego expression and
// a bash call has about ten checks; TestAgreement and
// TestFastPathAgreesOnWorkload hold it to the Rego.
func resolveBuiltin(fs *fastState) func(*rego.Rego) {
	decl := &rego.Function{
		Name: "regate_resolve",
		Decl: types.NewFunction(types.Args(types.A, types.A), types.A),
	}
	return rego.Function2(decl, func(_ rego.BuiltinContext, ct, xt *ast.Term) (*ast.Term, error) {
		checks, ok := ct.Value.(*ast.Array)
		if !ok {
			return nil, nil
		}
		ctx, ok := xt.Value.(ast.Object)
		if !ok {
			return nil, nil
		}
		r := resolver{fs: fs, agentFallback: get(ctx, "agent_fallback"), policyFallback: get(ctx, "policy_fallback")}
		for k, name := range layerNames {
			r.layers[k], _ = get(ctx, name).(ast.Object)
		}
		out := make([]*ast.Term, checks.Len())
		top, topSev := -1, -1
		for i := range out {
			c, ok := checks.Elem(i).Value.(ast.Object)
			if !ok {
				return nil, nil
			}
			o, err := r.outcome(i, c)
			if err != nil {
				return nil, err
			}
			out[i] = o
			if obj, ok := o.Value.(ast.Object); ok {
				if s := severity[getString(obj, "action")]; s > topSev { // the first on a tie
					top, topSev = i, s
				}
			}
		}
		items := [][2]*ast.Term{item("outcomes", ast.ArrayTerm(out...))}
		if top >= 0 {
			items = append(items, item("top", ast.IntNumberTerm(top)))
		}
		return ast.ObjectTerm(items...), nil
	})
}

var layerNames = [3]string{"session", "agent", "policy"}

type resolver struct {
	fs             *fastState
	layers         [3]ast.Object
	agentFallback  ast.Value
	policyFallback ast.Value
}

// outcome is checks.outcome: unit_floor(layered(…)), or null.
func (r *resolver) outcome(i int, c ast.Object) (*ast.Term, error) {
	action, rule, layer, err := r.layered(i, c)
	if err != nil {
		return nil, err
	}
	if rule == nil {
		return ast.InternedNullTerm, nil
	}
	return unitFloor(i, c, action, rule, layer), nil
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
	if surface == "path" {
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

var wrapperSentinels = map[string]string{"opaque": "<opaque-bash-wrapper>", "indirection": "<indirection-bash-wrapper>"}

// unitFloor is checks.unit_floor.
func unitFloor(i int, c ast.Object, action string, rule ast.Object, layer string) *ast.Term {
	if sentinel, ok := wrapperSentinels[getString(c, "wrapper")]; ok && action == "allow" && layer != "session" {
		floored := rule.Copy()
		floored.Insert(term("pattern"), term(sentinel))
		return outcomeTerm(i, "ask", floored, "floor")
	}
	if pos := get(rule, "pos"); pos != nil && getBool(c, "unparseable") && action != "deny" && layer != "session" {
		// (A rule without pos makes the Rego branch undefined; so here.)
		return outcomeTerm(i, "ask", ast.NewObject(
			item("pattern", term("<unparseable-bash-command>")),
			item("pos", ast.NewTerm(pos)),
			item("reason", ast.StringTerm(getString(c, "reason"))),
		), "floor")
	}
	return outcomeTerm(i, action, rule, layer)
}

func outcomeTerm(i int, action string, rule ast.Object, layer string) *ast.Term {
	return ast.ObjectTerm(
		item("action", term(action)),
		item("rule", ast.NewTerm(rule)),
		item("layer", term(layer)),
		item("i", ast.IntNumberTerm(i)),
	)
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
