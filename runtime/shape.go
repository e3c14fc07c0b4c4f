package runtime

import (
	"fmt"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/regate/regate/compiler"
)

// checkShape refuses compiled data that is not what the compiler makes:
// data.regate.rules with policy, hardguards and agents (and self, when the
// self floor guards places), each layer's
// surfaces an object, each fallback a rule with an action. Rego reads a
// missing or mistyped part as undefined, and an undefined layer would let
// a fallback decide, so a damaged policy (a corrupted cache, a hand-edited
// bundle) must fail here, where the host blocks, not at decision time.
func checkShape(out *compiler.Output) error {
	regate, ok := out.Data["regate"].(map[string]any)
	if !ok {
		return fmt.Errorf("runtime: compiled data has no regate object")
	}
	rules, ok := regate["rules"].(map[string]any)
	if !ok {
		return fmt.Errorf("runtime: compiled data has no regate.rules object")
	}
	for _, name := range []string{"policy", "hardguards"} {
		if err := checkLayer("regate.rules."+name, rules[name]); err != nil {
			return err
		}
	}
	if self, present := rules["self"]; present {
		if err := checkLayer("regate.rules.self", self); err != nil {
			return err
		}
	}
	agents, ok := asObject(rules["agents"])
	if !ok {
		return fmt.Errorf("runtime: regate.rules.agents is not an object")
	}
	all, ok := asObject(agents["agents"])
	if !ok {
		return fmt.Errorf("runtime: regate.rules.agents.agents is not an object")
	}
	for name, layer := range all {
		if err := checkLayer("regate.rules.agents.agents."+name, layer); err != nil {
			return err
		}
	}
	return nil
}

func checkLayer(where string, v any) error {
	layer, ok := asObject(v)
	if !ok {
		return fmt.Errorf("runtime: %s is not an object", where)
	}
	if s, present := layer["surfaces"]; present {
		if _, ok := asObject(s); !ok {
			return fmt.Errorf("runtime: %s.surfaces is not an object", where)
		}
	} else if where != "regate.rules.hardguards" || len(layer) > 0 {
		return fmt.Errorf("runtime: %s has no surfaces", where)
	}
	if f, present := layer["fallback"]; present {
		rule, ok := asObject(f)
		action := ""
		if ok {
			action, _ = rule["action"].(string)
		}
		if action != "allow" && action != "ask" && action != "deny" {
			return fmt.Errorf("runtime: %s.fallback is not a rule with an action", where)
		}
	}
	return nil
}

// asObject reads an object of the compiled data, which holds Go maps and,
// where the compiler built matchers, AST objects.
func asObject(v any) (map[string]any, bool) {
	switch t := v.(type) {
	case map[string]any:
		return t, true
	case ast.Object:
		m := make(map[string]any, t.Len())
		t.Foreach(func(k, v *ast.Term) {
			if s, ok := k.Value.(ast.String); ok {
				m[string(s)] = v.Value
			}
		})
		return m, true
	}
	return nil, false
}
