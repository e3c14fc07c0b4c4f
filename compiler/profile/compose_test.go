package profile

import (
	"strings"
	"testing"
)

// TestComposeStaleBlocks: a stale block of regate's own is found at the
// start of the prompt behind a byte-order mark or blank lines, and is
// stripped cleanly in a CRLF prompt too, the prompt's line endings kept;
// marker text anywhere else, an imitation included, stays as written.
func TestComposeStaleBlocks(t *testing.T) {
	const b, e, c = BeginMarker, EndMarker, Control
	for _, tc := range []struct {
		name, prompt, want string
	}{
		{"plain", "NATIVE", b + "\n" + c + "\n\nnew\n" + e + "\n\nNATIVE"},
		{"stale block", b + "\nstale\n" + e + "\n\nNATIVE", b + "\n" + c + "\n\nnew\n" + e + "\n\nNATIVE"},
		{"behind a byte-order mark", "\uFEFF" + b + "\nstale\n" + e + "\n\nNATIVE", b + "\n" + c + "\n\nnew\n" + e + "\n\nNATIVE"},
		{"behind blank lines", "\n\n\n" + b + "\nstale\n" + e + "\n\nNATIVE", b + "\n" + c + "\n\nnew\n" + e + "\n\nNATIVE"},
		{"behind a mark and CRLF blank lines", "\uFEFF\r\n\r\n" + b + "\r\nstale\r\n" + e + "\r\n\r\nNATIVE\r\nMORE",
			b + "\r\n" + c + "\r\n\r\nnew\r\n" + e + "\r\n\r\nNATIVE\r\nMORE"},
		{"CRLF stale block", b + "\r\nstale\r\n" + e + "\r\n\r\nNATIVE\r\nMORE", b + "\r\n" + c + "\r\n\r\nnew\r\n" + e + "\r\n\r\nNATIVE\r\nMORE"},
		{"CRLF stacked blocks", b + "\r\none\r\n" + e + "\r\n\r\n" + b + "\r\ntwo\r\n" + e + "\r\n\r\nNATIVE",
			b + "\r\n" + c + "\r\n\r\nnew\r\n" + e + "\r\n\r\nNATIVE"},
		{"CRLF prompt, no block", "NATIVE\r\nMORE", b + "\r\n" + c + "\r\n\r\nnew\r\n" + e + "\r\n\r\nNATIVE\r\nMORE"},
		{"only a stale block", "\n" + b + "\nstale\n" + e + "\n", b + "\n" + c + "\n\nnew\n" + e},
		{"blank lines kept with no block", "\n\nNATIVE", b + "\n" + c + "\n\nnew\n" + e + "\n\n\n\nNATIVE"},
		{"begin without end behind a blank line", "\n" + b + "\nno end", b + "\n" + c + "\n\nnew\n" + e + "\n\n\n" + b + "\nno end"},
		{"a block after spaces is the prompt's", "  " + b + "\nquoted\n" + e, b + "\n" + c + "\n\nnew\n" + e + "\n\n  " + b + "\nquoted\n" + e},
		{"an imitation after the prompt's text is kept", "NATIVE\n" + e + "\n" + b + "\nFAKE PRIMARY\n" + e,
			b + "\n" + c + "\n\nnew\n" + e + "\n\nNATIVE\n" + e + "\n" + b + "\nFAKE PRIMARY\n" + e},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Compose(tc.prompt, []string{"new"})
			if got != tc.want {
				t.Fatalf("Compose(%q)\n got %q\nwant %q", tc.prompt, got, tc.want)
			}
			if again := Compose(got, []string{"new"}); again != got {
				t.Errorf("composing again gives %q", again)
			}
			if strings.Contains(got, "stale") || strings.Contains(got, "one") || strings.Contains(got, "two") {
				t.Errorf("a stale block survived: %q", got)
			}
			if strings.Contains(tc.prompt, "\r\n") && strings.Contains(strings.ReplaceAll(got, "\r\n", ""), "\n") {
				t.Errorf("a CRLF prompt got a bare line feed: %q", got)
			}
		})
	}
}
