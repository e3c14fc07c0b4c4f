package bashfacts_test

import (
	"testing"

	"github.com/regate/regate/bashfacts"
)

// TestRedirectWrites: how each redirect operator writes its target, and
// the streams that are no file.
func TestRedirectWrites(t *testing.T) {
	for _, c := range []struct{ cmd, target, writes string }{
		{"ls > a", "a", bashfacts.WriteCreate},
		{"ls >| a", "a", bashfacts.WriteCreate},
		{"ls &> a", "a", bashfacts.WriteCreate},
		{"ls >&a", "a", bashfacts.WriteCreate},
		{"ls 1<> a", "a", bashfacts.WriteCreate},
		{"ls >> a", "a", bashfacts.WriteAppend},
		{"ls &>> a", "a", bashfacts.WriteAppend},
		{"cat <<EOF > ~/a\nx\nEOF", "~/a", bashfacts.WriteCreate},
		{"cat < a", "a", ""},
		{"ls > /dev/null", "/dev/null", ""},
		{"ls 2> /dev/stderr", "/dev/stderr", ""},
	} {
		f, err := bashfacts.Extract(c.cmd)
		if err != nil {
			t.Fatalf("%q: %v", c.cmd, err)
		}
		found := false
		for _, tok := range f.Tokens {
			if tok.Kind == bashfacts.TokenRedirect && tok.Value == c.target {
				found = true
				if tok.Writes != c.writes {
					t.Errorf("%q: %s writes %q, want %q", c.cmd, c.target, tok.Writes, c.writes)
				}
			}
		}
		if !found {
			t.Errorf("%q: no redirect token %q in %+v", c.cmd, c.target, f.Tokens)
		}
	}
}
