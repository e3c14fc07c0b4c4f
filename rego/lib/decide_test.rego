package regate.lib.decide_test

import data.regate.lib.decide

# A matcher as compiler/matcher.go builds it for the bash surface of
#   {"*": "ask", "git *": "allow", "git push --force*": "deny", "*.sh": "ask", "g?t x": "deny"}
# ranks: * 0, *.sh 1, g?t x 2, git * 3, git push --force* 4. The keys that
# file entries to confirm also point at "~~".
bash := {
	"rules": {
		"~0000000": {"pattern": "*", "action": "ask", "sev": 1, "pos": "t:1:1", "catch_all": true, "tail": " (matched '*')."},
		"~0000001": {"pattern": "*.sh", "action": "ask", "sev": 1, "pos": "t:2:1", "tail": " (matched '*.sh')."},
		"~0000002": {"pattern": "g?t x", "action": "deny", "sev": 2, "pos": "t:3:1", "tail": " (matched 'g?t x')."},
		"~0000003": {"pattern": "git *", "action": "allow", "sev": 0, "pos": "t:4:1", "tail": " (matched 'git *')."},
		"~0000004": {"pattern": "git push --force*", "action": "deny", "sev": 2, "pos": "t:5:1", "reason": "no", "tail": " (matched 'git push --force*'). Reason: no."},
	},
	"graph": {
		"<": ["~0000000", "~~"],
		"<git ": ["~0000003"],
		"<git push ": ["~~"],
		"=git": ["~0000003"],
		"~0000000": [], "~0000001": [], "~0000002": [], "~0000003": [], "~0000004": [],
		"~~": [],
	},
	"starts": {"<git push ": [["~0000004", "git push --force"]]},
	"ends": {"<": [["~0000001", ".sh"]]},
	"globs": {"<": [["~0000002", "g?t x"]]},
}

best(v) := decide.best(bash, decide.value_keys("bash", v), [v]).pattern

test_keys_of_a_command if {
	decide.value_keys("bash", "git push --force origin") == ["=git push --force origin", "<", "^g", "<git ", "<git push ", "<git push --force "]
}

test_keys_of_a_path if {
	decide.value_keys("path", "/home/u/.ssh/id_rsa.pub") == [
		"=/home/u/.ssh/id_rsa.pub", "<", "^/",
		"</", "</home/", "</home/u/", "</home/u/.ssh/",
		">/id_rsa.pub", ">id_rsa.pub", ">.pub",
		"|/home/", "|/u/", "|/.ssh/",
	]
}

test_keys_of_a_relative_hidden_file if {
	decide.value_keys("read", ".env.local") == ["=.env.local", "<", "^.", ">.env.local", ">.local", "|.env."]
}

test_keys_of_infixes if {
	decide.value_keys("read", "a.x/.env.local.bak") == [
		"=a.x/.env.local.bak", "<", "^a", "<a.x/",
		">/.env.local.bak", ">.env.local.bak", ">.local.bak", ">.bak",
		"|.env.", "|.local.",
	]
}

test_keys_of_an_mcp_target if {
	decide.value_keys("mcp", "github:create_issue") == ["=github:create_issue", "<", "^g", "<github:"]
}

test_keys_of_a_skill if decide.value_keys("skill", "dangerous-rm") == ["=dangerous-rm", "<", "^d"]

test_keys_from_the_document if {
	decide.keys({"surface": "bash", "forms": [["ls"]], "keys": [["=ls"]]}, 0) == ["=ls"]
}

test_keys_computed_without_the_document if {
	decide.keys({"surface": "bash", "forms": [["ls", "ls -l"]]}, 0) == {"=ls", "<", "^l", "=ls -l", "<ls "}
}

test_most_specific_rule_wins if best("git push --force-with-lease") == "git push --force*"

test_prefix_rule if best("git status") == "git *"

test_bare_command_meets_trailing_space_star if best("git") == "git *"

test_word_boundary if best("gitk") == "*"

test_suffix_confirmed if best("run.sh") == "*.sh"

test_glob_confirmed if best("gat x") == "g?t x"

test_glob_not_confirmed if best("gat y") == "*"

test_most_specific_over_all_spellings if {
	decide.best(bash, {"=run.sh", "<", "=git push --force", "<git ", "<git push "}, ["run.sh", "git push --force"]).pattern == "git push --force*"
}

test_no_match_is_undefined if {
	not decide.best({"rules": {}, "graph": {}}, ["=x", "<"], ["x"])
}

test_bare_name_is_not_gated_by_the_catch_all if {
	not decide.counted({"bare": true}, bash, ["=make", "<"], ["make"])
	decide.counted({}, bash, ["=make", "<"], ["make"]).pattern == "*"
	decide.counted({"bare": true}, bash, ["=git", "<"], ["git"]).pattern == "git *"
}

o(sev, i) := {"action": ["allow", "ask", "deny"][sev], "sev": sev, "rule": {"pattern": "p", "pos": "t:1:1", "tail": " (matched 'p')."}, "layer": "policy", "i": i}

test_top_is_most_restrictive_first_on_tie if {
	decide.top([o(1, 0), o(2, 1), o(2, 2)]).i == 1
	decide.top([o(0, 0)]).i == 0
	not decide.top([])
}

