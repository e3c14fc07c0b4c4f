package compiler

import (
	"bytes"
	"path/filepath"
	"strings"

	"github.com/regate/regate/compiler/internal/ruledoc"
)

// parseAgent reads an agent Markdown file: YAML frontmatter between two
// "---" lines, of which regate uses "name" and "permission"; a key that
// misspells one of them is reported. The agent's name is the file's base
// name, as agent files live at agents/<agent>.md (docs/policy.md, "Agent
// frontmatter"); a "name" key that disagrees is reported.
func parseAgent(file string, src []byte, d *diags) *Agent {
	a := &Agent{Name: agentName(file), Pos: Pos{File: file, Line: 1, Col: 1}}
	if !ruledoc.CheckBytes(file, src, d) {
		return nil
	}
	body, startLine, ok := frontmatter(src)
	if !ok {
		if bytes.HasPrefix(bytes.TrimLeft(src, "\ufeff"), []byte("---")) {
			d.Errorf(a.Pos, CodeFrontmatter, "frontmatter opened with --- is never closed")
			return nil
		}
		return a // no frontmatter: the agent restricts nothing
	}
	n, ok := ruledoc.ParseYAML(file, body, startLine, d)
	if !ok || d.Failed() {
		return nil
	}
	if n == nil {
		return a // an empty frontmatter restricts nothing
	}
	if !d.Expect(n, ruledoc.Object, "frontmatter") {
		return nil
	}
	for _, m := range n.Members {
		switch m.Key {
		case "permission":
			a.Permission = decodePermission(m.Val, ordinaryRules, d)
		case "name":
			if m.Val.Kind == ruledoc.String && m.Val.Str != a.Name {
				d.Warnf(m.Val.Pos, CodeUnknownKey, "frontmatter name %q differs from the file name; the agent is %q", m.Val.Str, a.Name)
			}
		default:
			warnMisspeltFrontmatterKey(m, n.Get("permission") != nil, d)
		}
	}
	if d.Failed() {
		return nil
	}
	return a
}

// warnMisspeltFrontmatterKey warns of a frontmatter key that misspells one
// regate reads. The other keys of an agent file are the host's
// (description, model, tools, …), so a key is reported only when it is
// close to name or permission: "permision:" would otherwise leave the
// agent unrestricted without a word.
func warnMisspeltFrontmatterKey(m ruledoc.Member, hasPermission bool, d *diags) {
	s := DidYouMean(m.Key, frontmatterKeys)
	if s == "" {
		return
	}
	msg := UnknownKeyMessage(m.Key, frontmatterKeys, "the frontmatter", "is ignored")
	if s == "permission" && !hasPermission {
		msg += " Without a permission key this agent restricts nothing."
	}
	d.Warnf(m.KeyPos, CodeUnknownKey, "%s", msg)
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

func agentName(file string) string {
	return strings.TrimSuffix(filepath.Base(file), filepath.Ext(file))
}
