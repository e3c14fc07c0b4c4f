package facts

import "strings"

// mcpFileTools are the MCP tools known to take files in fields other than
// arguments.path, or to write the file they name: the reference filesystem
// server's (@modelcontextprotocol/server-filesystem), by tool name on any
// server, since a name that collides with another server's tool is better
// gated as a file tool than not at all. Each field's files are gated on the
// path surface, as arguments.path is; a written or edited file is also
// gated on the write (and edit) surface, strict-only for the policy's rules
// as the shell's writes are, and always for the self floor.
var mcpFileTools = map[string][]mcpFileField{
	"write_file":          {{"path", "write"}},
	"edit_file":           {{"path", "edit"}},
	"create_directory":    {{"path", "write"}},
	"move_file":           {{"source", "write"}, {"destination", "write"}},
	"read_multiple_files": {{"paths", ""}},
}

// mcpFileField is one field of an MCP file tool's arguments and what the
// tool does with the files it names: "write", "edit" or "" (read, listed).
type mcpFileField struct {
	name, role string
}

// mcpFileChecks are the checks of an MCP file tool's fields (mcpFileTools)
// beyond arguments.path's: the other fields' paths, and the write checks
// of every path the tool writes or edits. inner is arguments, and
// pathChecks are the checks of arguments.path.
func (e *Env) mcpFileChecks(args, inner map[string]any, pathChecks []Check, cwd string) []Check {
	tool, _ := args["tool"].(string)
	if _, t, ok := strings.Cut(tool, ":"); ok {
		tool = t
	}
	fields := mcpFileTools[tool]
	if len(fields) == 0 {
		return nil
	}
	var out []Check
	for _, f := range fields {
		checks := pathChecks
		if f.name != "path" {
			checks = e.mcpFieldChecks(inner, f.name, cwd)
			out = append(out, checks...)
		}
		if f.role == "" {
			continue
		}
		writes := []string{"write"}
		if f.role == "edit" {
			writes = append(writes, "edit")
		}
		for _, c := range checks {
			if c.Surface != "path" || c.Malformed != "" {
				continue
			}
			for _, s := range writes {
				w := c
				w.Surface, w.StrictOnly = s, true
				out = append(out, w)
			}
		}
	}
	return out
}
