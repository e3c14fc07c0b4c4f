package compiler

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
func decodeExamples(n *node, d *diags) []Example {
	if !expectKind(n, kindArray, "examples", d) {
		return nil
	}
	var out []Example
	for _, e := range n.elems {
		if !expectKind(e, kindObject, "an example", d) {
			continue
		}
		ex := Example{Pos: e.pos}
		mark := len(d.list)
		for _, m := range e.members {
			switch m.key {
			case "call":
				decodeExampleCall(m.val, &ex, d)
			case "expect":
				if expectKind(m.val, kindString, "expect", d) {
					ex.Expect = Action(m.val.str)
					if !ex.Expect.Valid() {
						d.errorf(m.val.pos, CodeUnknownAction, "expect is %q; use allow, ask or deny", ex.Expect)
					}
				}
			case "matched":
				decodeString(m.val, "matched", &ex.Matched, d)
			case "note":
			default:
				d.unknownKey(m, exampleKeys, "an example")
			}
		}
		if ex.Tool == "" || ex.Expect == "" {
			d.errorf(e.pos, CodeMissingField, "an example needs a call with a tool and an expect")
		}
		// An example with any error is left out: run as read, it would
		// prove something other than what was written.
		if len(d.list[mark:].Fatal()) == 0 {
			out = append(out, ex)
		}
	}
	return out
}

func decodeExampleCall(n *node, ex *Example, d *diags) {
	if !expectKind(n, kindObject, "call", d) {
		return
	}
	for _, m := range n.members {
		switch m.key {
		case "tool":
			decodeString(m.val, "tool", &ex.Tool, d)
		case "input":
			if expectKind(m.val, kindObject, "input", d) {
				ex.Input, _ = plain(m.val).(map[string]any)
			}
		case "agent":
			decodeString(m.val, "agent", &ex.Agent, d)
		case "registered":
			ex.Registered = decodeStrings(m.val, "registered", d)
		default:
			d.unknownKey(m, exampleCallKeys, "an example's call")
		}
	}
}

// plain is n as plain Go values (map[string]any, []any, string, float64,
// bool, nil).
func plain(n *node) any {
	switch n.kind {
	case kindObject:
		m := make(map[string]any, len(n.members))
		for _, mb := range n.members {
			m[mb.key] = plain(mb.val)
		}
		return m
	case kindArray:
		s := make([]any, len(n.elems))
		for i, e := range n.elems {
			s[i] = plain(e)
		}
		return s
	case kindString:
		return n.str
	case kindNumber:
		return n.num
	case kindBool:
		return n.boolean
	}
	return nil
}
