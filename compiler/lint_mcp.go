package compiler

import (
	"strings"
)

// The hosts do not send every MCP server name as it was configured: Claude
// Code names a server's tools mcp__SERVER__TOOL with every character of
// the server outside [A-Za-z0-9_-] replaced by "_" (its tool-name
// normaliser, read in 2.1.332's binary), and Pi 1.6 every character outside
// [A-Za-z0-9_]. A rule written with the configured name ("dev-radius:*")
// then never meets that host's calls ("dev_radius"), whatever it says.
var mcpHostForms = []struct {
	host string
	keep func(r rune) bool
}{
	{"Claude Code", func(r rune) bool { return isWordRune(r) || r == '-' }},
	{"Pi", isWordRune},
}

func isWordRune(r rune) bool {
	return r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9'
}

// lintMCPServers warns about an mcp rule that names a server in a form a
// host cannot send, with the form that host sends.
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
				sent := strings.Map(func(c rune) rune {
					if h.keep(c) {
						return c
					}
					return '_'
				}, server)
				if sent != server {
					notes = append(notes, h.host+" sends it as \""+sent+"\"")
				}
			}
			if notes != nil {
				d.Warnf(r.Pos, CodeMCPServerForm,
					"the MCP server %q of %q is not sent by every host as written: %s; write a rule for that form as well, or the host's calls miss this one",
					server, r.Pattern, strings.Join(notes, ", "))
			}
		}
	}
}
