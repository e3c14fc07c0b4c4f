package profile

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// DisplayName is how a file name appears in a diagnostic: as it is when
// every character is printable, otherwise quoted and escaped the way
// strconv.Quote does it. A name is chosen by whoever writes the folder, so
// a raw newline could fake a line of output and an escape sequence could
// drive the terminal; "a\nb.md" is shown as "\"a\\nb.md\"" instead. A name
// holding a double quote is quoted too, so a quoted name is never one that
// was written to look quoted.
func DisplayName(name string) string {
	if Printable(name) == name && !strings.Contains(name, `"`) {
		return name
	}
	return strconv.Quote(name)
}

// Printable returns s with every character that is not printable (a
// control character such as a newline or ESC, a format character such as
// a bidirectional override, a byte that is not UTF-8) escaped as strconv
// escapes it (\n, \x1b, \u202e), and the rest unchanged. Text that is
// already printable comes back as it is, so Printable can be applied
// twice.
func Printable(s string) string {
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