test_malformed_asks_unless_denied if {
	f := decide.unit_floor({"malformed": "not a string"}, o(0, 0))
	f.sev == 1
	f.fault
	f.rule.pattern == "<malformed-input>"
	f.rule.tail == " (matched '<malformed-input>'). Reason: not a string."
	decide.unit_floor({"malformed": "x"}, o(2, 0)).sev == 2
}

test_wrapper_floors_an_allow_keeping_the_rule if {
	f := decide.unit_floor({"wrapper": "opaque"}, o(0, 3))
	f.sev == 1
	f.rule.pattern == "<opaque-bash-wrapper>"
	f.rule.pos == "t:1:1"
	f.layer == "floor"
	decide.unit_floor({"wrapper": "opaque"}, object.union(o(0, 3), {"layer": "session"})).sev == 0
}

test_unparseable_asks_unless_denied if {
	f := decide.unit_floor({"unparseable": true, "reason": "bad"}, o(1, 0))
	f.rule.pattern == "<unparseable-bash-command>"
	decide.unit_floor({"unparseable": true}, o(2, 0)).sev == 2
}

test_strict_reason_floors_an_allow_in_strict_mode_only if {
	decide.unit_floor({"strict": "runs code"}, o(0, 0)).rule.pattern == "<strict-floor>" with data.regate.gen.decision.strict as true
	decide.unit_floor({"strict": "runs code"}, o(0, 0)).sev == 0 with data.regate.gen.decision.strict as false
}

test_within_caps_a_deny_at_ask if {
	f := decide.within_cap({"within": "."}, o(2, 0))
	f.sev == 1
	f.fault
	f.rule.reason == "reading the folder . reaches a path this rule denies"
	decide.within_cap({"within": "."}, o(0, 0)).sev == 0
	decide.within_cap({"within": "sub", "changes": true}, o(2, 0)).rule.reason == "changing the folder sub reaches a path this rule denies"
}

e(sev) := [sev, -1, "policy", {"pattern": "p", "pos": "t:1:1", "tail": " (matched 'p')."}, decide.plain]

test_entries_order_most_restrictive_then_first if {
	max([decide.entry(o(1, 0)), decide.entry(o(2, 3)), decide.entry(o(2, 1))])[1] == -1
}

test_fault_floor_asks_and_is_not_lifted_by_yolo if {
	f := decide.faulted(e(0), [{"pattern": "<invalid-policy>", "pos": "p:1:1", "tail": "."}])
	f[0] == 1
	f[3].pattern == "<invalid-policy>"
	decide.yolo(f)[0] == 1
	decide.faulted(e(2), [{"pattern": "<invalid-policy>"}])[0] == 2
}

test_yolo_approves_an_ordinary_ask if {
	y := decide.yolo(e(1))
	y[0] == 0
	y[4].yolo
}

test_shell_floor_keeps_the_rule if {
	f := decide.shell_floor(e(0)) with input as {"floor": "ask"}
	f[0] == 1
	f[3].pattern == "p"
	f[4].floor == "decisionFloor"
	decide.shell_floor(e(0)) == e(0) with input as {}
}

test_tail if {
	decide.tail("git *", "", "policy") == " (matched 'git *')."
	decide.tail("make *", "", "session") == " (matched 'make *', approved for this session)."
	decide.tail("*.pem", "Keys live in the vault.", "policy") == " (matched '*.pem'). Reason: Keys live in the vault."
	decide.tail("", "", "fallback") == " (no rule matched; the built-in fallback asks)."
}

test_decision_object_and_message if {
	d := decide.assemble([2, 0, "policy", {"pattern": "rm -rf *", "pos": "p:3:5", "reason": "no", "tail": " (matched 'rm -rf *'). Reason: no."}, decide.plain]) with input as {
		"tool": "bash",
		"checks": [{"surface": "bash", "value": "rm -rf /", "origin": "inside sh -c payload", "at": "1:7"}],
	}
	d == {
		"action": "deny", "matched": "rm -rf *", "layer": "policy", "surface": "bash", "value": "rm -rf /",
		"origin": "inside sh -c payload", "at": "1:7", "pos": "p:3:5", "reason": "no", "floor": "", "yolo": false,
		"message": "[regate] the agent is not permitted to run 'bash' command 'rm -rf /' (inside sh -c payload) (matched 'rm -rf *'). Reason: no.",
	}
}

test_message_names_the_agent if {
	d := decide.assemble([1, 0, "fallback", {"pattern": "", "pos": "-", "tail": " (no rule matched; the built-in fallback asks)."}, decide.plain]) with input as {
		"tool": "WebFetch", "agent": "reviewer",
		"checks": [{"surface": "WebFetch", "value": "https://x"}],
	}
	d.message == "[regate] agent 'reviewer' needs approval to run 'WebFetch' with 'https://x' (no rule matched; the built-in fallback asks)."
}

test_unregistered_tool if {
	d := decide.unregistered with input as {"tool": "evil"}
	d.action == "deny"
	d.layer == "registry"
	d.message == "[regate] tool 'evil' is not registered in this session; it is blocked before any rule."
}
