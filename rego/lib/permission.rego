# Package permission is the decision of one tool call: the decision the
# compiler generated for the policy (regate.gen.decision) over the facts
# regate extracted (input), under the name stock OPA servers, opa eval and
# opa test have always asked for. When there is no generated policy, the
# call is blocked as a fault, as the generated decision does when it
# reaches none.
package regate.lib.permission

# decision is the whole outcome of the call, as data.
default decision := {
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
}

decision := data.regate.gen.decision.decision
