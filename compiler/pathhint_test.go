package compiler

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestLongestLiteral: the longest run of a pattern's text between
// wildcards; brackets and backslashes end a run as well (which only makes
// it shorter).
func TestLongestLiteral(t *testing.T) {
	for pattern, want := range map[string]string{
		"*.env":             ".env",
		"*.env.*":           ".env.",
		"/home/u/.ssh/*":    "/home/u/.ssh/",
		"*":                 "",
		"?*":                "",
		"src/*/secret?.txt": "/secret",
		"a*bcd*ef":          "bcd",
		"keys/[ab]x.pem":    "keys/",
		`x\*longer`:         "longer",
		"[unclosed-longest": "",
		"exact.txt":         "exact.txt",
	} {
		if got := longestLiteral(pattern); got != want {
			t.Errorf("longestLiteral(%q) = %q, want %q", pattern, got, want)
		}
	}
}

// TestPathHintKeepsEveryMatch: every value a pattern matches holds the
// pattern's longest literal run, without case: a walk that keeps only the
// paths holding a fragment loses none a rule matches. 200,000 random pairs,
// matched by the compiler's own glob automaton.
func TestPathHintKeepsEveryMatch(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 31))
	alphabet := []string{"a", "b", "A", ".", "/", "e", "*", "?", "[", "]", `\`}
	gen := func(n int, wild bool) string {
		var b strings.Builder
		for i := 0; i < n; i++ {
			c := alphabet[r.IntN(len(alphabet))]
			if !wild && (c == "*" || c == "?") {
				c = "a"
			}
			b.WriteString(c)
		}
		return b.String()
	}
	matched := 0
	for i := 0; i < 200000; i++ {
		p := gen(1+r.IntN(7), true)
		v := gen(r.IntN(9), false)
		if r.IntN(3) == 0 {
			// A value built from the pattern, so that many pairs match.
			v = strings.NewReplacer("*", gen(r.IntN(3), false), "?", gen(1, false)).Replace(p)
		}
		if !matchGlob(collapseStars(p), v) {
			continue
		}
		matched++
		if f := strings.ToLower(longestLiteral(p)); !strings.Contains(strings.ToLower(v), f) {
			t.Fatalf("%q matches %q, which does not hold the fragment %q", p, v, f)
		}
	}
	if matched < 20000 {
		t.Fatalf("only %d of the pairs matched: the test proves little", matched)
	}
}

// TestPathHint: the fragments of every layer's non-allow path rules (the
// policy's, the hard guards', an agent's, the self floor's secrets);
// allows add none, and a non-allow rule without literal text keeps every
// path.
func TestPathHint(t *testing.T) {
	compile := func(policy, guards string, agents map[string]string, guarded ...Guarded) PathHint {
		t.Helper()
		in := Input{Policy: &Source{Name: "policy.jsonc", Data: []byte(policy)}, Guarded: guarded}
		if guards != "" {
			in.HardGuards = &Source{Name: "hard-guards.jsonc", Data: []byte(guards)}
		}
		for name, body := range agents {
			in.Agents = append(in.Agents, Source{Name: name + ".md", Data: []byte(body)})
		}
		out, err := Compile(in, WithHome("/home/u"))
		if err != nil || len(out.Diagnostics.Fatal()) > 0 {
			t.Fatalf("compile: %v %v", err, out.Diagnostics)
		}
		return out.Hint()
	}
	h := compile(`{"permission": {"*": "ask", "path": {"*": "allow", "*.env": "deny", "*.env.example": "allow", "~/.ssh/*": "ask"}}}`,
		`{"permission": {"path": {"/etc/Shadow*": "deny"}}}`,
		map[string]string{"reviewer": "---\npermission:\n  path:\n    \"*.key\": deny\n---\nReview.\n"},
		Guarded{Path: "/home/u/.cache/regate/key", What: "the key", Secret: true})
	want := []string{"*.env"[1:], ".key", "/etc/shadow", "/home/u/.cache/regate/key", "/home/u/.ssh/"}
	slices.Sort(want)
	if h.All || !slices.Equal(h.Fragments, want) {
		t.Errorf("hint %+v, want fragments %q", h, want)
	}
	if h := compile(`{"permission": {"path": {"*": "ask", "src/*": "allow"}}}`, "", nil); !h.All {
		t.Errorf("a path catch-all that asks: %+v, want every path kept", h)
	}
	if h := compile(`{"permission": {"*": "ask", "bash": {"*": "allow"}}}`, "", nil); h.All || len(h.Fragments) != 0 {
		t.Errorf("no path rules: %+v, want nothing kept", h)
	}
}
