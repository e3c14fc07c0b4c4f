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
