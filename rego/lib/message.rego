# Package message is where an OPA server was asked for a decision with the
# agent's message before the decision carried the message itself: response
# is the decision, unchanged.
#
# Deprecated: query data.regate.lib.permission.decision.
package regate.lib.message

import data.regate.lib.permission

response := permission.decision
