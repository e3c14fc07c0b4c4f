package regate.lib.profile_test

import data.regate.lib.profile

rule(provider, model, specificity) := {
	"provider_re": concat("", [`(?s)\A`, provider, `\z`]),
	"model_re": concat("", [`(?s)\A`, model, `\z`]),
	"specificity": specificity,
}

scope(bindings, def) := {"selection": null, "default": def, "bindings": bindings, "inherit": true, "subagents": null}

profiles := {
	"global:base": {"valid": true, "layers": ["global:base"]},
	"global:review": {"valid": true, "layers": ["global:review", "global:base"]},
	"project:local": {"valid": true, "layers": ["project:local"]},
	"global:broken": {"valid": false, "problem": "profile-cycle"},
}

call := {"model": {"provider": "anthropic", "model": "claude-x"}, "subagent": false, "flags": [], "session": []}

test_exact_binding_beats_wildcard if {
	g := scope(
		[
			{"id": "any", "ref": "global:base", "priority": 0, "rules": [rule(".*", ".*", 0)]},
			{"id": "claude", "ref": "global:review", "priority": 0, "rules": [rule("anthropic", "claude-x", 3)]},
		],
		null,
	)
	d := profile.decision with input as call
		with data.regate.profile as {"scopes": {"global": g}, "profiles": profiles}
	d.profile == "global:review"
	d.binding == "global:claude"
	d.layers == ["global:review", "global:base"]
}

test_project_conflict_reaches_defaults_not_global_bindings if {
	p := scope(
		[
			{"id": "a", "ref": "project:local", "priority": 0, "rules": [rule(".*", ".*", 0)]},
			{"id": "b", "ref": "global:base", "priority": 0, "rules": [rule(".*", ".*", 0)]},
		],
		null,
	)
	g := scope([{"id": "g", "ref": "global:review", "priority": 5, "rules": [rule(".*", ".*", 0)]}], "global:base")
	d := profile.decision with input as call
		with data.regate.profile as {"scopes": {"project": p, "global": g}, "profiles": profiles}
	d.conflict == "project"
	d.profile == "global:base"
	"binding-conflict" in d.diagnostics
}

test_broken_default_is_skipped if {
	g := scope([], "global:broken")
	d := profile.decision with input as call
		with data.regate.profile as {"scopes": {"global": g}, "profiles": profiles}
	d.profile == null
	"profile-cycle" in d.diagnostics
	"auto-none" in d.diagnostics
}

test_one_flag_beats_the_session if {
	d := profile.decision with input as object.union(call, {
		"flags": [{"mode": "off"}],
		"session": [{"mode": "manual", "profile": "global:review"}],
	})
		with data.regate.profile as {"scopes": {"global": scope([], "global:base")}, "profiles": profiles}
	d.mode == "off"
	d.selection_from == "flag"
	d.profile == null
}
