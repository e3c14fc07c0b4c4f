package attack

import (
	"os"
	"strconv"
	"strings"
)

// splitCall splits an strace record "name(arg, arg, …) = ret" into its
// name, its top-level arguments (strings, arrays, structures and -y
// decorations kept whole) and its return text.
func splitCall(s string) (name string, args []string, ret string, ok bool) {
	open := strings.IndexByte(s, '(')
	if open <= 0 {
		return "", nil, "", false
	}
	name = s[:open]
	depth, start := 0, open+1
	inString := false
	for i := open + 1; i < len(s); i++ {
		c := s[i]
		if inString {
			switch c {
			case '\\':
				i++
			case '"':
				inString = false
			}
			continue
		}
		switch c {
		case '"':
			inString = true
		case '(', '[', '{', '<':
			depth++
		case ']', '}', '>':
			depth--
		case ',':
			if depth == 0 {
				args = append(args, strings.TrimSpace(s[start:i]))
				start = i + 1
			}
		case ')':
			if depth > 0 {
				depth--
				continue
			}
			if a := strings.TrimSpace(s[start:i]); a != "" || len(args) > 0 {
				args = append(args, a)
			}
			r, found := strings.CutPrefix(strings.TrimSpace(s[i+1:]), "= ")
			return name, args, r, found
		}
	}
	return "", nil, "", false
}

// parseReturn splits "3</path>" into "3" and "/path"; failed is a
// negative return ("-1 ENOENT (…)") or an unknown one ("?").
func parseReturn(ret string) (val, deco string, failed bool) {
	if ret == "" || ret[0] == '-' || ret[0] == '?' {
		return "", "", true
	}
	val, _, _ = strings.Cut(ret, " ")
	if i := strings.IndexByte(val, '<'); i >= 0 {
		return val[:i], decoration(ret), false
	}
	return val, "", false
}

// decoration is the path strace -y prints after a descriptor
// (AT_FDCWD</dir>, 3</file>), unescaped; "" when there is none or it is
// no path (pipe:[…], socket:[…]).
func decoration(s string) string {
	i, j := strings.IndexByte(s, '<'), strings.LastIndexByte(s, '>')
	if i < 0 || j <= i {
		return ""
	}
	d := unescape(s[i+1 : j])
	if !strings.HasPrefix(d, "/") {
		return ""
	}
	return d
}

// unquote reads a quoted strace string ("…", possibly followed by "..."
// when truncated); a bare word is returned as it is.
func unquote(s string) string {
	s = strings.TrimSuffix(s, "...")
	if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' {
		return unescape(s[1 : len(s)-1])
	}
	return s
}

// unquoteList reads ["a", "b"].
func unquoteList(s string) []string {
	s = strings.TrimSpace(s)
	if len(s) < 2 || s[0] != '[' || s[len(s)-1] != ']' {
		return nil
	}
	_, items, _, ok := splitCall("x(" + s[1:len(s)-1] + ") = 0")
	if !ok {
		return nil
	}
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = unquote(it)
	}
	return out
}

// unescape undoes strace's C escapes: \n \t \v \f \r \" \\ \xHH and octal.
func unescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 == len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch e := s[i]; {
		case e == 'n':
			b.WriteByte('\n')
		case e == 't':
			b.WriteByte('\t')
		case e == 'v':
			b.WriteByte('\v')
		case e == 'f':
			b.WriteByte('\f')
		case e == 'r':
			b.WriteByte('\r')
		case e == 'x' && i+2 < len(s):
			if v, err := strconv.ParseUint(s[i+1:i+3], 16, 8); err == nil {
				b.WriteByte(byte(v))
				i += 2
			} else {
				b.WriteByte(e)
			}
		case e >= '0' && e <= '7':
			j := i
			for j < len(s) && j < i+3 && s[j] >= '0' && s[j] <= '7' {
				j++
			}
			v, _ := strconv.ParseUint(s[i:j], 8, 8)
			b.WriteByte(byte(v))
			i = j - 1
		default:
			b.WriteByte(e)
		}
	}
	return b.String()
}

// Physical resolves an absolute path as the kernel does, component by
// component on the host's file system: a link is replaced by its target
// before the next component is read, so "a/link/.." is the parent of the
// link's target. A missing component is kept as written; after 40 links
// the path is returned as reached.
func Physical(p string) string {
	parts := strings.Split(p, "/")
	cur := "/"
	links := 0
	for i := 0; i < len(parts); i++ {
		switch c := parts[i]; c {
		case "", ".":
			continue
		case "..":
			cur = parentDir(cur)
			continue
		default:
			next := strings.TrimSuffix(cur, "/") + "/" + c
			fi, err := os.Lstat(next)
			if err != nil || fi.Mode()&os.ModeSymlink == 0 || links >= 40 {
				cur = next
				continue
			}
			target, err := os.Readlink(next)
			if err != nil {
				cur = next
				continue
			}
			links++
			if strings.HasPrefix(target, "/") {
				cur = "/"
			}
			parts = append(strings.Split(target, "/"), parts[i+1:]...)
			i = -1
		}
	}
	return cur
}

func parentDir(p string) string {
	if i := strings.LastIndexByte(p, '/'); i > 0 {
		return p[:i]
	}
	return "/"
}
