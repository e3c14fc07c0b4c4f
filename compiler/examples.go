package compiler

import "github.com/regate/regate/compiler/internal/ruledoc"

// An Example is a call and the decision the policy must give it, written in
// the policy file ("examples": [...]) so that a policy ships with its own
// proof. `regate test` turns each into a generated test_ rule and
// `regate check` decides each; a wrong example fails both.
//
// An example decides no call, so an error in one (a mistyped "expect", a
// call that is not an object) is reported, positioned, and the example is
// left out, but the policy's rules stay in force: failing the whole file
// closed would drop its denies to asks over a typo in its tests. The
// commands that vouch for a policy (check, test, bundle, export) still
// exit 2 on such an error.
type Example struct {
	Pos Pos `json:"pos"`
	// Tool, Input, Agent and Registered are the call, as hosts give it.
	Tool       string         `json:"tool"`
	Input      map[string]any `json:"input"`
	Agent      string         `json:"agent,omitempty"`
	Registered []string       `json:"registered,omitempty"`
	// Expect is allow, ask or deny; Matched, when set, is the rule that
	// must decide, as written.
	Expect  Action `json:"expect"`
	Matched string `json:"matched,omitempty"`
}

// decodeExamples reads the "examples" list: each {"call": {"tool", "input",
// "agent"?, "registered"?}, "expect": ACTION, "matched"?: PATTERN}.
func decodeExamples(n *ruledoc.Node, d *diags) []Example {
	if !d.Expect(n, ruledoc.Array, "examples") {
		return nil
	}
	var out []Example
	for _, e := range n.Elems {
		if !d.Expect(e, ruledoc.Object, "an example") {
			continue
		}
		ex := Example{Pos: e.Pos}
		mark := len(d.List)
		for _, m := range e.Members {
			switch m.Key {
			case "call":
				decodeExampleCall(m.Val, &ex, d)
			case "expect":
				if d.Expect(m.Val, ruledoc.String, "expect") {
					ex.Expect = Action(m.Val.Str)
					if !ex.Expect.Valid() {
						d.Errorf(m.Val.Pos, CodeUnknownAction, "expect is %q; use allow, ask or deny", ex.Expect)
					}
				}
			case "matched":
				d.String(m.Val, "matched", &ex.Matched)
			case "note":
			default:
				unknownKey(d, m, exampleKeys, "an example")
			}
		}
		if ex.Tool == "" || ex.Expect == "" {
			d.Errorf(e.Pos, CodeMissingField, "an example needs a call with a tool and an expect")
		}
		// An example with any error is left out: run as read, it would
		// prove something other than what was written.
		if len(d.List[mark:].Fatal()) == 0 {
			out = append(out, ex)
		}
	}
	return out
}

func decodeExampleCall(n *ruledoc.Node, ex *Example, d *diags) {
	if !d.Expect(n, ruledoc.Object, "call") {
		return
	}
	for _, m := range n.Members {
		switch m.Key {
		case "tool":
			d.String(m.Val, "tool", &ex.Tool)
		case "input":
			if d.Expect(m.Val, ruledoc.Object, "input") {
				ex.Input, _ = m.Val.Plain().(map[string]any)
			}
		case "agent":
			d.String(m.Val, "agent", &ex.Agent)
		case "registered":
			ex.Registered = d.Strings(m.Val, "registered")
		default:
			unknownKey(d, m, exampleCallKeys, "an example's call")
		}
	}
}
