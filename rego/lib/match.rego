# Package match selects the most specific rule of one compiled pattern map.
#
# A matcher is built by regate's compiler (compiler/matcher.go). Its rules are
# ordered from least to most specific, so a rule's index is its specificity
# rank and the winner among the rules that match is the one with the largest
# index. The indexes keep a decision from scanning every rule: a value is
# looked up once per distinct key length of each index, whatever the number
# of rules.
package regate.lib.match

# best is the most specific rule of matcher m that matches any of values.
# It is undefined when no rule matches.
best(m, values) := m.rules[max(rs)] if {
	rs := ranks(m, values)
	count(rs) > 0
}

# ranks are the ranks of every rule of m that matches one of values: the
# exact index, then the prefix, suffix and glob indexes, each probed once per
# distinct key length.
ranks(m, values) := ((exact_ranks | prefix_ranks) | suffix_ranks) | glob_ranks if {
	exact_ranks := {k | some v in values; some k in m.exact[v]}
	prefix_ranks := {k |
		some n in m.prefix_lens
		some v in values
		some k in m.prefix[substring(v, 0, n)]
	}
	suffix_ranks := {k |
		some n in m.suffix_lens
		some v in values
		n <= count(v)
		some k in m.suffix[substring(v, count(v) - n, -1)]
	}
	glob_ranks := {k |
		some n in m.glob_lens
		some v in values
		some k in m.glob[substring(v, 0, n)]
		glob_ok(m.rules[k], v)
	}
}

# A bash pattern ending in " *" also matches the bare command, so its rule
# may carry a second glob for that form.
glob_ok(r, v) if glob.match(r.glob, null, v)

glob_ok(r, v) if glob.match(r.glob_bare, null, v)
