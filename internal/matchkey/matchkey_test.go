package matchkey_test

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/gobwas/glob"

	"github.com/regate/regate/internal/matchkey"
)

// matches is the decision's matching of a collapsed pattern: only * and ?
// are wild, * crosses every character, as OPA's glob.match without
// delimiters matches the compiler's escaped pattern.
func matches(t testing.TB, pattern, v string) bool {
	t.Helper()
	var b strings.Builder
	for _, r := range pattern {
		switch r {
		case '[', ']', '{', '}', '\\', ',', '!', '-', '^':
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	g, err := glob.Compile(b.String())
	if err != nil {
		t.Fatalf("%q: %v", pattern, err)
	}
	return g.Match(v)
}

// confirms is what a lookup confirms of an entry found under its key.
func confirms(t testing.TB, e matchkey.Entry, v string) bool {
	switch e.Op {
	case matchkey.Prefix:
		return strings.HasPrefix(v, e.Arg)
	case matchkey.Suffix:
		return strings.HasSuffix(v, e.Arg)
	case matchkey.Glob:
		g, err := glob.Compile(e.Arg)
		if err != nil {
			t.Fatalf("%q: %v", e.Arg, err)
		}
		return g.Match(v)
	}
	return true
}

func escape(p string) string {
	var b strings.Builder
	for _, r := range p {
		switch r {
		case '[', ']', '{', '}', '\\', ',', '!', '-', '^':
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// lookup is a decision's lookup of one pattern for value v: the pattern is
// found when its key is among v's keys and what is left is confirmed.
func lookup(t testing.TB, c matchkey.Class, pattern, v string) bool {
	e := matchkey.Align(c, pattern, escape(pattern))
	return slices.Contains(matchkey.Keys(nil, c, v), e.Key) && confirms(t, e, v)
}

// alphabet favours the characters keys are cut at, so that random values
// and patterns meet boundaries often.
const alphabet = "ab /.:-*?"

func random(r *rand.Rand, n int, wild bool) string {
	var b strings.Builder
	for range r.IntN(n) {
		c := alphabet[r.IntN(len(alphabet))]
		if !wild && (c == '*' || c == '?') {
			c = 'a'
		}
		b.WriteByte(c)
	}
	return b.String()
}

// collapse turns runs of * into one, as the compiler does.
func collapse(p string) string {
	for strings.Contains(p, "**") {
		p = strings.ReplaceAll(p, "**", "*")
	}
	return p
}

// TestLookupIsMatching is the property the decision rests on: for every
// class, a pattern is found by a value's keys (and confirmed) exactly when
// the pattern matches the value. A key missing from a value's list would
// hide a rule; a key that holds without the pattern matching would apply a
// rule that does not.
func TestLookupIsMatching(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	classes := []matchkey.Class{matchkey.Words, matchkey.Path, matchkey.Target, matchkey.Name}
	n := 0
	for range 200000 {
		c := classes[r.IntN(len(classes))]
		p := collapse(random(r, 12, true))
		switch r.IntN(12) {
		case 0:
			// An infix pattern, "*.W.*", which paths file under "|.W.".
			p = "*." + random(r, 4, false) + ".*"
		case 1:
			// A folder pattern, "*/W/…", which paths file under "|/W/".
			p = collapse("*/" + random(r, 4, false) + "/" + random(r, 4, true))
		}
		// Half the values are made to match: the pattern with its
		// wildcards filled in.
		var v string
		if r.IntN(2) == 0 {
			var b strings.Builder
			for _, ch := range p {
				switch ch {
				case '*':
					b.WriteString(random(r, 5, false))
				case '?':
					b.WriteByte(alphabet[r.IntN(5)])
				default:
					b.WriteRune(ch)
				}
			}
			v = b.String()
		} else {
			v = random(r, 14, false)
		}
		want := matches(t, p, v)
		if got := lookup(t, c, p, v); got != want {
			t.Fatalf("class %d, pattern %q, value %q: lookup %v, matching %v (entry %+v, keys %q)",
				c, p, v, got, want, matchkey.Align(c, p, escape(p)), matchkey.Keys(nil, c, v))
		}
		if want {
			n++
		}
	}
	if n < 50000 {
		t.Fatalf("only %d of the pairs matched; the generator tests too little", n)
	}
}

// TestKeys pins the keys of one value of each class, the document's shape.
func TestKeys(t *testing.T) {
	for _, c := range []struct {
		class matchkey.Class
		value string
		want  []string
	}{
		{matchkey.Words, "git push --force origin main", []string{"=git push --force origin main", "<", "^g", "<git ", "<git push ", "<git push --force ", "<git push --force origin "}},
		{matchkey.Words, "a b c d e f", []string{"=a b c d e f", "<", "^a", "<a ", "<a b ", "<a b c ", "<a b c d "}},
		{matchkey.Path, "/home/u/.ssh/id_rsa.pub", []string{"=/home/u/.ssh/id_rsa.pub", "<", "^/", "</", "</home/", "</home/u/", "</home/u/.ssh/", ">/id_rsa.pub", ">id_rsa.pub", ">.pub", "|/home/", "|/u/", "|/.ssh/"}},
		{matchkey.Path, ".env", []string{"=.env", "<", "^.", ">.env"}},
		{matchkey.Path, "a.x/.env.local.bak", []string{"=a.x/.env.local.bak", "<", "^a", "<a.x/", ">/.env.local.bak", ">.env.local.bak", ">.local.bak", ">.bak", "|.env.", "|.local."}},
		{matchkey.Path, "src/", []string{"=src/", "<", "^s", "<src/", ">/"}},
		{matchkey.Target, "github:create_issue", []string{"=github:create_issue", "<", "^g", "<github:"}},
		{matchkey.Name, "a/b c", []string{"=a/b c", "<", "^a"}},
	} {
		if got := matchkey.Keys(nil, c.class, c.value); !slices.Equal(got, c.want) {
			t.Errorf("%q: %q, want %q", c.value, got, c.want)
		}
	}
	if got := matchkey.AppendGroup(nil, matchkey.Path, []string{"a/b.go", "/r/a/b.go"}); !slices.Equal(got,
		[]string{"=a/b.go", "<", "^a", "<a/", ">/b.go", ">b.go", ">.go", "=/r/a/b.go", "^/", "</", "</r/", "</r/a/", "|/r/", "|/a/"}) {
		t.Errorf("group: %q", got)
	}
}

// TestAlign pins where typical patterns are filed.
func TestAlign(t *testing.T) {
	for _, c := range []struct {
		class   matchkey.Class
		pattern string
		want    matchkey.Entry
	}{
		{matchkey.Words, "*", matchkey.Entry{Key: "<"}},
		{matchkey.Words, "git status", matchkey.Entry{Key: "=git status"}},
		{matchkey.Words, "git *", matchkey.Entry{Key: "<git "}},
		{matchkey.Words, "git push --force*", matchkey.Entry{Key: "<git push ", Op: matchkey.Prefix, Arg: "git push --force"}},
		{matchkey.Words, "*.sh", matchkey.Entry{Key: "<", Op: matchkey.Suffix, Arg: ".sh"}},
		{matchkey.Path, "/home/u/.ssh/*", matchkey.Entry{Key: "</home/u/.ssh/"}},
		{matchkey.Path, "*.env", matchkey.Entry{Key: ">.env"}},
		{matchkey.Path, "*/.env", matchkey.Entry{Key: ">/.env"}},
		{matchkey.Path, "*x.env", matchkey.Entry{Key: ">.env", Op: matchkey.Suffix, Arg: "x.env"}},
		{matchkey.Path, "*.env.*", matchkey.Entry{Key: "|.env."}},
		{matchkey.Path, "*.env.local.*", matchkey.Entry{Key: "<", Op: matchkey.Glob, Arg: "G"}},
		{matchkey.Path, "*.e/v.*", matchkey.Entry{Key: "<", Op: matchkey.Glob, Arg: "G"}},
		{matchkey.Path, "*/secrets/*.json", matchkey.Entry{Key: "|/secrets/", Op: matchkey.Glob, Arg: "G"}},
		{matchkey.Path, "*/.github/hooks/*", matchkey.Entry{Key: "|/.github/", Op: matchkey.Glob, Arg: "G"}},
		{matchkey.Path, "*/node_modules/*", matchkey.Entry{Key: "|/node_modules/"}},
		{matchkey.Path, "*/a*/x", matchkey.Entry{Key: ">/x", Op: matchkey.Glob, Arg: "G"}},
		{matchkey.Target, "github:*", matchkey.Entry{Key: "<github:"}},
		{matchkey.Name, "dangerous-*", matchkey.Entry{Key: "^d", Op: matchkey.Prefix, Arg: "dangerous-"}},
		{matchkey.Words, "(*", matchkey.Entry{Key: "^("}},
		{matchkey.Words, "é*", matchkey.Entry{Key: "^é"}},
		{matchkey.Words, "npm*", matchkey.Entry{Key: "^n", Op: matchkey.Prefix, Arg: "npm"}},
	} {
		if got := matchkey.Align(c.class, c.pattern, "G"); got != c.want {
			t.Errorf("%q: %+v, want %+v", c.pattern, got, c.want)
		}
	}
}

// TestKeysOfManyDots: a base name with many dots has a suffix key at each,
// and an infix key between each two.
func TestKeysOfManyDots(t *testing.T) {
	got := matchkey.Keys(nil, matchkey.Path, "a.b.c.d.e.f.g.h.i.j.k")
	if n := len(got); n != 3+1+10+9 {
		t.Fatalf("%d keys: %q", n, got)
	}
	if !slices.Contains(got, ">.k") || got[len(got)-1] != "|.j." {
		t.Fatalf("keys %q", got)
	}
}

// BenchmarkKeys is the keys of one path, which facts lists for every
// spelling.
func BenchmarkKeys(b *testing.B) {
	b.ReportAllocs()
	var dst []string
	for b.Loop() {
		dst = matchkey.Keys(dst[:0], matchkey.Path, "/home/u/repo/src/app/main.go")
	}
}
