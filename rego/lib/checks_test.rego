package regate.lib.checks_test

import data.regate.lib.permission

# Rule sets as the compiler emits them (see permission_test.rego).
catch_all(action) := {
	"rules": [{"pattern": "*", "action": action, "pos": "t:1:1", "catch_all": true}],
	"exact": {}, "prefix": {"": [0]}, "prefix_lens": [0],
	"suffix": {}, "suffix_lens": [], "glob": {}, "glob_lens": [],
}

env_deny := {
	"rules": [{"pattern": "/r/.env", "action": "deny", "pos": "t:2:1", "reason": "secrets"}],
	"exact": {"/r/.env": [0]}, "prefix": {}, "prefix_lens": [],
	"suffix": {}, "suffix_lens": [], "glob": {}, "glob_lens": [],
}

# grep -r KEY . in /r, holding a.go and .env: the folder's own check, and
# the strict-only check of what the recursive read reaches.
tree_read := {
	"tool": "bash",
	"unregistered": false,
	"checks": [
		{"surface": "bash", "value": "grep -r KEY .", "forms": [["grep -r KEY ."]]},
		{"surface": "path", "value": ".", "forms": [[".", "/r"]]},
		{"surface": "path", "value": ".", "forms": [["a.go", "/r/a.go"], [".env", "/r/.env"]], "strict_only": true, "within": "."},
	],
	"session": {"approvals": {}},
}

policy(strict, yolo) := {"strict": strict, "yolo": yolo, "surfaces": {"bash": catch_all("allow"), "path": env_deny}}

test_within_caps_a_deny_at_ask if {
	d := permission.decision with input as tree_read with data.regate.rules.policy as policy(true, false)
	d.action == "ask"
	d.matched == "/r/.env"
	d.layer == "policy"
	d.reason == "reading the folder . reaches a path this rule denies: secrets"
}

test_within_ask_is_not_approved_by_yolo if {
	d := permission.decision with input as tree_read with data.regate.rules.policy as policy(true, true)
	d.action == "ask"
	not d.yolo
}

test_within_is_strict_only if {
	d := permission.decision with input as tree_read with data.regate.rules.policy as policy(false, false)
	d.action == "allow"
}

test_within_leaves_an_allow if {
	clean := json.patch(tree_read, [{"op": "replace", "path": "/checks/2/forms", "value": [["a.go", "/r/a.go"]]}])
	d := permission.decision with input as clean with data.regate.rules.policy as policy(true, false)
	d.action == "allow"
}

test_within_does_not_cap_a_hard_guard if {
	d := permission.decision with input as tree_read
		with data.regate.rules.policy as policy(true, false)
		with data.regate.rules.hardguards as {"surfaces": {"path": env_deny}}
	d.action == "deny"
	d.layer == "hard-guard"
}
