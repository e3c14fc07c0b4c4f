package matchkey

import (
	"strings"
	"unicode/utf8"
)

// Class is how the values of a surface are cut into keys.
type Class int

const (
	// Words: bash units, cut at spaces.
	Words Class = iota
	// Path: paths and every other tool surface, cut at "/" and ".".
	Path
	// Target: mcp targets ("server:tool"), cut after ":".
	Target
	// Name: skill names, never cut.
	Name
)

// Limits on the boundaries that become keys, so that a long command or a
// deep path costs a bounded number of lookups. A pattern whose literal part
// reaches past them is filed at the last boundary within them and confirmed.
const (
	MaxWords   = 4
	MaxDirs    = 12
	MaxTargets = 2
)

// ClassOf is the class of a surface's values.
func ClassOf(surface string) Class {
	switch surface {
	case "bash":
		return Words
	case "mcp":
		return Target
	case "skill":
		return Name
	}
	return Path
}

// The separator a class cuts prefixes after, and how many of them count.
func (c Class) cut() (sep byte, limit int) {
	switch c {
	case Words:
		return ' ', MaxWords
	case Path:
		return '/', MaxDirs
	case Target:
		return ':', MaxTargets
	}
	return 0, 0
}

// Keys appends the candidate keys of value v of class c to dst and returns
// the extended slice. Keys may repeat across the values of one group;
// AppendGroup removes the repeats.
func Keys(dst []string, c Class, v string) []string {
	// Every key is a part of one string, "=" v "<" v, ">" and each suffix,
	// "|" and each infix, "^" and the first character, so that a value's
	// keys cost one allocation: a prefix key is a prefix of "<" v.
	var room, infixRoom [8]int
	suffixes := room[:0]     // where each suffix key starts in v
	infixes := infixRoom[:0] // where each ".W." starts in v, W its dots' segment
	if c == Path {
		b := strings.LastIndexByte(v, '/')
		if b >= 0 {
			suffixes = append(suffixes, b)
		}
		if b+1 < len(v) {
			suffixes = append(suffixes, b+1)
		}
		for i := b + 2; i < len(v); i++ {
			if v[i] == '.' {
				suffixes = append(suffixes, i)
			}
		}
		infixes = appendInfixes(infixes, v, '.')
		infixes = appendInfixes(infixes, v, '/')
	}
	_, first := utf8.DecodeRuneInString(v) // the first character's width
	size := 2 + 2*len(v) + 1 + first
	for _, at := range suffixes {
		size += 1 + len(v) - at
	}
	for _, at := range infixes {
		size += 2 + infixLen(v, at)
	}
	var buf strings.Builder
	buf.Grow(size)
	buf.WriteByte('=')
	buf.WriteString(v)
	buf.WriteByte('<')
	buf.WriteString(v)
	for _, at := range suffixes {
		buf.WriteByte('>')
		buf.WriteString(v[at:])
	}
	for _, at := range infixes {
		buf.WriteByte('|')
		buf.WriteString(v[at : at+1+infixLen(v, at)])
	}
	if first > 0 {
		buf.WriteByte('^')
		buf.WriteString(v[:first])
	}
	all := buf.String()
	lv := all[1+len(v) : 2+2*len(v)] // "<" v
	dst = append(dst, all[:1+len(v)], "<")
	if first > 0 {
		dst = append(dst, all[len(all)-1-first:])
	}
	sep, limit := c.cut()
	for i, n := 0, 0; i < len(v) && n < limit; i++ {
		if v[i] == sep {
			n++
			dst = append(dst, lv[:i+2])
		}
	}
	off := 2 + 2*len(v)
	for _, at := range suffixes {
		n := 1 + len(v) - at
		dst = append(dst, all[off:off+n])
		off += n
	}
	for _, at := range infixes {
		n := 2 + infixLen(v, at)
		dst = append(dst, all[off:off+n])
		off += n
	}
	return dst
}

// appendInfixes appends where each infix sep W sep of path v starts: W
// non-empty and free of "/": a segment between two dots with no "." in
// it, or a folder name between two slashes.
func appendInfixes(dst []int, v string, sep byte) []int {
	stops := "./"
	if sep == '/' {
		stops = "/"
	}
	for i := strings.IndexByte(v, sep); i >= 0; {
		n := strings.IndexAny(v[i+1:], stops)
		if n < 0 {
			break
		}
		if v[i+1+n] == sep && n > 0 {
			dst = append(dst, i)
		}
		next := strings.IndexByte(v[i+1:], sep)
		if next < 0 {
			break
		}
		i += 1 + next
	}
	return dst
}

// infixLen is the length of the infix of path v that starts at the
// separator at: W runs to the next separator of its kind.
func infixLen(v string, at int) int {
	return 1 + strings.IndexByte(v[at+1:], v[at])
}

