package regate.lib.match_test

import data.regate.lib.match

# A matcher as the compiler builds it for the bash map
# {"*": ask, "git *": allow, "git status": allow, "*.env": deny, "a?c*d": deny, "web-[x]*": deny}.
bash := {
	"rules": [
		{"pattern": "*", "action": "ask", "pos": "p:1:1"},
		{"pattern": "a?c*d", "action": "deny", "pos": "p:5:1", "glob": "a?c*d"},
		{"pattern": "*.env", "action": "deny", "pos": "p:4:1"},
		{"pattern": "git *", "action": "allow", "pos": "p:2:1"},
		{"pattern": "web-[x]*", "action": "deny", "pos": "p:6:1"},
		{"pattern": "git status", "action": "allow", "pos": "p:3:1"},
	],
	"exact": {"git status": [5], "git": [3]},
	"prefix": {"": [0], "git ": [3], "web-[x]": [4]},
	"prefix_lens": [0, 4, 7],
	"suffix": {".env": [2]},
	"suffix_lens": [4],
	"glob": {"a": [1]},
	"glob_lens": [1],
}

test_exact_beats_prefix if match.best(bash, ["git status"]).pattern == "git status"

test_prefix if match.best(bash, ["git log -1"]).pattern == "git *"

test_bare_command_matches_trailing_space_star if match.best(bash, ["git"]).pattern == "git *"

test_suffix if match.best(bash, ["src/.env"]).pattern == "*.env"

test_suffix_needs_the_whole_suffix if match.best(bash, ["env"]).pattern == "*"

test_glob_question_mark if match.best(bash, ["abcxd"]).pattern == "a?c*d"

test_glob_confirmed if match.best(bash, ["abxd"]).pattern == "*"

test_metacharacters_are_literal if match.best(bash, ["web-[x]1"]).pattern == "web-[x]*"

test_catch_all if match.best(bash, ["make"]).pattern == "*"

test_most_specific_over_all_values if match.best(bash, ["make", "git status"]).pattern == "git status"

test_empty_value_meets_catch_all if match.best(bash, [""]).pattern == "*"

test_no_match_is_undefined if {
	not match.best({"rules": [], "exact": {}, "prefix": {}, "prefix_lens": [], "suffix": {}, "suffix_lens": [], "glob": {}, "glob_lens": []}, ["x"])
}
