package printable

import "testing"

func TestString(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"policy.jsonc:1:2: warning: unknown key", "policy.jsonc:1:2: warning: unknown key"},
		{"a\nb", `a\nb`},
		{"\x1b[31mred", `\x1b[31mred`},
		{"bad \xff byte", `bad \xff byte`},
		{"over\u202eride", `over\u202eride`},
		{"héllo wörld", "héllo wörld"},
	} {
		got := String(c.in)
		if got != c.want {
			t.Errorf("String(%q) = %q, want %q", c.in, got, c.want)
		}
		if String(got) != got {
			t.Errorf("String is not idempotent on %q", got)
		}
	}
}

func TestShorten(t *testing.T) {
	for _, c := range []struct {
		in   string
		max  int
		want string
	}{
		{"abcdef", 0, "abcdef"},
		{"abcdef", 6, "abcdef"},
		{"abcdef", 4, "abc…"},
		{"héllo wörld", 5, "héll…"},
		{"日本語テキスト", 3, "日本…"},
		{"ab", 1, "…"},
	} {
		if got := Shorten(c.in, c.max); got != c.want {
			t.Errorf("Shorten(%q, %d) = %q, want %q", c.in, c.max, got, c.want)
		}
	}
}
