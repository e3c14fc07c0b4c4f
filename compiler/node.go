package compiler

import (
	"bytes"
	"sort"
	"unicode/utf8"
)

// MaxFileSize bounds every rule file. A larger file is refused as a whole
// (and its layer fails closed) rather than half-read.
const MaxFileSize = 4 << 20

// MaxRules bounds the rules of one permission map (all surfaces), and
// MaxPatternLength one pattern, in bytes. Past either, the file has an
// error and its layer fails closed. Both are far above any policy written
// by hand: the benchmarks compile 10,000 rules.
const (
	MaxRules         = 100_000
	MaxPatternLength = 4096
)

// maxDepth bounds the nesting of a rule document; policy documents are at
// most four levels deep, so anything past this is not a policy.
const maxDepth = 64

// kind is the type of a decoded value, shared by JSONC and YAML input.
type kind int

const (
	kindNull kind = iota
	kindBool
	kindNumber
	kindString
	kindObject
	kindArray
)

func (k kind) String() string {
	return [...]string{"null", "boolean", "number", "string", "object", "array"}[k]
}

// node is one decoded value with the position where it starts. JSONC and YAML
// both decode into nodes so that one set of decoders, and one set of
// diagnostics, serves policy files and agent frontmatter alike.
type node struct {
	kind    kind
	pos     Pos
	str     string
	num     float64
	boolean bool
	members []member
	elems   []*node
}

type member struct {
	key    string
	keyPos Pos
	val    *node
}

// lines maps byte offsets of one source to line and column.
type lines struct {
	file   string
	starts []int
}

func newLines(file string, src []byte) *lines {
	l := &lines{file: file, starts: []int{0}}
	for i, c := range src {
		if c == '\n' {
			l.starts = append(l.starts, i+1)
		}
	}
	return l
}

func (l *lines) pos(off int) Pos {
	i := sort.Search(len(l.starts), func(i int) bool { return l.starts[i] > off }) - 1
	if i < 0 {
		i = 0
	}
	return Pos{File: l.file, Line: i + 1, Col: off - l.starts[i] + 1}
}

// checkBytes applies the checks every rule file gets before parsing: size,
// emptiness and UTF-8. It reports false when the file cannot be parsed.
func checkBytes(file string, src []byte, d *diags) bool {
	start := Pos{File: file, Line: 1, Col: 1}
	if len(src) > MaxFileSize {
		d.errorf(start, CodeTooLarge, "file is %d bytes; the limit is %d bytes", len(src), MaxFileSize)
		return false
	}
	if len(bytes.TrimSpace(src)) == 0 {
		d.errorf(start, CodeEmptyFile, "file is empty")
		return false
	}
	if !utf8.Valid(src) {
		off := 0
		for off < len(src) {
			r, n := utf8.DecodeRune(src[off:])
			if r == utf8.RuneError && n == 1 {
				break
			}
			off += n
		}
		d.errorf(newLines(file, src).pos(off), CodeInvalidUTF8, "invalid UTF-8 byte 0x%02x", src[off])
		return false
	}
	return true
}

// get returns the member value for key, or nil.
func (n *node) get(key string) *node {
	for i := range n.members {
		if n.members[i].key == key {
			return n.members[i].val
		}
	}
	return nil
}
