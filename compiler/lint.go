package compiler

import (
	"fmt"
	"slices"
)

// The precedence lint: inside one pattern map the most specific pattern
// decides (R1), wherever it stands, so two surprises are possible and both
// are silent at decision time:
//
//   - an allow or ask outranks a deny on values both match: an allow on a
//     project folder ("/home/me/proj/*", 14 literal characters) beats a
//     "*.env" deny (4) for every .env file in the project;
//   - two rules of different actions are equally specific, and then the
//     key written later decides: swapping the keys changes the decision.
//
// The lint reports each pair with both positions and a call that shows it,
// found by pattern intersection (intersect.go) over the spellings a call
// shows the map. It ranks with the compiler's own rankRules, so it judges
// exactly the order that decides. A pair is reported only when the
// outranking rule decides some call the other rule matches too (no more
// specific rule steps in first), and an allow that matches only what the
// deny matches ("*.env.example" inside "*.env.*", "rm -rf build" inside
// "rm *") is an exception written on purpose, not a surprise.

// lintBudgetSteps is the work one compilation's lint may do, in automaton
// steps: about a second; past it, the pairs left are reported unchecked.
const lintBudgetSteps = 30_000_000

// WithPrecedenceLint makes Compile also report the precedence surprises of
// every pattern map (outranked_deny, order_decides) as warnings. check and
// export ask for it; the hook and the server, which only decide, do not pay
// for it.
func WithPrecedenceLint() Option {
	return func(o *options) { o.lint = true }
}

// lintRule is one rule of a map as the lint sees it: its forms are the
// collapsed patterns it matches with.
type lintRule struct {
	ranked
	forms []form
}

// pairKind is why a pair of rules deserves a look.
type pairKind int

const (
	pairNone      pairKind = iota
	pairOutranked          // a non-deny is more specific than a deny
	pairOrder              // different actions, equal specificity
)

// mapLint lints one pattern map.
type mapLint struct {
	surface string
	rules   []lintRule // from least to most specific: the index is the rank
	shapes  []callShape
	budget  *budget
	d       *diags
	skipped int // pairs left undecided
	// The exact rules by text, and on a path surface by every end of
	// their text after a "/": their ranks, ascending.
	byText, byEnd map[string][]int
}

// lintPermission lints every pattern map of p.
func lintPermission(p *Permission, home string, b *budget, d *diags) {
	lintMCPServers(p, d)
	lintPathForms(p, home, d)
	for _, s := range p.Surfaces {
		if len(s.Rules) < 2 {
			continue
		}
		m := mapLint{surface: s.Name, shapes: shapesFor(s.Name), budget: b, d: d}
		for _, r := range rankRules(s.Name, s.Rules, home, true) {
			lr := lintRule{ranked: r}
			for _, f := range matchForms(s.Name, collapseStars(r.expanded)) {
				lr.forms = append(lr.forms, newForm(f))
			}
			m.rules = append(m.rules, lr)
		}
		m.run()
		switch {
		case b.left < 0:
			d.Warnf(s.Pos, CodePrecedenceUnchecked,
				"the precedence of the %d rules of %q was not fully checked: comparing every pair would take too long", len(s.Rules), s.Name)
		case m.skipped > 0:
			d.Warnf(s.Pos, CodePrecedenceUnchecked,
				"the precedence of the %d rules of %q was not fully checked: %d pairs of rules were too costly to compare", len(s.Rules), s.Name, m.skipped)
		}
	}
}

