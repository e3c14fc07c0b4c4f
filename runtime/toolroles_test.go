package runtime_test

import (
	"context"
	"testing"

	"github.com/regate/regate/facts"
	"github.com/regate/regate/runtime"
)

// TestHostToolFieldRoles: a host tool that reads a file to send it away
// (Claude Code's Artifact publish and upload_asset, Projects
// project_write's local_path) or runs it (Workflow's scriptPath) meets the
// read rules with it, and one that saves into a folder (Artifact
// read_asset's out_dir) meets the write rules and the self floor, even
// when a policy or an approval allows the tool.
func TestHostToolFieldRoles(t *testing.T) {
	policy := `{"permission": {"*": "ask", "Artifact": "allow", "Projects": "allow", "Workflow": "allow",
	    "path": {"*": "allow"}, "read": {"*": "allow", "private/*": "deny"}, "write": {"*": "ask", "out/*": "allow"}}}`
	fsys := facts.MapFS{"/home/u/repo/private/k.html": "file", "/home/u/repo/report.html": "file", "/home/u/repo/out": "dir"}
	for name, e := range map[string]*runtime.Engine{
		"plain":  newEngine(t, policy, runtime.WithFS(fsys)),
		"strict": newEngine(t, `{"strict": true, `+policy[1:], runtime.WithFS(fsys)),
	} {
		for _, c := range []struct {
			tool  string
			input map[string]any
			want  string
		}{
			{"Artifact", map[string]any{"file_path": "report.html"}, "allow"},
			{"Artifact", map[string]any{"file_path": "private/k.html"}, "deny"},
			{"Artifact", map[string]any{"action": "upload_asset", "url": "u", "file_paths": []any{"report.html", "private/k.html"}}, "deny"},
			{"Artifact", map[string]any{"action": "read_asset", "url": "u", "asset_id": "a", "out_dir": "out"}, "allow"},
			{"Artifact", map[string]any{"action": "read_asset", "url": "u", "asset_id": "a", "out_dir": "/etc/cron.d"}, "ask"},
			{"Projects", map[string]any{"method": "project_write", "path": "notes.md", "local_path": "private/k.html"}, "deny"},
			{"Projects", map[string]any{"method": "project_write", "path": "notes.md", "local_path": "report.html"}, "allow"},
			{"Workflow", map[string]any{"scriptPath": "private/k.html"}, "deny"},
		} {
			d, err := e.Decide(context.Background(), facts.Call{Tool: c.tool, Input: c.input})
			if err != nil || string(d.Action) != c.want {
				t.Errorf("%s: %s %v: %s (%s on %s, %v); want %s", name, c.tool, c.input, d.Action, d.Matched, d.Surface, err, c.want)
			}
		}
	}
}
