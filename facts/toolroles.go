package facts

import (
	"maps"
	"slices"

	"github.com/regate/regate/bashfacts"
)

// Host tools' input fields and what the tool does with them: the table
// the facts read for tools no regate tool stands for (toolpaths.go gates
// every path such a tool holds on the path surface; this adds the surface
// of what it does with it). A field that a tool reads (and sends away:
// Claude Code's Artifact publishes or uploads file_path) meets the read
// rules; a field it writes ("write") or saves files into ("write-into", a
// folder: its files are decided as "folder/", which "folder/*" matches)
// meets the write rules, the self floor included. Names are the host's, as its hook sends them; the roles come
// from the host's own tool declarations (Claude Code 2.1.332's
// sdk-tools.d.ts, docs/hosts.md).
var toolFieldRoles = map[string]map[string]string{
	// publish renders file_path; upload_asset uploads file_path or
	// file_paths; read_asset saves an asset into out_dir.
	"Artifact": {"file_path": "read", "file_paths": "read", "out_dir": "write-into"},
	// project_write uploads local_path (path names the remote document).
	"Projects": {"local_path": "read"},
	// Workflow runs the script at scriptPath.
	"Workflow": {"scriptPath": "read"},
}

// toolRoleChecks are the read and write checks of a host tool's fields
// (toolFieldRoles): each string of the field, and of a list in it, on its
// role's surface, as the file tools are decided. They hold in every mode:
// the spec says nothing of these tools.
func (e *Env) toolRoleChecks(tool string, args map[string]any, cwd string) []Check {
	roles := toolFieldRoles[tool]
	var out []Check
	for _, field := range slices.Sorted(maps.Keys(roles)) {
		var values []string
		switch v := args[field].(type) {
		case string:
			values = []string{v}
		case []any:
			for _, x := range v {
				if s, ok := x.(string); ok {
					values = append(values, s)
				}
			}
		}
		for _, v := range values {
			if v == "" || len(out) > MaxChecks {
				continue
			}
			checks := e.pathChecks(v, cwd)
			if roles[field] == "write-into" && len(checks) > 1 {
				checks = checks[1:] // the folder's "dir/" spelling: what it receives
			}
			for _, c := range checks {
				if roles[field] != "read" {
					for _, w := range e.appendWriteChecks(nil, c, bashfacts.WriteCreate) {
						w.StrictOnly = false
						out = append(out, w)
					}
					continue
				}
				r := roleCheck(c, "read")
				r.StrictOnly = false
				out = append(out, r)
			}
		}
	}
	return out
}
