package delegation

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
)

// Match reports whether name matches the fnmatchcase glob pattern: the whole
// name, case-sensitive, "*" crossing "/".
func Match(pattern, name string) bool {
	if !strings.ContainsAny(pattern, "*?[") {
		return pattern == name
	}
	re, err := compiled(pattern)
	return err == nil && re.MatchString(name)
}

// CheckGlob reports a glob that cannot be used: a class with a reversed
// range such as "[z-a]". Policies are checked when decoded, so that no
// pattern silently matches nothing.
func CheckGlob(pattern string) error {
	_, err := compiled(pattern)
	return err
}

var globCache sync.Map // pattern → *regexp.Regexp; patterns come from policies, so the set is bounded by them

func compiled(pattern string) (*regexp.Regexp, error) {
	if re, ok := globCache.Load(pattern); ok {
		return re.(*regexp.Regexp), nil
	}
	re, err := regexp.Compile(translate(pattern))
	if err != nil {
		return nil, fmt.Errorf("glob %q: %w", pattern, err)
	}
	globCache.Store(pattern, re)
	return re, nil
}

// translate turns an fnmatch glob into an anchored regular expression, as
// Python's fnmatch.translate does: "*" is any run, "?" any one character,
// "[...]" a class ("!" first negates it, "]" first is literal), and a "["
// with no closing "]" is a literal bracket. (?s) lets "*" and "?" match a
// newline, as fnmatch does.
func translate(pattern string) string {
	var b strings.Builder
	b.WriteString(`(?s)\A`)
	for i := 0; i < len(pattern); {
		c := pattern[i]
		switch c {
		case '*':
			b.WriteString(`.*`)
			for i < len(pattern) && pattern[i] == '*' {
				i++
			}
			continue
		case '?':
			b.WriteString(`.`)
		case '[':
			if class, n, ok := classAt(pattern[i:]); ok {
				b.WriteString(class)
				i += n
				continue
			}
			b.WriteString(`\[`)
		default:
			r, size := decodeRune(pattern[i:])
			b.WriteString(regexp.QuoteMeta(r))
			i += size
			continue
		}
		i++
	}
	b.WriteString(`\z`)
	return b.String()
}

func decodeRune(s string) (string, int) {
	for n := 1; n <= len(s) && n <= 4; n++ {
		if isRuneStart(s, n) {
			return s[:n], n
		}
	}
	return s[:1], 1
}

// isRuneStart reports whether s[:n] is one whole UTF-8 sequence.
func isRuneStart(s string, n int) bool {
	return n == len(s) || s[n]&0xC0 != 0x80
}

// classAt reads the class at the start of s ("[" first): its regular
// expression and its length, or false when the "[" has no closing "]".
func classAt(s string) (string, int, bool) {
	j := 1
	if j < len(s) && s[j] == '!' {
		j++
	}
	if j < len(s) && s[j] == ']' {
		j++
	}
	for j < len(s) && s[j] != ']' {
		j++
	}
	if j >= len(s) {
		return "", 0, false
	}
	body := s[1:j]
	neg := strings.HasPrefix(body, "!")
	if neg {
		body = body[1:]
	}
	var b strings.Builder
	b.WriteByte('[')
	if neg {
		b.WriteByte('^')
	}
	for k := 0; k < len(body); k++ {
		c := body[k]
		switch {
		case c == '-' && k > 0 && k < len(body)-1:
			b.WriteByte('-') // a range, as written
		case c == '\\' || c == ']' || c == '[' || c == '^' || c == '-':
			b.WriteByte('\\')
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte(']')
	if body == "" { // "[!]" or "[]" cannot be here ("]" first is literal), but be safe
		return "", 0, false
	}
	return b.String(), j + 1, true
}

// Within reports whether every name glob c matches is one glob p matches,
// as far as the patterns' shape can prove it (the delegation readings, 4):
// the same string is within; "*" covers everything; a class on either side
// is never proven; a literal is within p when p matches it; a p with one
// "*" and no "?", written A*B, covers c when c begins with A and ends with
// B without the two overlapping; anything else is not proven.
func Within(c, p string) bool {
	switch {
	case c == p:
		return true
	case p == "*":
		return true
	case strings.Contains(c, "[") || strings.Contains(p, "["):
		return false
	case !strings.ContainsAny(c, "*?"):
		return Match(p, c)
	case strings.Count(p, "*") == 1 && !strings.Contains(p, "?"):
		a, b, _ := strings.Cut(p, "*")
		return len(c) >= len(a)+len(b) && strings.HasPrefix(c, a) && strings.HasSuffix(c, b)
	}
	return false
}

// WithinAny reports whether c is within one of ps.
func WithinAny(c string, ps []string) bool {
	for _, p := range ps {
		if Within(c, p) {
			return true
		}
	}
	return false
}
