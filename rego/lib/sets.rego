# Package sets is where the decision reads the compiled rule sets:
# compiled is {"policy", "hardguards", "agents"}, each {} when absent, so
# that without a policy nothing matches and the built-in fallback asks.
#
# Each set is read by its own reference, so that a test's
# `with data.regate.rules.policy as …` replaces it: OPA's with does not
# reach a read of the prefix data.regate.rules. The embedded runtime loads
# rego/fast/sets.rego instead, which reads the prefix in one lookup.
package regate.lib.sets

compiled := {"policy": policy, "hardguards": hardguards, "agents": agents}

default policy := {}

policy := data.regate.rules.policy

default hardguards := {}

hardguards := data.regate.rules.hardguards

default agents := {}

agents := data.regate.rules.agents
