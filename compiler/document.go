package compiler

import (
	"github.com/tailscale/hujson"

	"github.com/regate/regate/compiler/internal/ruledoc"
)

// A Document is a parsed JSONC file for a rule set that decodes its own
// fields: the hujson tree, and positions for its offsets. It gets the
// checks every rule file gets (size, emptiness, UTF-8) and positioned
// syntax errors.
type Document struct {
	Root  hujson.Value
	lines *ruledoc.Lines
}

// ParseDocument parses src, a JSONC document named file.
func ParseDocument(file string, src []byte) (*Document, Errors) {
	var d diags
	if !ruledoc.CheckBytes(file, src, &d) {
		return nil, d.List
	}
	v, err := hujson.Parse(src)
	if err != nil {
		// The shared parser words and positions the syntax error.
		ruledoc.Parse(file, src, ruledoc.Options{Dialect: ruledoc.JSONC}, &d)
		return nil, d.List
	}
	return &Document{Root: v, lines: ruledoc.NewLines(file, src)}, nil
}

// Pos is the position of a byte offset of the document.
func (d *Document) Pos(offset int) Pos { return d.lines.Pos(offset) }