// run looks at every pair that could surprise: a deny and each rule above
// it, and rules of equal specificity (adjacent in rank order). Exact
// patterns rank above every wildcard and meet another exact pattern only as
// the same text, or, on a path, as its absolute and relative spellings:
// those pairs are found by lookup, so a map of many exact rules costs no
// more than its wildcards.
func (m *mapLint) run() {
	exact := len(m.rules) // the first exact rule: they all rank on top
	for exact > 0 && m.rules[exact-1].spec.exact {
		exact--
	}
	m.byText, m.byEnd = map[string][]int{}, map[string][]int{}
	for r := exact; r < len(m.rules); r++ {
		text := m.rules[r].forms[0].text
		m.byText[text] = append(m.byText[text], r)
		if pathSurface(m.surface) {
			for i, c := range text {
				if c == '/' {
					m.byEnd[text[i+1:]] = append(m.byEnd[text[i+1:]], r)
				}
			}
		}
	}
	for lo := range exact {
		for hi := lo + 1; hi < len(m.rules); hi++ {
			equal := sameSpecificity(m.rules[lo].spec, m.rules[hi].spec)
			if !equal && m.rules[lo].Action != Deny {
				break // past lo's equals, and lo is no deny to outrank
			}
			if !m.visit(lo, hi, equal) {
				return
			}
		}
	}
	for hi := exact; hi < len(m.rules); hi++ {
		text := m.rules[hi].forms[0].text
		for _, lo := range m.byText[text] { // the same text, written twice
			if lo < hi && !m.visit(lo, hi, true) {
				return
			}
		}
		if !pathSurface(m.surface) {
			continue
		}
		for i, r := range text { // an absolute path and its relative end
			if r != '/' {
				continue
			}
			for _, lo := range m.byText[text[i+1:]] {
				if lo < hi && !m.visit(lo, hi, false) {
					return
				}
			}
		}
	}
}

// visit checks one pair; false when the budget has run out.
func (m *mapLint) visit(lo, hi int, equal bool) bool {
	if !m.budget.spend(1) {
		return false
	}
	if kind := m.kind(lo, hi, equal); kind != pairNone {
		m.check(lo, hi, kind)
	}
	return m.budget.left >= 0
}

func (m *mapLint) kind(lo, hi int, equal bool) pairKind {
	l, h := m.rules[lo], m.rules[hi]
	switch {
	case l.baseline || h.baseline:
		return pairNone // regate's own mcp discovery allows (R6), not rules anyone wrote
	case equal && l.Action != h.Action:
		return pairOrder
	case !equal && l.Action == Deny && h.Action != Deny:
		return pairOutranked
	}
	return pairNone
}

// sameSpecificity: everything but the declaration ties.
func sameSpecificity(a, b specificity) bool {
	return a.exact == b.exact && a.literals == b.literals && a.stars == b.stars && a.length == b.length
}

// check searches for a call that rules[hi] decides while rules[lo] matches
// it too, and reports the pair when it finds one.
func (m *mapLint) check(lo, hi int, kind pairKind) {
	shape, vals, outcome := m.interaction(lo, hi)
	if outcome == searchTooCostly {
		m.skipped++
		return
	}
	if outcome == searchEmpty {
		return // they never meet where rules[hi] decides
	}
	l, h := m.rules[lo], m.rules[hi]
	call := shape.describe(m.surface, vals)
	if kind == pairOrder {
		m.d.Warnf(h.Pos, CodeOrderDecides,
			"%s %q and %s %q at %s are equally specific, so the later key decides (R1): %s gets %s, and would get %s with the keys swapped; make one pattern more specific",
			h.Action, h.Pattern, l.Action, l.Pattern, l.Pos, call, h.Action, l.Action)
		return
	}
	if m.exception(lo, hi) == searchEmpty {
		return // every call rules[hi] decides, the deny matches too: written on purpose
	}
	m.d.Warnf(h.Pos, CodeOutrankedDeny,
		"%s %q outranks the deny %q at %s (%s; R1), so %s gets %s, not deny; narrow the %s, or move the deny to hard-guards.jsonc if it must always hold",
		h.Action, h.Pattern, l.Pattern, l.Pos, outrankReason(h.spec, l.spec), call, h.Action, h.Action)
}

// outrankReason says which step of R1 puts hi above lo.
func outrankReason(hi, lo specificity) string {
	switch {
	case hi.exact != lo.exact:
		return "exact against a wildcard"
	case hi.literals != lo.literals:
		return fmt.Sprintf("more literal characters: %d against %d", hi.literals, lo.literals)
	case hi.stars != lo.stars:
		return fmt.Sprintf("as many literal characters, fewer *: %d against %d", hi.stars, lo.stars)
	}
	return fmt.Sprintf("as many literal characters and *, longer: %d characters against %d", hi.length, lo.length)
}

