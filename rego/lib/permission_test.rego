package regate.lib.permission_test

import data.regate.lib.permission

catch_all(action) := {
	"rules": [{"pattern": "*", "action": action, "pos": "t:1:1", "catch_all": true}],
	"exact": {}, "prefix": {"": [0]}, "prefix_lens": [0],
	"suffix": {}, "suffix_lens": [], "glob": {}, "glob_lens": [],
}

only(pattern, action) := {
	"rules": [{"pattern": pattern, "action": action, "pos": "t:2:1", "reason": "because"}],
	"exact": {pattern: [0]}, "prefix": {}, "prefix_lens": [],
	"suffix": {}, "suffix_lens": [], "glob": {}, "glob_lens": [],
}

read_env := {
	"tool": "read",
	"unregistered": false,
	"checks": [
		{"surface": "path", "value": ".env", "forms": [[".env", "/r/.env"], ["/r/.env"]]},
		{"surface": "read", "value": ".env", "forms": [[".env", "/r/.env"], ["/r/.env"]]},
	],
	"session": {"approvals": {}},
}

test_unregistered_blocked_before_rules if {
	d := permission.decision with input as object.union(read_env, {"unregistered": true})
		with data.regate.rules.policy as {"surfaces": {"read": catch_all("allow")}}
	d.action == "deny"
	d.matched == "<unregistered-tool>"
}

test_builtin_fallback_asks if {
	d := permission.decision with input as read_env
		with data.regate.rules.policy as {"surfaces": {}}
	d.action == "ask"
	d.layer == "fallback"
}

test_policy_fallback if {
	d := permission.decision with input as read_env
		with data.regate.rules.policy as {"surfaces": {}, "fallback": {"pattern": "*", "action": "deny", "pos": "t:9:9"}}
	d.action == "deny"
	d.pos == "t:9:9"
}

test_path_deny_beats_tool_allow if {
	d := permission.decision with input as read_env
		with data.regate.rules.policy as {"surfaces": {"path": only(".env", "deny"), "read": catch_all("allow")}}
	d.action == "deny"
	d.surface == "path"
	d.reason == "because"
}

test_hard_guard_beats_session_approval if {
	d := permission.decision with input as object.union(read_env, {"session": {"approvals": {"path": catch_all("allow")}}})
		with data.regate.rules.hardguards as {"surfaces": {"path": only("/r/.env", "deny")}}
	d.action == "deny"
	d.layer == "hard-guard"
}

test_session_approval_beats_policy_deny if {
	d := permission.decision with input as object.union(read_env, {"session": {"approvals": {"read": catch_all("allow")}}})
		with data.regate.rules.policy as {"surfaces": {"read": catch_all("deny")}}
	d.action == "allow"
	d.layer == "session"
}

test_canonical_form_cannot_dodge_a_deny if {
	d := permission.decision with input as read_env
		with data.regate.rules.policy as {"surfaces": {"read": catch_all("allow"), "path": only("/r/.env", "deny")}}
	d.action == "deny"
}

test_yolo_approves_ask if {
	d := permission.decision with input as read_env
		with data.regate.rules.policy as {"surfaces": {"read": catch_all("ask")}, "yolo": true}
	d.action == "allow"
	d.yolo
}

test_fault_floor_is_not_approved_by_yolo if {
	d := permission.decision with input as read_env
		with data.regate.rules.policy as {"surfaces": {"read": catch_all("allow")}, "yolo": true}
		with data.regate.rules.hardguards as {"surfaces": {}, "floors": [{"pattern": "<invalid-hard-guards>", "action": "ask", "pos": "h:1:1", "reason": "broken"}]}
	d.action == "ask"
	d.matched == "<invalid-hard-guards>"
}

test_decision_floor_keeps_the_rule if {
	d := permission.decision with input as object.union(read_env, {"floor": "ask"})
		with data.regate.rules.policy as {"surfaces": {"read": catch_all("allow")}}
	d.action == "ask"
	d.matched == "*"
}

test_first_check_reported_on_tie if {
	d := permission.decision with input as read_env
		with data.regate.rules.policy as {"surfaces": {"read": catch_all("deny"), "path": catch_all("deny")}}
	d.surface == "path"
}

test_message_names_rule_and_reason if {
	m := data.regate.lib.message.message with input as read_env
		with data.regate.rules.policy as {"surfaces": {"path": only(".env", "deny"), "read": catch_all("allow")}}
	m == "[regate] the agent is not permitted to run 'read' on path '.env' (matched '.env'). Reason: because."
}

test_message_for_unregistered_tool if {
	m := data.regate.lib.message.message with input as object.union(read_env, {"unregistered": true})
	m == "[regate] tool 'read' is not registered in this session; it is blocked before any rule."
}

