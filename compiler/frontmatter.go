package compiler

import (
	"bytes"
	"path/filepath"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// parseAgent reads an agent Markdown file: YAML frontmatter between two
// "---" lines, of which regate uses "name" and "permission"; a key that
// misspells one of them is reported. The agent's name is the file's base
// name, as agent files live at agents/<agent>.md (docs/policy.md, "Agent
// frontmatter"); a "name" key that disagrees is reported.
func parseAgent(file string, src []byte, d *diags) *Agent {
	a := &Agent{Name: agentName(file), Pos: Pos{File: file, Line: 1, Col: 1}}
	if !checkBytes(file, src, d) {
		return nil
	}
	body, startLine, ok := frontmatter(src)
	if !ok {
		if bytes.HasPrefix(bytes.TrimLeft(src, "\ufeff"), []byte("---")) {
			d.errorf(a.Pos, CodeFrontmatter, "frontmatter opened with --- is never closed")
			return nil
		}
		return a // no frontmatter: the agent restricts nothing
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(body, &doc); err != nil {
		line, msg := yamlErrorLine(err)
		d.errorf(Pos{File: file, Line: clampLine(startLine+line-1, startLine, body), Col: 1}, CodeFrontmatter, "%s", msg)
		return nil
	}
	if len(doc.Content) == 0 {
		return a
	}
	conv := yamlConv{file: file, lineOffset: startLine - 1, lastLine: clampLine(1<<30, startLine, body), d: d}
	n := conv.value(doc.Content[0], 0)
	if n == nil || d.failed() {
		return nil
	}
	if !expectKind(n, kindObject, "frontmatter", d) {
		return nil
	}
	for _, m := range n.members {
		switch m.key {
		case "permission":
			a.Permission = decodePermission(m.val, ordinaryRules, d)
		case "name":
			if m.val.kind == kindString && m.val.str != a.Name {
				d.warnf(m.val.pos, CodeUnknownKey, "frontmatter name %q differs from the file name; the agent is %q", m.val.str, a.Name)
			}
		default:
			warnMisspeltFrontmatterKey(m, n.get("permission") != nil, d)
		}
	}
	if d.failed() {
		return nil
	}
	return a
}

// warnMisspeltFrontmatterKey warns of a frontmatter key that misspells one
// regate reads. The other keys of an agent file are the host's
// (description, model, tools, …), so a key is reported only when it is
// close to name or permission: "permision:" would otherwise leave the
// agent unrestricted without a word.
func warnMisspeltFrontmatterKey(m member, hasPermission bool, d *diags) {
	s := DidYouMean(m.key, frontmatterKeys)
	if s == "" {
		return
	}
	msg := UnknownKeyMessage(m.key, frontmatterKeys, "the frontmatter", "is ignored")
	if s == "permission" && !hasPermission {
		msg += " Without a permission key this agent restricts nothing."
	}
	d.warnf(m.keyPos, CodeUnknownKey, "%s", msg)
}

// frontmatter returns the YAML between the opening and closing "---" lines
// and the line number where it starts.
func frontmatter(src []byte) ([]byte, int, bool) {
	src = bytes.TrimPrefix(src, []byte("\ufeff"))
	first, rest, ok := bytes.Cut(src, []byte("\n"))
	if !ok || strings.TrimRight(string(first), " \t\r") != "---" {
		return nil, 0, false
	}
	off := 0
	for off <= len(rest) {
		line, next, more := bytes.Cut(rest[off:], []byte("\n"))
		if strings.TrimRight(string(line), " \t\r") == "---" {
			return rest[:off], 2, true
		}
		if !more {
			break
		}
		off = len(rest) - len(next)
	}
	return nil, 0, false
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
	d          *diags
}

func (c yamlConv) pos(n *yaml.Node) Pos {
	return Pos{File: c.file, Line: min(n.Line+c.lineOffset, c.lastLine), Col: max(n.Column, 1)}
}

// clampLine keeps a YAML line inside the frontmatter: YAML also breaks
// lines at a lone \r, which the file's line count (by \n) does not.
func clampLine(line, startLine int, body []byte) int {
	last := startLine + bytes.Count(body, []byte("\n"))
	return max(startLine, min(line, last))
}

// value converts a YAML node to a node. The frontmatter grammar is minimal:
// scalars and nested maps. Anchors and aliases are refused, since an agent
// file that means something other than it shows must not load.
func (c yamlConv) value(y *yaml.Node, depth int) *node {
	pos := c.pos(y)
	if depth > maxDepth {
		c.d.errorf(pos, CodeTooDeep, "nesting deeper than %d levels", maxDepth)
		return nil
	}
	if y.Anchor != "" || y.Kind == yaml.AliasNode {
		c.d.errorf(pos, CodeFrontmatter, "YAML anchors and aliases are not supported in agent frontmatter")
		return nil
	}
	switch y.Kind {
	case yaml.MappingNode:
		n := &node{kind: kindObject, pos: pos}
		n.members = make([]member, 0, len(y.Content)/2)
		for i := 0; i+1 < len(y.Content); i += 2 {
			k, v := y.Content[i], y.Content[i+1]
			if k.Kind != yaml.ScalarNode {
				c.d.errorf(c.pos(k), CodeFrontmatter, "map keys must be plain scalars")
				dedupe(n.members, c.d)
				return nil
			}
			val := c.value(v, depth+1)
			n.members = append(n.members, member{key: k.Value, keyPos: c.pos(k), val: val})
			if val == nil {
				dedupe(n.members, c.d)
				return nil
			}
		}
		n.members = dedupe(n.members, c.d)
		return n
	case yaml.SequenceNode:
		n := &node{kind: kindArray, pos: pos}
		for _, e := range y.Content {
			v := c.value(e, depth+1)
			if v == nil {
				return nil
			}
			n.elems = append(n.elems, v)
		}
		return n
	case yaml.ScalarNode:
		switch y.ShortTag() {
		case "!!null":
			return &node{kind: kindNull, pos: pos}
		case "!!bool":
			b, _ := strconv.ParseBool(strings.ToLower(y.Value))
			return &node{kind: kindBool, pos: pos, boolean: b}
		case "!!int", "!!float":
			f, err := strconv.ParseFloat(y.Value, 64)
			if err != nil {
				return &node{kind: kindString, pos: pos, str: y.Value}
			}
			return &node{kind: kindNumber, pos: pos, num: f}
		}
		return &node{kind: kindString, pos: pos, str: y.Value}
	}
	c.d.errorf(pos, CodeFrontmatter, "unsupported YAML construct")
	return nil
}

func agentName(file string) string {
	return strings.TrimSuffix(filepath.Base(file), filepath.Ext(file))
}