// interaction finds a call that rules[hi] decides (no rule above it matches
// any spelling) while rules[lo] matches one of its spellings.
func (m *mapLint) interaction(lo, hi int) (callShape, []string, searchOutcome) {
	worst := searchEmpty
	for _, sh := range m.shapes {
		for sa := range sh.spellings {
			for sd := range sh.spellings {
				if !sh.plausible(sa, m.rules[hi].Action, sd, m.rules[lo].Action) {
					continue
				}
				for _, fa := range m.rules[hi].forms {
					for _, fd := range m.rules[lo].forms {
						if !sh.compatible(sa, fa, sd, fd) {
							continue
						}
						pos := []placed{{fa, sa}, {fd, sd}}
						above, ok := m.above(hi, sh, pos)
						if !ok {
							worst = searchTooCostly
							continue
						}
						vals, out := findTuple(sh.vars, append(sh.constraints(pos), above...), m.budget)
						if out == searchFound {
							return sh, vals, out
						}
						worst = max(worst, out)
					}
				}
			}
		}
	}
	return callShape{}, nil, worst
}

// exception searches for a call that rules[hi] decides and rules[lo] does
// not match: searchEmpty means rules[hi] is an exception carved out of the
// deny, which is how a more specific allow is meant to be used.
func (m *mapLint) exception(lo, hi int) searchOutcome {
	worst := searchEmpty
	for _, sh := range m.shapes {
		for sa := range sh.spellings {
			for _, fa := range m.rules[hi].forms {
				pos := []placed{{fa, sa}}
				above, ok := m.above(hi, sh, pos)
				if !ok {
					worst = searchTooCostly
					continue
				}
				cons := append(append(sh.constraints(pos), m.negations(lo, sh, pos)...), above...)
				_, out := findTuple(sh.vars, cons, m.budget)
				if out == searchFound {
					return out
				}
				worst = max(worst, out)
			}
		}
	}
	return worst
}

// above are the negations of every rule more specific than rules[hi]: a
// call one of them matches is theirs to decide. pos[0] is rules[hi] placed.
// Past maxSearchConstraints the search would be refused anyway: ok is false.
func (m *mapLint) above(hi int, sh callShape, pos []placed) (cons []constraint, ok bool) {
	for _, r := range m.rulesAbove(hi, sh, pos[0]) {
		if !m.budget.spend(1) {
			return nil, false
		}
		cons = append(cons, m.negations(r, sh, pos)...)
		if len(cons) > maxSearchConstraints {
			return nil, false
		}
	}
	return cons, true
}

// rulesAbove are the rules more specific than rules[hi] that may match a
// call rules[hi] matches as placed. Above an exact rule are only exact
// ones, and its text fixes one spelling of the call: only the same text, or
// on a path the spelling's other end, can match, which the indexes give
// without reading every rule.
func (m *mapLint) rulesAbove(hi int, sh callShape, at placed) []int {
	if !m.rules[hi].spec.exact || m.byText == nil {
		return rangeOf(hi+1, len(m.rules))
	}
	text := at.text
	found := append([]int(nil), m.byText[text]...)
	if sh.related == endsWithNext {
		if at.spelling == 0 { // absolute: a relative spelling is an end of it
			for i, c := range text {
				if c == '/' {
					found = append(found, m.byText[text[i+1:]]...)
				}
			}
		} else { // relative: an absolute spelling ends with it
			found = append(found, m.byEnd[text]...)
		}
	}
	slices.Sort(found)
	found = slices.Compact(found)
	i, _ := slices.BinarySearch(found, hi+1)
	return found[i:]
}

func rangeOf(from, to int) []int {
	out := make([]int, 0, max(0, to-from))
	for i := from; i < to; i++ {
		out = append(out, i)
	}
	return out
}

// negations say that rules[r] matches no spelling of the call, leaving out
// the forms that cannot meet the positive constraints anyway.
func (m *mapLint) negations(r int, sh callShape, pos []placed) []constraint {
	var out []constraint
	for t, tmpl := range sh.spellings {
		for _, f := range m.rules[r].forms {
			if sh.meets(t, f, pos) {
				out = append(out, constraint{f.text, tmpl, true})
			}
		}
	}
	return out
}
