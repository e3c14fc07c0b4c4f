package ruledoc

import (
	"bytes"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// ParseYAML parses body, YAML that starts at line startLine of file (agent
// frontmatter), into a node tree. The grammar is minimal: scalars, maps
// and lists. Anchors and aliases are refused, since a file that means
// something other than it shows must not load. It reports false when the
// document cannot be used, and a nil tree for an empty document.
func ParseYAML(file string, body []byte, startLine int, d *Diags) (*Node, bool) {
	var doc yaml.Node
	if err := yaml.Unmarshal(body, &doc); err != nil {
		line, msg := yamlErrorLine(err)
		d.Errorf(Pos{File: file, Line: clampLine(startLine+line-1, startLine, body), Col: 1}, CodeFrontmatter, "%s", msg)
		return nil, false
	}
	if len(doc.Content) == 0 {
		return nil, true
	}
	conv := yamlConv{file: file, lineOffset: startLine - 1, lastLine: clampLine(1<<30, startLine, body), d: d}
	n := conv.value(doc.Content[0], 0)
	return n, n != nil
}

// yamlErrorLine pulls the line out of a yaml.v3 error ("yaml: line 3: …").
func yamlErrorLine(err error) (int, string) {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	if rest, ok := strings.CutPrefix(msg, "line "); ok {
		num, tail, _ := strings.Cut(rest, ":")
		if n, err := strconv.Atoi(num); err == nil {
			return n, strings.TrimSpace(tail)
		}
	}
	return 1, msg
}

type yamlConv struct {
	file       string
	lineOffset int
	lastLine   int
	d          *Diags
}

func (c yamlConv) pos(n *yaml.Node) Pos {
	return Pos{File: c.file, Line: min(n.Line+c.lineOffset, c.lastLine), Col: max(n.Column, 1)}
}

// clampLine keeps a YAML line inside the body: YAML also breaks lines at a
// lone \r, which the file's line count (by \n) does not.
func clampLine(line, startLine int, body []byte) int {
	last := startLine + bytes.Count(body, []byte("\n"))
	return max(startLine, min(line, last))
}

func (c yamlConv) value(y *yaml.Node, depth int) *Node {
	pos := c.pos(y)
	if depth > MaxDepth {
		c.d.Errorf(pos, CodeTooDeep, "nesting deeper than %d levels", MaxDepth)
		return nil
	}
	if y.Anchor != "" || y.Kind == yaml.AliasNode {
		c.d.Errorf(pos, CodeFrontmatter, "YAML anchors and aliases are not supported in agent frontmatter")
		return nil
	}
	switch y.Kind {
	case yaml.MappingNode:
		n := &Node{Kind: Object, Pos: pos}
		n.Members = make([]Member, 0, len(y.Content)/2)
		for i := 0; i+1 < len(y.Content); i += 2 {
			k, v := y.Content[i], y.Content[i+1]
			if k.Kind != yaml.ScalarNode {
				c.d.Errorf(c.pos(k), CodeFrontmatter, "map keys must be plain scalars")
				dedupe(n.Members, c.d)
				return nil
			}
			val := c.value(v, depth+1)
			n.Members = append(n.Members, Member{Key: k.Value, KeyPos: c.pos(k), Val: val})
			if val == nil {
				dedupe(n.Members, c.d)
				return nil
			}
		}
		n.Members = dedupe(n.Members, c.d)
		return n
	case yaml.SequenceNode:
		n := &Node{Kind: Array, Pos: pos}
		for _, e := range y.Content {
			v := c.value(e, depth+1)
			if v == nil {
				return nil
			}
			n.Elems = append(n.Elems, v)
		}
		return n
	case yaml.ScalarNode:
		switch y.ShortTag() {
		case "!!null":
			return &Node{Kind: Null, Pos: pos}
		case "!!bool":
			b, _ := strconv.ParseBool(strings.ToLower(y.Value))
			return &Node{Kind: Bool, Pos: pos, Bool: b}
		case "!!int", "!!float":
			f, err := strconv.ParseFloat(y.Value, 64)
			if err != nil {
				return &Node{Kind: String, Pos: pos, Str: y.Value}
			}
			return &Node{Kind: Number, Pos: pos, Num: f, Str: y.Value}
		}
		return &Node{Kind: String, Pos: pos, Str: y.Value}
	}
	c.d.Errorf(pos, CodeFrontmatter, "unsupported YAML construct")
	return nil
}
