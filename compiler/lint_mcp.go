package compiler

import (
	"path"
	"strings"
)

// The hosts do not send every MCP server name as it was configured: Claude
// Code names a server's tools mcp__SERVER__TOOL with every character of
// the server outside [A-Za-z0-9_-] replaced by "_" (its tool-name
// normaliser, read in 2.1.332's binary), and Pi 1.6 every character outside
// [A-Za-z0-9_], while Pi's resource tools name the server as configured. A
// "SERVER:TOOL" rule therefore also matches the forms the hosts send
// (matchForms), and the lint says so: a server configured under that form
// is matched as well.
type mcpHostForm struct {
	host string
	keep func(r rune) bool
}

var mcpHostForms = []mcpHostForm{
	{"Claude Code", func(r rune) bool { return isWordRune(r) || r == '-' }},
	{"Pi", isWordRune},
}

// send is the server name as the host sends it.
func (h mcpHostForm) send(server string) string {
	return strings.Map(func(c rune) rune {
		if h.keep(c) {
			return c
		}
		return '_'
	}, server)
}

func isWordRune(r rune) bool {
	return r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9'
}

// lintMCPServers warns about an mcp rule that names a server in a form a
// host cannot send: the rule matches the form the host sends too, which
// another server may be configured under.
func lintMCPServers(p *Permission, d *diags) {
	for _, s := range p.Surfaces {
		if s.Name != "mcp" {
			continue
		}
		for _, r := range s.Rules {
			server, _, _ := strings.Cut(r.Pattern, ":")
			if server == "" || strings.ContainsAny(server, "*?") {
				continue
			}
			var notes []string
			for _, h := range mcpHostForms {
				if sent := h.send(server); sent != server {
					notes = append(notes, h.host+" sends it as \""+sent+"\"")
				}
			}
			if notes != nil {
				d.Warnf(r.Pos, CodeMCPServerForm,
					"the MCP server %q of %q is not sent by every host as written: %s; the rule matches that form as well (and so a server configured under it)",
					server, r.Pattern, strings.Join(notes, ", "))
			}
		}
	}
}

// pathSurfaces are the surfaces whose values are paths.
var pathSurfaces = map[string]bool{"path": true, "read": true, "write": true, "edit": true}

// lintPathForms warns about a path rule that can never match: regate
// matches paths in their clean form (no "." or empty components, ".."
// resolved against what precedes it), so "./sub/.env" or "/tmp//x" meets
// nothing, and a rule meant to deny protects nothing. A trailing "/" is a
// folder's own spelling and stays.
func lintPathForms(p *Permission, home string, d *diags) {
	for _, s := range p.Surfaces {
		if !pathSurfaces[s.Name] {
			continue
		}
		for _, r := range s.Rules {
			e := strings.TrimSuffix(ExpandHome(r.Pattern, home), "/")
			if !strings.Contains(e, "/") {
				continue
			}
			if clean := path.Clean(e); clean != e {
				d.Warnf(r.Pos, CodePathForm,
					"the pattern %q never matches: regate matches paths in their clean form, so it meets none; write %q",
					r.Pattern, clean)
			}
		}
	}
}
