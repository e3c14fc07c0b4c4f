package ruledoc

import (
	"bytes"
	"sort"
	"unicode/utf8"
)

// MaxFileSize bounds every rule file. A larger file is refused as a whole
// (and its layer fails closed) rather than half-read.
const MaxFileSize = 4 << 20

// MaxDepth bounds the nesting of a rule document; no rule file is more
// than a handful of levels deep, so anything past this is not a rule file.
const MaxDepth = 64

// Lines maps byte offsets of one source to positions.
type Lines struct {
	file   string
	starts []int
}

// NewLines indexes the lines of src, the content of file.
func NewLines(file string, src []byte) *Lines {
	l := &Lines{file: file, starts: []int{0}}
	for i, c := range src {
		if c == '\n' {
			l.starts = append(l.starts, i+1)
		}
	}
	return l
}

// Pos is the position of byte offset off.
func (l *Lines) Pos(off int) Pos {
	i := sort.Search(len(l.starts), func(i int) bool { return l.starts[i] > off }) - 1
	if i < 0 {
		i = 0
	}
	return Pos{File: l.file, Line: i + 1, Col: off - l.starts[i] + 1}
}

// CheckBytes applies the checks every rule file gets before parsing: size,
// emptiness and UTF-8. It reports false when the file cannot be parsed.
func CheckBytes(file string, src []byte, d *Diags) bool {
	start := Pos{File: file, Line: 1, Col: 1}
	if len(src) > MaxFileSize {
		d.Errorf(start, CodeTooLarge, "file is %d bytes; the limit is %d bytes", len(src), MaxFileSize)
		return false
	}
	if len(bytes.TrimSpace(src)) == 0 {
		d.Errorf(start, CodeEmptyFile, "file is empty")
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
		d.Errorf(NewLines(file, src).Pos(off), CodeInvalidUTF8, "invalid UTF-8 byte 0x%02x", src[off])
		return false
	}
	return true
}
