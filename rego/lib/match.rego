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

# ranks are the ranks of every rule of m that matches one of values.
ranks(m, values) := {k |
	some v in values
	some k in hits(m, v)
}

hits(m, v) := ((exact_hits(m, v) | prefix_hits(m, v)) | suffix_hits(m, v)) | glob_hits(m, v)

exact_hits(m, v) := {k | some k in m.exact[v]}

prefix_hits(m, v) := {k |
	some n in m.prefix_lens
	some k in m.prefix[substring(v, 0, n)]
}

suffix_hits(m, v) := {k |
	some n in m.suffix_lens
	n <= count(v)
	some k in m.suffix[substring(v, count(v) - n, -1)]
}

glob_hits(m, v) := {k |
	some n in m.glob_lens
	some k in m.glob[substring(v, 0, n)]
	glob_ok(m.rules[k], v)
}

# A bash pattern ending in " *" also matches the bare command, so its rule
# may carry a second glob for that form.
glob_ok(r, v) if glob.match(r.glob, null, v)

glob_ok(r, v) if glob.match(r.glob_bare, null, v)
