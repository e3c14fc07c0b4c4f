package compiler

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/tailscale/hujson"
)

// hujsonPos matches the position hujson puts in front of its syntax errors.
var hujsonPos = regexp.MustCompile(`^hujson: line (\d+), column (\d+): (.*)$`)

// parseJSONC parses a JSONC document (comments allowed, trailing commas not,
// as the policy format says: docs/policy.md) into a node tree. Syntax problems are reported in d with
// file, line and column; the tree is nil when the file cannot be used.
func parseJSONC(file string, src []byte, d *diags) *node {
	if !checkBytes(file, src, d) {
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
		d.errorf(pos, CodeSyntax, "%s", msg)
		return nil
	}
	l := newLines(file, src)
	conv := &jsoncConv{src: src, lines: l, d: d}
	// A trailing comma is reported but leaves a whole tree, so decoding goes
	// on and every other problem of the file is reported too; the file still
	// fails closed. value returns nil only when the tree is unusable.
	return conv.value(&v, 0)
}

type jsoncConv struct {
	src   []byte
	lines *lines
	d     *diags
}

func (c *jsoncConv) value(v *hujson.Value, depth int) *node {
	pos := c.lines.pos(v.StartOffset)
	if depth > maxDepth {
		c.d.errorf(pos, CodeTooDeep, "nesting deeper than %d levels", maxDepth)
		return nil
	}
	switch t := v.Value.(type) {
	case hujson.Literal:
		return c.literal(t, pos)
	case *hujson.Object:
		n := &node{kind: kindObject, pos: pos}
		if k := len(t.Members); k > 0 {
			c.trailingComma(&t.Members[k-1].Value)
		}
		n.members = make([]member, 0, len(t.Members))
		for i := range t.Members {
			m := &t.Members[i]
			keyPos := c.lines.pos(m.Name.StartOffset)
			key := jsonString(m.Name.Value.(hujson.Literal))
			val := c.value(&m.Value, depth+1)
			n.members = append(n.members, member{key: key, keyPos: keyPos, val: val})
			if val == nil {
				dedupe(n.members, c.d) // the duplicates up to here are still reported
				return nil
			}
		}
		n.members = dedupe(n.members, c.d)
		return n
	case *hujson.Array:
		n := &node{kind: kindArray, pos: pos}
		if k := len(t.Elements); k > 0 {
			c.trailingComma(&t.Elements[k-1])
		}
		for i := range t.Elements {
			e := c.value(&t.Elements[i], depth+1)
			if e == nil {
				return nil
			}
			n.elems = append(n.elems, e)
		}
		return n
	}
	c.d.errorf(pos, CodeSyntax, "unexpected value")
	return nil
}

// trailingComma reports a comma after the last member or element: hujson
// accepts it, the policy format does not ("Trailing commas are not supported").
func (c *jsoncConv) trailingComma(last *hujson.Value) {
	if last.AfterExtra == nil {
		return
	}
	off := last.EndOffset + len(last.AfterExtra)
	c.d.errorf(c.lines.pos(off), CodeTrailingComma, "trailing comma is not supported")
}

func (c *jsoncConv) literal(lit hujson.Literal, pos Pos) *node {
	switch lit.Kind() {
	case 'n':
		return &node{kind: kindNull, pos: pos}
	case 't', 'f':
		return &node{kind: kindBool, pos: pos, boolean: lit.Bool()}
	case '"':
		return &node{kind: kindString, pos: pos, str: jsonString(lit)}
	case '0':
		f, err := strconv.ParseFloat(string(lit), 64)
		if err != nil {
			c.d.errorf(pos, CodeSyntax, "invalid number %s", lit)
			return nil
		}
		return &node{kind: kindNumber, pos: pos, num: f}
	}
	c.d.errorf(pos, CodeSyntax, "invalid literal %s", fmt.Sprint(lit))
	return nil
}

// dedupe keeps the last occurrence of each key where it stands, so that the
// later value wins (R12) and declaration order follows the file, and warns
// of every repeated key with the position of the occurrence before it.
// Duplicates are found by sorting the members' indexes by key, which for a
// map of ten thousand patterns costs a small fraction of a map's memory.
func dedupe(ms []member, d *diags) []member {
	if len(ms) < 2 {
		return ms
	}
	order := make([]int32, len(ms))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortStableFunc(order, func(a, b int32) int { return strings.Compare(ms[a].key, ms[b].key) })
	var drop []bool
	for k := 1; k < len(order); k++ {
		prev, cur := &ms[order[k-1]], &ms[order[k]]
		if prev.key != cur.key {
			continue
		}
		d.warnf(cur.keyPos, CodeDuplicateKey, "duplicate key %q (first at %s); the later value wins", cur.key, prev.keyPos)
		if drop == nil {
			drop = make([]bool, len(ms))
		}
		drop[order[k-1]] = true
	}
	if drop == nil {
		return ms
	}
	out := make([]member, 0, len(ms))
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
