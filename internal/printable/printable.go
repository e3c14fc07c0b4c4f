// Package printable escapes text read from files a user does not control
// (file names, keys, values quoted in a diagnostic) before it reaches a
// terminal or a log line: a raw newline could fake a line of output, and an
// escape sequence could drive the terminal. Shorten bounds such text to a
// width (log fields, prompt lines).
package printable

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// String returns s with every character that is not printable (a
// control character such as a newline or ESC, a format character such as
// a bidirectional override, a byte that is not UTF-8) escaped as strconv
// escapes it (\n, \x1b, \u202e), and the rest unchanged. Text that is
// already printable comes back as it is, so String can be applied
// twice.
func String(s string) string {
	clean := true
	for _, r := range s {
		if r == utf8.RuneError || !strconv.IsPrint(r) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n <= 1:
			b.WriteString(`\x` + strconv.FormatUint(uint64(s[i])|0x100, 16)[1:])
		case strconv.IsPrint(r):
			b.WriteString(s[i : i+n])
		default:
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
		}
		i += n
	}
	return b.String()
}

// Shorten returns s cut to max runes, the last of them an ellipsis; s
// itself when it is no longer than max, or max is 0 or less.
func Shorten(s string, max int) string {
	if max <= 0 || len(s) <= max || utf8.RuneCountInString(s) <= max {
		return s
	}
	n := 0
	for i := range s {
		if n == max-1 {
			return s[:i] + "…"
		}
		n++
	}
	return s
}
