package ruledoc

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/tailscale/hujson"
)

// Dialect is what a rule file may hold beyond standard JSON.
type Dialect int

const (
	// JSONC allows comments, not trailing commas: the permission rule
	// files and delegation files (docs/policy.md). A trailing comma is an
	// error, but the tree is still built, so every other problem of the
	// file is reported too.
	JSONC Dialect = iota
	// JSON is standard JSON: a comment or a trailing comma makes the file
	// unusable, as in the upstream extension whose profile config files
	// these are.
	JSON
)

// Options say how Parse reads a document.
type Options struct {
	Dialect Dialect
	// KeepDuplicates keeps every member of an object in file order,
	// repeated keys included, without a word, for a decoder that gives
	// repeats a meaning of its own (JSON.parse's, say). Otherwise a
	// repeated key is warned of (CodeDuplicateKey) and only its last
	// occurrence is kept, where it stands: the later value wins.
	KeepDuplicates bool
	// KeepHugeNumbers keeps a number past float64's range (1e400) with
	// Num ±Inf and Str as written, for a decoder that reads numbers as
	// written (json.Number) or as JavaScript does (Infinity). Otherwise
	// such a number is a syntax error: no permission file means one.
	KeepHugeNumbers bool
}

// hujsonPos matches the position hujson puts in front of its syntax errors.
var hujsonPos = regexp.MustCompile(`^hujson: line (\d+), column (\d+): (.*)$`)

// Parse parses src, the content of file, into a node tree. Every problem
// is reported in d, positioned; the tree is nil when the file cannot be
// used.
func Parse(file string, src []byte, opts Options, d *Diags) *Node {
	if !CheckBytes(file, src, d) {
		return nil
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
		d.Errorf(pos, CodeSyntax, "%s", msg)
		return nil
	}
	l := NewLines(file, src)
	if opts.Dialect == JSON && !v.IsStandard() {
		d.Errorf(l.Pos(v.StartOffset), CodeSyntax, "%s is not JSON: comments and trailing commas are not allowed", file)
		return nil
	}
	c := &jsonConv{lines: l, d: d, opts: opts}
	// value returns nil only when the tree is unusable.
	return c.value(&v, 0)
}

type jsonConv struct {
	lines *Lines
	d     *Diags
	opts  Options
}

func (c *jsonConv) value(v *hujson.Value, depth int) *Node {
	pos := c.lines.Pos(v.StartOffset)
	if depth > MaxDepth {
		c.d.Errorf(pos, CodeTooDeep, "nesting deeper than %d levels", MaxDepth)
		return nil
	}
	switch t := v.Value.(type) {
	case hujson.Literal:
		return c.literal(t, pos, v)
	case *hujson.Object:
		n := &Node{Kind: Object, Pos: pos, raw: v}
		if k := len(t.Members); k > 0 {
			c.trailingComma(&t.Members[k-1].Value)
		}
		n.Members = make([]Member, 0, len(t.Members))
		for i := range t.Members {
			m := &t.Members[i]
			keyPos := c.lines.Pos(m.Name.StartOffset)
			key := jsonString(m.Name.Value.(hujson.Literal))
			val := c.value(&m.Value, depth+1)
			n.Members = append(n.Members, Member{Key: key, KeyPos: keyPos, Val: val})
			if val == nil {
				c.dedupe(n.Members) // the duplicates up to here are still reported
				return nil
			}
		}
		n.Members = c.dedupe(n.Members)
		return n
	case *hujson.Array:
		n := &Node{Kind: Array, Pos: pos, raw: v}
		if k := len(t.Elements); k > 0 {
			c.trailingComma(&t.Elements[k-1])
		}
		for i := range t.Elements {
			e := c.value(&t.Elements[i], depth+1)
			if e == nil {
				return nil
			}
			n.Elems = append(n.Elems, e)
		}
		return n
	}
	c.d.Errorf(pos, CodeSyntax, "unexpected value")
	return nil
}

// trailingComma reports a comma after the last member or element in the
// JSONC dialect: hujson accepts it, the policy format does not ("Trailing
// commas are not supported").
func (c *jsonConv) trailingComma(last *hujson.Value) {
	if c.opts.Dialect != JSONC || last.AfterExtra == nil {
		return
	}
	off := last.EndOffset + len(last.AfterExtra)
	c.d.Errorf(c.lines.Pos(off), CodeTrailingComma, "trailing comma is not supported")
}

func (c *jsonConv) literal(lit hujson.Literal, pos Pos, v *hujson.Value) *Node {
	switch lit.Kind() {
	case 'n':
		return &Node{Kind: Null, Pos: pos, raw: v}
	case 't', 'f':
		return &Node{Kind: Bool, Pos: pos, Bool: lit.Bool(), raw: v}
	case '"':
		return &Node{Kind: String, Pos: pos, Str: jsonString(lit), raw: v}
	case '0':
		f, err := strconv.ParseFloat(string(lit), 64)
		if err != nil && !(c.opts.KeepHugeNumbers && errors.Is(err, strconv.ErrRange)) {
			c.d.Errorf(pos, CodeSyntax, "invalid number %s", lit)
			return nil
		}
		return &Node{Kind: Number, Pos: pos, Num: f, Str: string(lit), raw: v}
	}
	c.d.Errorf(pos, CodeSyntax, "invalid literal %s", fmt.Sprint(lit))
	return nil
}

func (c *jsonConv) dedupe(ms []Member) []Member {
	if c.opts.KeepDuplicates {
		return ms
	}
	return dedupe(ms, c.d)
}

// dedupe keeps the last occurrence of each key where it stands, so that the
// later value wins (R12) and declaration order follows the file, and warns
// of every repeated key with the position of the occurrence before it.
// Duplicates are found by sorting the members' indexes by key, which for a
// map of ten thousand patterns costs a small fraction of a map's memory.
func dedupe(ms []Member, d *Diags) []Member {
	if len(ms) < 2 {
		return ms
	}
	order := make([]int32, len(ms))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortStableFunc(order, func(a, b int32) int { return strings.Compare(ms[a].Key, ms[b].Key) })
	var drop []bool
	for k := 1; k < len(order); k++ {
		prev, cur := &ms[order[k-1]], &ms[order[k]]
		if prev.Key != cur.Key {
			continue
		}
		d.Warnf(cur.KeyPos, CodeDuplicateKey, "duplicate key %q (first at %s); the later value wins", cur.Key, prev.KeyPos)
		if drop == nil {
			drop = make([]bool, len(ms))
		}
		drop[order[k-1]] = true
	}
	if drop == nil {
		return ms
	}
	out := make([]Member, 0, len(ms))
	for i, m := range ms {
		if !drop[i] {
			out = append(out, m)
		}
	}
	return out
}

// jsonString is the value of a JSON string literal. hujson decodes every
// string with encoding/json; a string with no escape is its bytes between
// the quotes (the file was checked to be valid UTF-8), which spares a policy
// of thousands of patterns thousands of decodes.
func jsonString(lit hujson.Literal) string {
	if len(lit) >= 2 && !bytes.ContainsAny(lit[1:len(lit)-1], "\\\"") {
		return string(lit[1 : len(lit)-1])
	}
	return lit.String()
}
