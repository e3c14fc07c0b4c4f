package facts_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/regate/regate/facts"
)

// TestSearchFilterPaths: the paths a grep call's filter is gated on, as
// written and as expanded below the search path.
func TestSearchFilterPaths(t *testing.T) {
	e := facts.Env{Cwd: "/r", Home: "/h", FS: facts.MapFS{
		"/r/.env": "file", "/r/a.go": "file", "/r/src/b.go": "file", "/r/src/.env.local": "file",
		"/r/node_modules/.env": "file", "/r/.git/config": "file", "/r/lnk": "link:/h",
		"/h/.ssh/id_rsa": "file",
	}}
	for _, c := range []struct {
		input map[string]any
		want  []string
	}{
		{map[string]any{"glob": "*.go"}, []string{".", "*.go", "a.go", "src/b.go"}},
		{map[string]any{"glob": "src/*.go"}, []string{".", "src/*.go", "src/b.go"}},
		{map[string]any{"path": "src", "glob": "*.go"}, []string{"src", "src/*.go", "*.go", "src/b.go"}},
		{map[string]any{"glob": "**/.env*"}, []string{".", "**/.env*", ".env", "src/.env.local"}}, // node_modules and .git not descended
		{map[string]any{"glob": ".e?v"}, []string{".", ".e?v", ".env"}},
		{map[string]any{"glob": []any{".env", "x"}}, []string{".", ".env", "x"}},
		// A search tool does not expand ~ in a filter: the literal check, whose
		// forms are expanded, meets a rule on ~/.ssh/*.
		{map[string]any{"glob": "~/.ssh/*"}, []string{".", "~/.ssh/*"}},
		{map[string]any{"glob": ""}, []string{"."}},
	} {
		in := facts.Build(facts.Call{Tool: "grep", Input: c.input}, e)
		var got []string
		for _, ch := range in.Checks {
			if ch.Surface == "path" && !ch.StrictOnly && !slices.Contains(got, ch.Value) {
				got = append(got, ch.Value)
			}
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%v: gated %q, want %q", c.input, got, c.want)
		}
	}
}

// TestSearchFilterTooLarge: a filter whose walk passes the bound asks
// (the check's Error) rather than allowing unseen matches.
func TestSearchFilterTooLarge(t *testing.T) {
	fsys := facts.MapFS{}
	for i := range 4100 {
		fsys[fmt.Sprintf("/r/f%d.go", i)] = "file"
	}
	in := facts.Build(facts.Call{Tool: "grep", Input: map[string]any{"glob": "*.go"}}, facts.Env{Cwd: "/r", FS: fsys})
	last := in.Checks[len(in.Checks)-1]
	if last.Error == "" || last.Value != "*.go" || len(in.Checks) > 10 {
		t.Errorf("4100 matches: the last check is %+v, want an error on *.go", last)
	}
}

// TestMalformedChecks: which inputs are malformed.
func TestMalformedChecks(t *testing.T) {
	e := facts.Env{Cwd: "/r", FS: facts.MapFS{}}
	for _, c := range []struct {
		tool      string
		input     map[string]any
		malformed bool
	}{
		{"read", map[string]any{"path": "a"}, false},
		{"read", map[string]any{}, true},
		{"read", map[string]any{"path": ""}, true},
		{"write", map[string]any{"path": []any{"a"}}, true},
		{"edit", map[string]any{"path": 1.0}, true},
		{"ls", map[string]any{}, false},
		{"ls", map[string]any{"path": nil}, false},
		{"find", map[string]any{"path": map[string]any{}}, true},
		{"grep", map[string]any{"glob": 1.0}, true},
		{"grep", map[string]any{"glob": []any{"*.go", "*.md"}}, false},
		{"task", map[string]any{"path": []string{"x"}}, true},
		{"task", map[string]any{}, false},
		{"mcp", map[string]any{"tool": "t", "arguments": map[string]any{"path": []any{"a", "b"}}}, false},
		{"mcp", map[string]any{"tool": "t", "arguments": map[string]any{"path": false}}, true},
	} {
		in := facts.Build(facts.Call{Tool: c.tool, Input: c.input}, e)
		got := slices.ContainsFunc(in.Checks, func(ch facts.Check) bool { return ch.Malformed != "" })
		if got != c.malformed {
			t.Errorf("%s %v: malformed %v, want %v (%+v)", c.tool, c.input, got, c.malformed, in.Checks)
		}
	}
}
