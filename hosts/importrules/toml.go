package importrules

import (
	"fmt"
	"strconv"

	"github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"
)

// A tomlValue is one value of a TOML document with where it is written.
type tomlValue struct {
	pos   Pos
	kind  unstable.Kind
	str   string   // a string, or the text of a number or boolean
	strs  []string // an array's strings
	other bool     // an array holding something else than strings
}

// A tomlTable is the keys of one table, by their first segment.
type tomlTable struct {
	pos  Pos
	keys map[string]tomlValue
}

// readTOML reads a TOML document: its top-level keys and the tables of
// each array of tables ([[name]]). The document is first decoded in full,
// so that what go-toml refuses (a duplicate key, a bad value) is an error
// here too; the parser then gives each key its position.
func readTOML(file string, src []byte) (top tomlTable, arrays map[string][]tomlTable, err error) {
	var check map[string]any
	if err := toml.Unmarshal(src, &check); err != nil {
		return top, nil, fmt.Errorf("%s: %w", file, err)
	}
	top = tomlTable{keys: map[string]tomlValue{}}
	arrays = map[string][]tomlTable{}
	cur := &top
	var p unstable.Parser
	p.Reset(src)
	for p.NextExpression() {
		e := p.Expression()
		switch e.Kind {
		case unstable.ArrayTable, unstable.Table:
			key, pos := tomlKey(&p, file, e)
			if e.Kind == unstable.ArrayTable {
				arrays[key] = append(arrays[key], tomlTable{pos: pos, keys: map[string]tomlValue{}})
				list := arrays[key]
				cur = &list[len(list)-1]
			} else {
				// A plain table's keys are kept under its name.
				t := tomlTable{pos: pos, keys: map[string]tomlValue{}}
				cur = &t
				top.keys[key] = tomlValue{pos: pos, kind: unstable.Table}
			}
		case unstable.KeyValue:
			key, pos := tomlKey(&p, file, e)
			cur.keys[key] = tomlRead(&p, file, src, e.Value(), pos)
		}
	}
	if err := p.Error(); err != nil {
		return top, nil, fmt.Errorf("%s: %w", file, err)
	}
	return top, arrays, nil
}

// tomlKey is the first segment of an expression's key and its position.
func tomlKey(p *unstable.Parser, file string, e *unstable.Node) (string, Pos) {
	it := e.Key()
	if !it.Next() {
		return "", Pos{File: file}
	}
	k := it.Node()
	s := p.Shape(k.Raw).Start
	return string(k.Data), Pos{File: file, Line: s.Line, Col: s.Column}
}

// tomlRead reads a value; a value without a position of its own (an
// array, an inline table) takes its key's.
func tomlRead(p *unstable.Parser, file string, src []byte, v *unstable.Node, keyPos Pos) tomlValue {
	out := tomlValue{pos: keyPos, kind: v.Kind}
	if v.Raw.Length > 0 {
		s := p.Shape(v.Raw).Start
		out.pos = Pos{File: file, Line: s.Line, Col: s.Column}
	}
	switch v.Kind {
	case unstable.String, unstable.Integer, unstable.Float, unstable.Bool:
		out.str = string(v.Data)
	case unstable.Array:
		c := v.Children()
		for c.Next() {
			n := c.Node()
			if n.Kind != unstable.String {
				out.other = true
				continue
			}
			out.strs = append(out.strs, string(n.Data))
		}
	}
	return out
}

// strings is a string or an array of strings as a list.
func (v tomlValue) list() ([]string, bool) {
	switch {
	case v.kind == unstable.String:
		return []string{v.str}, true
	case v.kind == unstable.Array && !v.other:
		return v.strs, true
	}
	return nil, false
}

func (v tomlValue) number() (float64, bool) {
	if v.kind != unstable.Integer && v.kind != unstable.Float {
		return 0, false
	}
	f, err := strconv.ParseFloat(v.str, 64)
	return f, err == nil
}
