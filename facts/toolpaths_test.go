package facts_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/regate/regate/facts"
)

// TestUnmodelledToolPaths: a tool no table maps has every path its input
// holds gated on the path surface and on its own surface with the path as
// the value (so that a prompt names it): by field name at any depth and in
// lists (file_path, file_paths, out_dir, local_path, scriptPath, file), and
// by a value shaped like a path. Text that mentions a path, a URL and the
// known tools' other fields are not paths.
func TestUnmodelledToolPaths(t *testing.T) {
	for _, c := range []struct {
		call facts.Call
		want []string // the path checks' values, in order
	}{
		{facts.Call{Tool: "Artifact", Input: map[string]any{"file_path": ".env"}}, []string{".env"}},
		{facts.Call{Tool: "Artifact", Input: map[string]any{"file_paths": []any{"a.md", "b.md"}, "out_dir": "out", "title": "x"}},
			[]string{"a.md", "b.md", "out"}},
		{facts.Call{Tool: "Projects", Input: map[string]any{"local_path": "~/p", "content": "a file"}}, []string{"~/p"}},
		{facts.Call{Tool: "Workflow", Input: map[string]any{"scriptPath": "w.sh"}}, []string{"w.sh"}},
		{facts.Call{Tool: "ReportFindings", Input: map[string]any{"file": "r.txt", "findings": []any{map[string]any{"line": 3.0}}}}, []string{"r.txt"}},
		{facts.Call{Tool: "Invented", Input: map[string]any{"spec": map[string]any{"steps": []any{map[string]any{"inputFile": "in.txt"}}}}}, []string{"in.txt"}},
		{facts.Call{Tool: "Invented", Input: map[string]any{"note": "/etc/shadow", "rel": "../x", "url": "https://a.b/c"}}, []string{"/etc/shadow", "../x"}},
		{facts.Call{Tool: "Invented", Input: map[string]any{"path": "p", "target_path": "q"}}, []string{"p", "q"}},
		// A file: uri names a local file (Gemini's read_mcp_resource {uri});
		// another scheme, or another machine's file, does not.
		{facts.Call{Tool: "read_mcp_resource", Input: map[string]any{"uri": "file:///home/u/.ssh/id_rsa"}}, []string{"/home/u/.ssh/id_rsa"}},
		{facts.Call{Tool: "Invented", Input: map[string]any{"src": []any{"file://localhost/etc/shadow", "file://host/x", "repo://a/b"}}}, []string{"/etc/shadow"}},
		{facts.Call{Tool: "WebFetch", Input: map[string]any{"url": "https://example.com", "prompt": "read ./x.go please"}}, nil},
		{facts.Call{Tool: "TodoWrite", Input: map[string]any{"todos": []any{map[string]any{"content": "fix ./a.go"}}}}, nil},
		{facts.Call{Tool: "read", Input: map[string]any{"path": "a", "note": "/etc/shadow"}}, []string{"a"}}, // a modelled tool keeps its mapping
	} {
		in := facts.Build(c.call, env)
		var paths []string
		for _, ch := range in.Checks {
			if ch.Surface == "path" {
				paths = append(paths, ch.Value)
			}
		}
		if !reflect.DeepEqual(paths, c.want) {
			t.Errorf("%s %v: path checks %q; want %q", c.call.Tool, c.call.Input, paths, c.want)
		}
		for _, ch := range in.Checks {
			if ch.Surface == c.call.Tool && len(c.want) > 0 && ch.Value == "" {
				t.Errorf("%s %v: the tool's own check has no value: a prompt would show ''", c.call.Tool, c.call.Input)
			}
		}
	}
	// Deeper than the bound: malformed, so the call asks whatever it holds.
	deep := map[string]any{"file": "deep.txt"}
	for range 12 {
		deep = map[string]any{"x": deep}
	}
	in := facts.Build(facts.Call{Tool: "Invented", Input: deep}, env)
	if len(in.Checks) == 0 || !strings.Contains(in.Checks[0].Malformed, "deeper") {
		t.Errorf("an input nested past the bound: %+v; want a malformed check first", in.Checks)
	}
}
