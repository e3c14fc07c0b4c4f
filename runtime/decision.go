package runtime

import (
	"fmt"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/regate/regate/compiler/action"
)

// Decision is the outcome of one call, as data.
type Decision struct {
	// Action is allow, ask or deny, before any authorizer answers an ask.
	Action action.Action `json:"action"`
	// Matched is the rule that decided, as written, or a sentinel such as
	// <unregistered-tool> or <invalid-policy>; empty for the built-in ask.
	Matched string `json:"matched"`
	// Layer is where the rule lives: hard-guard, session, agent, policy,
	// fallback, floor, registry or facts.
	Layer string `json:"layer"`
	// Surface and Value are the check that decided: "path" and the path,
	// "bash" and the command, the tool's name and its value.
	Surface string `json:"surface"`
	Value   string `json:"value"`
	// Origin is where a bash unit was found, when not at the top level.
	Origin string `json:"origin,omitempty"`
	// At is where the deciding unit or path token stands in the command
	// (line:col), for shell calls.
	At string `json:"at,omitempty"`
	// Reason is the rule's custom reason, if any.
	Reason string `json:"reason,omitempty"`
	// Pos is the rule's source position, file:line:col, or "-".
	Pos string `json:"pos"`
	// Message is what the agent is shown.
	Message string `json:"message"`
	// Yolo is set when yolo mode turned an ask into this allow.
	Yolo bool `json:"yolo,omitempty"`
	// Floor names the floor that raised an allow to ask, if any.
	Floor string `json:"floor,omitempty"`
}

// decisionFrom reads the decision object regate.lib.permission.decision
// produced; a missing or mistyped field reads as empty, and an action other
// than allow, ask or deny is a fault.
func decisionFrom(obj ast.Object) (Decision, error) {
	str := func(k string) string { return getString(obj, k) }
	d := Decision{
		Action:  action.Action(str("action")),
		Matched: str("matched"),
		Layer:   str("layer"),
		Surface: str("surface"),
		Value:   str("value"),
		Origin:  str("origin"),
		At:      str("at"),
		Reason:  str("reason"),
		Pos:     str("pos"),
		Message: str("message"),
		Floor:   str("floor"),
	}
	d.Yolo = getBool(obj, "yolo")
	if !d.Action.Valid() {
		return Decision{}, fmt.Errorf("runtime: the policy returned action %q", d.Action)
	}
	return d, nil
}
