# Package profile resolves which prompt profile applies to a model
# (docs/profiles.md), over the rule set compiled by
# regate's compiler/profile at data.regate.profile:
#
#   scopes.global, scopes.project  each active scope's selection, default,
#                                  bindings (rules with anchored regexes and
#                                  precomputed specificity), inherit and
#                                  subagents; an untrusted or invalid
#                                  project is absent
#   profiles[ref]                  {"valid", "layers"} or {"problem"}; a
#                                  reference that is absent is missing
#
# input:
#   model     {"provider", "model"}, or null before a model is selected
#   subagent  the process marks itself as a subagent child
#   flags     the start-up selection flags, each a selection
#   session   the selection entries of the active branch, oldest first
#
# A selection is {"mode": "auto"}, {"mode": "off"} or {"mode": "manual",
# "profile": REF}. decision holds the profile applied (a "scope:id"
# reference, or null), the mode, where the selection came from, the
# binding and its specificity and priority when one applied, the scope
# whose tie was a conflict, the layers most specific first, and the
# diagnostics of the resolution.
package regate.lib.profile

scopes := data.regate.profile.scopes

profiles := data.regate.profile.profiles

# The selection and where it came from: exactly one flag, else the newest
# entry of the active branch when it can be read, else the trusted project
# config, else the global config, else auto.
selected := {"sel": normalize_session(input.flags[0]), "from": "flag"} if {
	count(input.flags) == 1
	readable(input.flags[0])
} else := {"sel": normalize_session(e), "from": "session"} if {
	e := input.session[count(input.session) - 1]
	readable(e)
} else := {"sel": scopes.project.selection, "from": "project"} if {
	scopes.project.selection != null
} else := {"sel": scopes.global.selection, "from": "global"} if {
	scopes.global.selection != null
} else := {"sel": {"mode": "auto"}, "from": "default"}

readable(e) if e.mode in {"auto", "off"}

readable(e) if {
	e.mode == "manual"
	is_string(e.profile)
}

# A bare id in a session value or flag is looked up in the trusted project
# first, then in the global scope.
normalize_session(e) := {"mode": "manual", "profile": ref} if {
	e.mode == "manual"
	ref := session_ref(e.profile)
} else := e

session_ref(r) := r if {
	contains(r, ":")
} else := concat(":", ["project", r]) if {
	scopes.project
	profiles[concat(":", ["project", r])]
} else := concat(":", ["global", r])

# The subagent policy: the trusted project's, else the global one, else
# "bindings".
subagent_policy := scopes.project.subagents if {
	scopes.project.subagents != null
} else := scopes.global.subagents if {
	scopes.global.subagents != null
} else := "bindings"

decision := off_result("off") if {
	input.subagent
	subagent_policy == "off"
} else := off_result("off") if {
	selected.sel.mode == "off"
} else := with_from(auto, "default") if {
	input.subagent
	subagent_policy == "bindings"
	selected.sel.mode == "manual"
} else := with_from(auto, selected.from) if {
	input.subagent
	subagent_policy == "bindings"
} else := with_from(manual(selected.sel.profile), selected.from) if {
	selected.sel.mode == "manual"
} else := with_from(auto, selected.from)

off_result(mode) := with_from(result(null, mode, [], []), selected.from)

with_from(r, from) := object.union(r, {"selection_from": from})

result(ref, mode, layers, diags) := {
	"profile": ref, "mode": mode, "layers": layers, "diagnostics": diags,
	"binding": null, "specificity": null, "priority": null, "conflict": null,
}

# manual pins a profile whatever the model; one that cannot be expanded
# applies nothing, with no fallback to auto.
manual(ref) := result(ref, "manual", profiles[ref].layers, []) if {
	profiles[ref].valid
} else := result(null, "manual", [], [problem(ref)])

problem(ref) := profiles[ref].problem if {
	profiles[ref].problem
} else := "profile-missing"

# auto: with no model nothing applies yet; otherwise the bindings of the
# first scope that has a matching rule, then the defaults (when allowed).
auto := result(null, "auto", [], ["auto-no-model"]) if {
	input.model == null
} else := object.union(result(c.ref, "auto", profiles[c.ref].layers, []), {
	"binding": concat(":", [c.scope, c.binding]),
	"specificity": c.specificity,
	"priority": c.priority,
}) if {
	c := chosen
	c.kind == "winner"
	profiles[c.ref].valid
} else := after_bindings(defaults_allowed)

# after_bindings: what the defaults give once no binding applied, with the
# conflict or the broken winner reported.
after_bindings(allowed) := object.union(d, {"conflict": conflict, "diagnostics": array.concat(binding_diags, d.diagnostics)}) if {
	d := defaults(allowed)
}

conflict := chosen.scope if chosen.kind == "conflict"

default conflict := null

binding_diags := ["binding-conflict"] if {
	chosen.kind == "conflict"
} else := [problem(chosen.ref)] if {
	chosen.kind == "winner"
} else := []

defaults(allowed) := result(ref, "auto", profiles[ref].layers, []) if {
	allowed
	some ref in default_refs
	profiles[ref].valid
	ref == first_valid_default
} else := result(null, "auto", [], array.concat([problem(r) | some r in default_refs; not profiles[r].valid], ["auto-none"]))

default_refs := [r |
	some s in ["project", "global"]
	r := scopes[s].default
	r != null
]

first_valid_default := [r | some r in default_refs; profiles[r].valid][0]

# A subagent under the "bindings" policy gets explicit bindings only.
defaults_allowed := false if {
	input.subagent
	subagent_policy == "bindings"
} else := true

# binding_scopes: the project's bindings, then the global ones unless the
# project sets inheritGlobalBindings to false.
binding_scopes := [s |
	some s in ["project", "global"]
	scopes[s]
	not hidden(s)
]

hidden("global") if scopes.project.inherit == false

# chosen is the result of the first scope with a matching rule: a winner,
# or a conflict, which does not fall through to the next scope.
chosen := [c | some s in binding_scopes; c := choose(s)][0]

choose(s) := c if {
	ms := [m |
		some b in scopes[s].bindings
		specs := [r.specificity | some r in b.rules; rule_matches(r)]
		count(specs) > 0
		m := {"binding": b.id, "ref": b.ref, "priority": b.priority, "specificity": max(specs)}
	]
	count(ms) > 0
	top := max({m.priority | some m in ms})
	at_top := [m | some m in ms; m.priority == top]
	best := max({m.specificity | some m in at_top})
	finals := [m | some m in at_top; m.specificity == best]
	c := pick(s, finals)
}

pick(s, finals) := {"kind": "conflict", "scope": s} if {
	count({m.ref | some m in finals}) > 1
} else := object.union(finals[0], {"kind": "winner", "scope": s})

rule_matches(r) if {
	regex.match(r.provider_re, input.model.provider)
	regex.match(r.model_re, input.model.model)
}