test_session_approval_lifts_wrapper_floor if {
	wrapped := object.union(read_env, {"checks": [{"surface": "bash", "value": "sudo x", "forms": [["sudo x"]], "wrapper": "indirection"}]})
	floored := permission.decision with input as wrapped
		with data.regate.rules.policy as {"surfaces": {"bash": catch_all("allow")}}
	floored.matched == "<indirection-bash-wrapper>"
	approved := permission.decision with input as object.union(wrapped, {"session": {"approvals": {"bash": catch_all("allow")}}})
		with data.regate.rules.policy as {"surfaces": {"bash": catch_all("allow")}}
	approved.action == "allow"
	approved.layer == "session"
}

# A read whose path was not a string: the malformed floor asks over an
# allow, a session approval or yolo, and a deny still denies.
read_malformed := {
	"tool": "read",
	"unregistered": false,
	"checks": [{"surface": "read", "value": "", "forms": [[""]], "malformed": "input.path is an array, not a string"}],
	"session": {"approvals": {}},
}

test_malformed_input_asks_over_allow if {
	d := permission.decision with input as read_malformed
		with data.regate.rules.policy as {"surfaces": {"read": catch_all("allow")}}
	d.action == "ask"
	d.matched == "<malformed-input>"
	d.layer == "floor"
	d.reason == "input.path is an array, not a string"
}

test_malformed_input_not_approved_by_yolo_or_session if {
	d := permission.decision with input as object.union(read_malformed, {"session": {"approvals": {"read": catch_all("allow")}}})
		with data.regate.rules.policy as {"surfaces": {"read": catch_all("allow")}, "yolo": true}
	d.action == "ask"
	d.matched == "<malformed-input>"
	d.yolo == false
}

test_malformed_input_deny_stands if {
	d := permission.decision with input as read_malformed
		with data.regate.rules.policy as {"surfaces": {"read": catch_all("deny")}, "yolo": true}
	d.action == "deny"
	d.matched == "*"
}

# grep's pattern ".env": the spec's token rules read it as a path
# (spec_only); strict mode's argument model reads it as a pattern and
# gates the file grep reads instead (strict_only).
grep_pattern := {
	"tool": "bash",
	"unregistered": false,
	"checks": [
		{"surface": "bash", "value": "grep .env notes", "forms": [["grep .env notes"]]},
		{"surface": "path", "value": ".env", "forms": [[".env"]], "spec_only": true},
		{"surface": "path", "value": "notes", "forms": [["notes"]], "strict_only": true},
	],
	"session": {"approvals": {}},
}

spec_only_policy(strict) := {
	"strict": strict,
	"surfaces": {"bash": catch_all("allow"), "path": {
		"rules": [{"pattern": ".env", "action": "deny", "pos": "t:3:1"}, {"pattern": "notes", "action": "ask", "pos": "t:4:1"}],
		"exact": {".env": [0], "notes": [1]}, "prefix": {}, "prefix_lens": [],
		"suffix": {}, "suffix_lens": [], "glob": {}, "glob_lens": [],
	}},
}

test_spec_only_check_decides_without_strict if {
	d := permission.decision with input as grep_pattern
		with data.regate.rules.policy as spec_only_policy(false)
	d.action == "deny"
	d.matched == ".env"
}

test_strict_skips_spec_only_and_decides_strict_only if {
	d := permission.decision with input as grep_pattern
		with data.regate.rules.policy as spec_only_policy(true)
	d.action == "ask"
	d.matched == "notes"
}

# cat notes under a policy that allows "cat *" and says nothing of read:
# the file cat reads (role "read") meets the read rules alone, not the
# universal fallback.
cat_notes := {
	"tool": "bash",
	"unregistered": false,
	"checks": [
		{"surface": "bash", "value": "cat notes", "forms": [["cat notes"]]},
		{"surface": "read", "value": "notes", "forms": [["notes"]], "strict_only": true, "role": "read"},
	],
	"session": {"approvals": {}},
}

test_read_role_skips_the_universal_fallback if {
	d := permission.decision with input as cat_notes
		with data.regate.rules.policy as {"strict": true, "surfaces": {"bash": only("cat notes", "allow")}, "fallback": {"pattern": "*", "action": "ask", "pos": "t:9:9"}}
	d.action == "allow"
}

test_read_role_meets_the_read_rules if {
	d := permission.decision with input as cat_notes
		with data.regate.rules.policy as {"strict": true, "surfaces": {"bash": only("cat notes", "allow"), "read": catch_all("ask")}, "fallback": {"pattern": "*", "action": "allow", "pos": "t:9:9"}}
	d.action == "ask"
	d.surface == "read"
}
