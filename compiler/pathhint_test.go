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
// pattern's longest literal run, without case, and a pattern without
// wildcards matches only itself: a walk that keeps only the paths holding a
// fragment or equal to an exact path loses none a rule matches. 200,000 random pairs,
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
	matched, exact := 0, 0
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
		if !strings.ContainsAny(p, "*?[\\") {
			exact++
			if !strings.EqualFold(strings.TrimSuffix(p, "/"), strings.TrimSuffix(v, "/")) {
				t.Fatalf("%q, a pattern without wildcards, matches %q, another path", p, v)
			}
		}
	}
	if matched < 20000 || exact < 1000 {
		t.Fatalf("only %d of the pairs matched (%d without wildcards): the test proves little", matched, exact)
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
	h := compile(`{"permission": {"*": "ask", "path": {"*": "allow", "*.env": "deny", "*.env.example": "allow", "~/.ssh/*": "ask", "/srv/Data/": "deny"}}}`,
		`{"permission": {"path": {"/etc/Shadow*": "deny"}}}`,
		map[string]string{"reviewer": "---\npermission:\n  path:\n    \"*.key\": deny\n---\nReview.\n"},
		Guarded{Path: "/home/u/.cache/regate/key", What: "the key", Secret: true})
	want := []string{"*.env"[1:], ".key", "/etc/shadow", "/home/u/.ssh/"}
	slices.Sort(want)
	if h.All || !slices.Equal(h.Fragments, want) {
		t.Errorf("hint %+v, want fragments %q", h, want)
	}
	if exact := []string{"/home/u/.cache/regate/key", "/srv/data"}; !slices.Equal(h.Exact, exact) {
		t.Errorf("hint %+v, want exact paths %q", h, exact)
	}
	if h := compile(`{"permission": {"path": {"*": "ask", "src/*": "allow"}}}`, "", nil); !h.All {
		t.Errorf("a path catch-all that asks: %+v, want every path kept", h)
	}
	if h := compile(`{"permission": {"*": "ask", "bash": {"*": "allow"}}}`, "", nil); h.All || len(h.Fragments) != 0 {
		t.Errorf("no path rules: %+v, want nothing kept", h)
	}
}

// TestWriteHint: a walk whose entries are deleted or changed keeps what
// the non-allow rules of the path and write surfaces may match, in every
// layer: the self floor's guarded files too.
func TestWriteHint(t *testing.T) {
	compile := func(policy string, guarded ...Guarded) *Output {
		t.Helper()
		out, err := Compile(Input{Policy: &Source{Name: "policy.jsonc", Data: []byte(policy)}, Guarded: guarded}, WithHome("/home/u"))
		if err != nil || len(out.Diagnostics.Fatal()) > 0 {
			t.Fatalf("compile: %v %v", err, out.Diagnostics)
		}
		return out
	}
	out := compile(`{"permission": {"*": "ask", "write": {"*": "allow", "/etc/*": "ask", "~/.*": "ask", "*.lock": "deny"}, "path": {"*": "allow", "*.env": "deny"}}}`,
		Guarded{Path: "/home/u/.config/regate/policy.jsonc", What: "the policy"})
	h := out.WriteHint()
	for _, f := range []string{".env", "/etc/", "/home/u/.", ".lock"} {
		if !slices.Contains(h.Fragments, f) {
			t.Errorf("write hint %+v lacks %q", h, f)
		}
	}
	// The self floor guards the file and every folder above it, each by
	// its exact path: a walk below /home/u keeps only those.
	for _, e := range []string{"/home/u/.config/regate/policy.jsonc", "/home/u"} {
		if !slices.Contains(h.Exact, e) {
			t.Errorf("write hint %+v lacks the exact path %q", h, e)
		}
	}
	if h.All {
		t.Errorf("write hint keeps every path: %+v", h)
	}
	if p := out.Hint(); slices.Contains(p.Fragments, ".lock") || slices.Contains(p.Fragments, "/etc/") {
		t.Errorf("the path hint took the write rules: %+v", p)
	}
	if h := compile(`{"permission": {"write": {"*": "ask"}}}`).WriteHint(); !h.All {
		t.Errorf("a write catch-all that asks: %+v, want every path kept", h)
	}
}
