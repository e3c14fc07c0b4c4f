package compiler

import (
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

// intersectCases are patterns (collapsed, as the matcher reads them) that
// a value must match (must) and must not match (not), and whether one
// exists. They are the table of TestIntersect and the seeds of
// FuzzIntersect.
var intersectCases = []struct {
	must, not []string
	found     bool
}{
	{[]string{"src/*", "*.env"}, nil, true},                 // the order_decides example
	{[]string{"/home/me/proj/*", "*.env"}, nil, true},       // the project folder against *.env
	{[]string{"*.env", "*.env.example"}, nil, false},        // suffixes that disagree
	{[]string{"*.env.*", "*.env.example"}, nil, true},       // an exception inside a deny
	{[]string{"*.env.example"}, []string{"*.env.*"}, false}, // ... and all of it inside
	{[]string{"*"}, []string{"*"}, false},
	{[]string{"*"}, []string{"?*"}, true}, // only the empty value
	{[]string{"ls ?", "ls *"}, nil, true},
	{[]string{"ls ?", "ls ??"}, nil, false}, // ? is exactly one character
	{[]string{"a*b*c", "*c*b*a*"}, nil, true},
	{[]string{"a*", "*b", "?"}, nil, false},
	{[]string{"a*", "*b", "??"}, nil, true},
	{[]string{"git *", "git push --force*"}, []string{"git push --force-with-lease*"}, true},
	{[]string{"rm -rf build"}, []string{"rm *"}, false},
	{[]string{"*/.env"}, []string{"/*"}, true},
	{[]string{"*"}, []string{"a*", "b*", "*c", "?", ""}, true},
	{[]string{"??"}, []string{"a*", "*a", "x?", "?x", "y?", "?y", "z?", "?z"}, true}, // needs a character beyond the first fresh one
	{[]string{"héllo*", "*ø"}, nil, true},
	{[]string{"*a*a*a*a*a*a*a*a*", "*b*b*b*b*b*b*b*b*"}, nil, true},
	{[]string{"*x?y*", "*y?x*"}, []string{"*xyx*", "*yxy*"}, true},
}

// globRegexp is the reference matcher: the pattern as a regular expression
// ("*" any run, "?" one character, the rest literal).
func globRegexp(p string) *regexp.Regexp {
	var b strings.Builder
	b.WriteString(`^(?s:`)
	for _, r := range p {
		switch r {
		case '*':
			b.WriteString(`.*`)
		case '?':
			b.WriteString(`.`)
		default:
			b.WriteString(regexp.QuoteMeta(string(r)))
		}
	}
	b.WriteString(`)$`)
	return regexp.MustCompile(b.String())
}

func constraintsOf(must, not []string) []constraint {
	var cons []constraint
	for _, p := range must {
		cons = append(cons, constraint{p, plainValue(), false})
	}
	for _, p := range not {
		cons = append(cons, constraint{p, plainValue(), true})
	}
	return cons
}

// checkWitness fails unless v matches every must pattern and no not
// pattern, by the reference matcher and by matchGlob.
func checkWitness(t *testing.T, v string, must, not []string) {
	t.Helper()
	for _, p := range must {
		if !globRegexp(p).MatchString(v) || !matchGlob(p, v) {
			t.Errorf("witness %q does not match %q", v, p)
		}
	}
	for _, p := range not {
		if globRegexp(p).MatchString(v) || matchGlob(p, v) {
			t.Errorf("witness %q matches %q, which it must not", v, p)
		}
	}
}

func TestIntersect(t *testing.T) {
	for _, tc := range intersectCases {
		vals, out := findTuple(1, constraintsOf(tc.must, tc.not), &budget{left: 1 << 30})
		if out == searchTooCostly {
			t.Errorf("must %q not %q: too costly", tc.must, tc.not)
			continue
		}
		if got := out == searchFound; got != tc.found {
			t.Errorf("must %q not %q: found %v (%q), want %v", tc.must, tc.not, got, vals, tc.found)
			continue
		}
		if tc.found {
			checkWitness(t, vals[0], tc.must, tc.not)
		}
		if len(tc.must) == 2 && tc.found && !mayOverlap([]rune(tc.must[0]), []rune(tc.must[1])) {
			t.Errorf("mayOverlap(%q, %q) is false, but %q matches both", tc.must[0], tc.must[1], vals[0])
		}
	}
}

// TestIntersectShortest: the search is breadth first, so the witness is a
// shortest value, its wildcards filled with a letter no pattern names.
func TestIntersectShortest(t *testing.T) {
	tests := []struct {
		must []string
		want string
	}{
		{[]string{"src/*", "*.env"}, "src/.env"},
		{[]string{"/home/me/proj/*", "*.env"}, "/home/me/proj/.env"},
		{[]string{"ls ?", "ls *"}, "ls x"},
		{[]string{"x?", "?x"}, "xx"},
		{[]string{"a*", "*b", "??"}, "ab"},
	}
	for _, tc := range tests {
		vals, out := findTuple(1, constraintsOf(tc.must, nil), &budget{left: 1 << 30})
		if out != searchFound || vals[0] != tc.want {
			t.Errorf("%q: %q (%v), want %q", tc.must, vals, out, tc.want)
		}
	}
}

// TestIntersectTemplates: spellings over several variables, read in order,
// as a path is spelt absolute and relative, and an MCP call as its targets.
func TestIntersectTemplates(t *testing.T) {
	cwdRel := template{variable(0), literal("/"), variable(1)}
	rel := template{variable(1)}
	tests := []struct {
		name  string
		vars  int
		cons  []constraint
		found bool
		check func(vals []string) bool
	}{
		{"absolute folder meets relative pattern", 2, []constraint{
			absolute(0), nonEmpty(1), relative(1),
			{"/home/me/proj/*", cwdRel, false}, {"src/*", rel, false},
		}, true, func(v []string) bool { return v[0] == "/home/me/proj" && strings.HasPrefix(v[1], "src/") }},
		{"a relative spelling never starts with /", 2, []constraint{
			absolute(0), relative(1), {"/etc/*", rel, false},
		}, false, nil},
		{"server and tool", 2, []constraint{
			nonEmpty(0), nonEmpty(1),
			{"github:*", template{variable(0), literal(":"), variable(1)}, false},
			{"*_delete*", template{variable(0), literal("_"), variable(1)}, false},
			{"github*", template{variable(0)}, true},
		}, false, nil}, // the first needs a server starting "github", the third forbids it
		{"server and tool, no exclusion", 2, []constraint{
			nonEmpty(0), nonEmpty(1),
			{"github:*", template{variable(0), literal(":"), variable(1)}, false},
			{"*_delete*", template{variable(0), literal("_"), variable(1)}, false},
		}, true, func(v []string) bool { return v[0] == "github" && strings.HasPrefix(v[1], "delete") }},
		{"a constant spelling", 0, []constraint{{"mcp_*", template{literal("mcp_list")}, false}}, true,
			func(v []string) bool { return len(v) == 0 }},
		{"a constant spelling excluded", 0, []constraint{{"mcp_*", template{literal("mcp_list")}, true}}, false, nil},
	}
	for _, tc := range tests {
		vals, out := findTuple(tc.vars, tc.cons, &budget{left: 1 << 30})
		if got := out == searchFound; got != tc.found || out == searchTooCostly {
			t.Errorf("%s: outcome %v (%q), want found %v", tc.name, out, vals, tc.found)
			continue
		}
		if tc.found && !tc.check(vals) {
			t.Errorf("%s: witness %q", tc.name, vals)
		}
		if tc.found {
			for _, c := range tc.cons {
				if matchGlob(c.pattern, c.tmpl.render(vals)) == c.negate {
					t.Errorf("%s: %q spelt %q breaks %+v", tc.name, vals, c.tmpl.render(vals), c)
				}
			}
		}
	}
}

// TestIntersectBudget: the search stops, undecided, when the budget runs
// out or the product grows past its cap, never running unbounded.
func TestIntersectBudget(t *testing.T) {
	cons := constraintsOf([]string{"*a*a*a*a*a*a*a*a*b", "*b*b*b*b*b*b*b*b*a"}, []string{"*ab*", "*ba*"})
	if _, out := findTuple(1, cons, &budget{left: 10}); out != searchTooCostly {
		t.Errorf("a budget of 10 steps: outcome %v, want too costly", out)
	}
	var many []string
	for i := range maxSearchConstraints + 1 {
		many = append(many, strings.Repeat("?", i%7)+"*")
	}
	if _, out := findTuple(1, constraintsOf(many, nil), &budget{left: 1 << 30}); out != searchTooCostly {
		t.Errorf("%d constraints: outcome %v, want too costly", len(many), out)
	}
}

// FuzzIntersect holds the search to the reference matcher on any two
// patterns and a third that must not match: a witness meets every
// constraint, and when the search finds none for the two patterns alone, no
// value short enough to be a shortest witness matches both (a character of
// a shortest common value is read by a non-star position of one of them).
func FuzzIntersect(f *testing.F) {
	for _, tc := range intersectCases {
		if len(tc.must) >= 2 {
			not := ""
			if len(tc.not) > 0 {
				not = tc.not[0]
			}
			f.Add(tc.must[0], tc.must[1], not)
		}
	}
	f.Fuzz(func(t *testing.T, p, q, n string) {
		if utf8.RuneCountInString(p) > 12 || utf8.RuneCountInString(q) > 12 || utf8.RuneCountInString(n) > 12 ||
			!utf8.ValidString(p+q+n) {
			return
		}
		p, q, n = collapseStars(p), collapseStars(q), collapseStars(n)
		vals, out := findTuple(1, constraintsOf([]string{p, q}, []string{n}), &budget{left: 1 << 24})
		if out == searchFound {
			checkWitness(t, vals[0], []string{p, q}, []string{n})
		}
		vals, out = findTuple(1, constraintsOf([]string{p, q}, nil), &budget{left: 1 << 24})
		switch out {
		case searchFound:
			checkWitness(t, vals[0], []string{p, q}, nil)
			if !mayOverlap([]rune(p), []rune(q)) {
				t.Errorf("mayOverlap(%q, %q) is false, but %q matches both", p, q, vals[0])
			}
		case searchEmpty:
			bound := nonStars(p) + nonStars(q)
			if v, ok := bruteForce(p, q, bound); ok {
				t.Errorf("no witness found for %q and %q, but %q matches both", p, q, v)
			}
		}
	})
}

func nonStars(p string) int { return utf8.RuneCountInString(strings.ReplaceAll(p, "*", "")) }

// bruteForce tries every value up to n characters over the patterns'
// characters and one more.
func bruteForce(p, q string, n int) (string, bool) {
	alphabet := searchAlphabet(constraintsOf([]string{p, q}, nil))
	if len(alphabet) > 6 || n > 7 {
		return "", false // too many values to try; the other checks still hold
	}
	rp, rq := globRegexp(p), globRegexp(q)
	var try func(prefix []rune) (string, bool)
	try = func(prefix []rune) (string, bool) {
		if s := string(prefix); rp.MatchString(s) && rq.MatchString(s) {
			return s, true
		}
		if len(prefix) == n {
			return "", false
		}
		for _, r := range alphabet {
			if v, ok := try(append(prefix, r)); ok {
				return v, true
			}
		}
		return "", false
	}
	return try(nil)
}
