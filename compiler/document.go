package compiler

import (
	"strconv"

	"github.com/tailscale/hujson"
)

// A Document is a parsed JSONC file for a rule set that decodes its own
// fields (compiler/delegation): the hujson tree, and positions for its
// offsets. It gets the checks every rule file gets (size, emptiness,
// UTF-8) and positioned syntax errors.
type Document struct {
	Root  hujson.Value
	lines *lines
}

// ParseDocument parses src, a JSONC document named file.
func ParseDocument(file string, src []byte) (*Document, Errors) {
	var d diags
	if !checkBytes(file, src, &d) {
		return nil, d.list
	}
	v, err := hujson.Parse(src)
	if err != nil {
		pos := Pos{File: file, Line: 1, Col: 1}
		msg := err.Error()
		if m := hujsonPos.FindStringSubmatch(msg); m != nil {
			pos.Line, _ = strconv.Atoi(m[1])
			pos.Col, _ = strconv.Atoi(m[2])
			msg = m[3]
		}
		return nil, Errors{{Pos: pos, Code: CodeSyntax, Msg: msg, Severity: SeverityError}}
	}
	return &Document{Root: v, lines: newLines(file, src)}, nil
}

// Pos is the position of a byte offset of the document.
func (d *Document) Pos(offset int) Pos { return d.lines.pos(offset) }
