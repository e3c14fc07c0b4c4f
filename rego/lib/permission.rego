# Package permission is the decision of one tool call: regate.lib.gate's
# decide over the facts regate extracted (input) and the compiled rule sets
# (data.regate.rules.*). When gate reaches no decision the call is blocked
# as a fault.
package regate.lib.permission

import data.regate.lib.gate
import data.regate.lib.sets

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
}

decision := gate.decide(input, sets.compiled)