// AppendGroup appends the keys of every value of a spelling group, each
// once, in the order first seen.
func AppendGroup(dst []string, c Class, group []string) []string {
	start := len(dst)
	for _, v := range group {
		before := len(dst)
		dst = Keys(dst, c, v)
		// Drop the keys an earlier value of the group already gave.
		kept := before
		for _, k := range dst[before:] {
			if !contains(dst[start:kept], k) {
				dst[kept] = k
				kept++
			}
		}
		dst = dst[:kept]
	}
	return dst
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// Op is what is left to confirm of a pattern filed under a key.
type Op string

const (
	// Sure: the key holds exactly when the pattern matches.
	Sure Op = ""
	// Prefix, Suffix, Glob: the value must also start with, end with or
	// match (glob.match, no delimiters) the entry's argument.
	Prefix Op = "^"
	Suffix Op = "$"
	Glob   Op = "*"
)

// Entry is where one pattern is filed: its key, and what a value with the
// key must still satisfy.
type Entry struct {
	Key string
	Op  Op
	Arg string
}

// Align files a pattern of class c, with runs of "*" collapsed, under the
// key every value it matches has. glob is the pattern in the syntax of OPA's
// glob.match, for a pattern that is neither exact, a prefix nor a suffix.
func Align(c Class, pattern, glob string) Entry {
	first := strings.IndexAny(pattern, "*?")
	if first < 0 {
		return Entry{Key: "=" + pattern}
	}
	if c == Path {
		if w, ok := infixOnly(pattern); ok {
			return Entry{Key: "|." + w + "."}
		}
		if key, sure := folderInfix(pattern); key != "" {
			if sure {
				return Entry{Key: key}
			}
			return Entry{Key: key, Op: Glob, Arg: glob}
		}
	}
	lit := pattern[:first]
	prefixOnly := pattern[first] == '*' && first == len(pattern)-1
	if prefixOnly && lit == "" {
		return Entry{Key: "<"} // the catch-all
	}
	op, arg := Glob, glob
	if prefixOnly {
		op, arg = Prefix, lit
	}
	key, exact := alignPrefix(c, lit)
	if exact && prefixOnly {
		return Entry{Key: key}
	}
	// No boundary in the literal prefix: its first character, so that only
	// the values that start with it confirm the pattern.
	initial := ""
	if r, n := utf8.DecodeRuneInString(lit); n > 0 && r != utf8.RuneError {
		initial = "^" + lit[:n]
	}
	suffixOnly := first == 0 && pattern[0] == '*' && !strings.ContainsAny(pattern[1:], "*?")
	if key == "<" && c == Path {
		// No boundary in the literal prefix: a path may still have one in
		// its literal suffix.
		tail := pattern[strings.LastIndexAny(pattern, "*?")+1:]
		if k, whole := alignSuffix(tail); k != "" {
			if suffixOnly {
				if whole {
					return Entry{Key: k}
				}
				return Entry{Key: k, Op: Suffix, Arg: tail}
			}
			return Entry{Key: k, Op: Glob, Arg: glob}
		}
	}
	if suffixOnly {
		op, arg = Suffix, pattern[1:]
	}
	if key == "<" && initial != "" {
		if prefixOnly && len(initial) == len(lit)+1 {
			return Entry{Key: initial}
		}
		key = initial
	}
	return Entry{Key: key, Op: op, Arg: arg}
}

// infixOnly reports whether a path pattern is "*.W.*" with W free of
// ".", "/" and wildcards: the values that hold ".W." anywhere, which are
// exactly those with the infix key "|.W.".
func infixOnly(pattern string) (string, bool) {
	w, ok := strings.CutPrefix(pattern, "*.")
	if !ok {
		return "", false
	}
	w, ok = strings.CutSuffix(w, ".*")
	if !ok || w == "" || strings.ContainsAny(w, "./*?") {
		return "", false
	}
	return w, true
}

// folderInfix is the infix key "|/W/" of a path pattern "*/W/…": every
// value it matches holds the folder name W between two slashes (W free of
// "/" and wildcards). sure: the pattern is "*/W/*", exactly those values.
func folderInfix(pattern string) (key string, sure bool) {
	rest, ok := strings.CutPrefix(pattern, "*/")
	if !ok {
		return "", false
	}
	end := strings.IndexByte(rest, '/')
	if end <= 0 || strings.ContainsAny(rest[:end], "*?") {
		return "", false
	}
	return "|/" + rest[:end+1], rest[end+1:] == "*"
}

// alignPrefix is the longest boundary prefix of lit that every value
// starting with lit has as a key, and whether it is the whole of lit.
func alignPrefix(c Class, lit string) (string, bool) {
	sep, limit := c.cut()
	end := 0
	for i, n := 0, 0; i < len(lit) && n < limit; i++ {
		if lit[i] == sep {
			n++
			end = i + 1
		}
	}
	return "<" + lit[:end], end == len(lit)
}

// alignSuffix is the suffix key of a path every value ending with tail has:
// from the last "/" of tail, else from its first ".", else none; and
// whether it is the whole of tail.
func alignSuffix(tail string) (string, bool) {
	if b := strings.LastIndexByte(tail, '/'); b >= 0 {
		return ">" + tail[b:], b == 0
	}
	if d := strings.IndexByte(tail, '.'); d >= 0 {
		return ">" + tail[d:], d == 0
	}
	return "", false
}
