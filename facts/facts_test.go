package facts_test

import (
	"reflect"
	"slices"
	"testing"

	"github.com/regate/regate/facts"
)

var env = facts.Env{
	Cwd:  "/home/u/repo",
	Home: "/home/u",
	FS: facts.MapFS{
		"/home/u/repo/link":     "link:/etc",
		"/home/u/repo/cfg.txt":  "link:.env",
		"/home/u/repo/.env":     "file",
		"/home/u/repo/up.yml":   "link:../../.config/db.yml",
		"/home/u/repo/dangling": "link:/nowhere/file",
		"/home/u/repo/loop1":    "link:loop2",
		"/home/u/repo/loop2":    "link:loop1",
		"/home/u/repo/chain":    "link:link/hosts",
	},
}

func TestPathForms(t *testing.T) {
	tests := []struct {
		value      string
		referenced []string
		canonical  []string
		err        bool
	}{
		{".env", []string{".env", "/home/u/repo/.env"}, []string{"/home/u/repo/.env", ".env"}, false},
		{"./src/../.env", []string{".env", "/home/u/repo/.env"}, []string{"/home/u/repo/.env", ".env"}, false},
		{"/home/u/repo/src/a.ts", []string{"/home/u/repo/src/a.ts", "src/a.ts"}, []string{"/home/u/repo/src/a.ts", "src/a.ts"}, false},
		{"../other/x", []string{"../other/x", "/home/u/other/x"}, []string{"/home/u/other/x"}, false},
		{"~/.ssh/config", []string{"/home/u/.ssh/config"}, []string{"/home/u/.ssh/config"}, false},
		{"$HOME/.ssh/config", []string{"/home/u/.ssh/config"}, []string{"/home/u/.ssh/config"}, false},
		{"${HOME}/.ssh/config", []string{"/home/u/.ssh/config"}, []string{"/home/u/.ssh/config"}, false},
		{"~alice/x", []string{"~alice/x", "/home/u/repo/~alice/x"}, []string{"/home/u/repo/~alice/x", "~alice/x"}, false},
		{"$HOMEDIR/x", []string{"$HOMEDIR/x", "/home/u/repo/$HOMEDIR/x"}, []string{"/home/u/repo/$HOMEDIR/x", "$HOMEDIR/x"}, false},
		{".", []string{".", "/home/u/repo"}, []string{"/home/u/repo", "."}, false},
		{"//etc/./hosts", []string{"/etc/hosts"}, []string{"/etc/hosts"}, false},
		{"link/hosts", []string{"link/hosts", "/home/u/repo/link/hosts"}, []string{"/etc/hosts"}, false},
		{"cfg.txt", []string{"cfg.txt", "/home/u/repo/cfg.txt"}, []string{"/home/u/repo/.env", ".env"}, false},
		{"up.yml", []string{"up.yml", "/home/u/repo/up.yml"}, []string{"/home/.config/db.yml"}, false},
		{"dangling", []string{"dangling", "/home/u/repo/dangling"}, []string{"/nowhere/file"}, false},
		{"chain", []string{"chain", "/home/u/repo/chain"}, []string{"/etc/hosts"}, false},
		{"loop1", []string{"loop1", "/home/u/repo/loop1"}, []string{"loop1", "/home/u/repo/loop1"}, true},
	}
	for _, tc := range tests {
		t.Run(tc.value, func(t *testing.T) {
			f := env.PathForms(tc.value, env.Cwd)
			if !reflect.DeepEqual(f.Referenced, tc.referenced) {
				t.Errorf("referenced %q, want %q", f.Referenced, tc.referenced)
			}
			if !reflect.DeepEqual(f.Canonical, tc.canonical) {
				t.Errorf("canonical %q, want %q", f.Canonical, tc.canonical)
			}
			if (f.Err != "") != tc.err {
				t.Errorf("err %q, want error %v", f.Err, tc.err)
			}
		})
	}
}

func TestMCPTargets(t *testing.T) {
	tests := []struct {
		in   map[string]any
		want []string
	}{
		{map[string]any{"tool": "exa:web_search"}, []string{"exa:web_search", "exa_web_search", "exa", "mcp_call"}},
		{map[string]any{"tool": "create_issue", "server": "github"}, []string{"github:create_issue", "github_create_issue", "github", "mcp_call"}},
		{map[string]any{"tool": "plain"}, []string{"plain", "mcp_call"}},
		{map[string]any{"connect": "github"}, []string{"github", "mcp_connect"}},
		{map[string]any{"describe": "exa:web_search"}, []string{"mcp_describe"}},
		{map[string]any{"search": "weather"}, []string{"mcp_search"}},
		{map[string]any{"server": "exa"}, []string{"mcp_list"}},
		{map[string]any{}, []string{"mcp_status"}},
		{map[string]any{"tool": 7}, []string{"mcp_status"}},
		// A tool or server named like an operation is not that operation.
		{map[string]any{"tool": "mcp_list"}, []string{"mcp_call"}},
		{map[string]any{"tool": "mcp_status", "server": "gh"}, []string{"gh:mcp_status", "gh_mcp_status", "gh", "mcp_call"}},
		{map[string]any{"tool": "mcp_list:delete_repo"}, []string{"mcp_list:delete_repo", "mcp_list_delete_repo", "mcp_call"}},
		{map[string]any{"connect": "mcp_status"}, []string{"mcp_connect"}},
	}
	for _, tc := range tests {
		if got := facts.MCPTargets(tc.in); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("MCPTargets(%v) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestBuildChecks(t *testing.T) {
	e := env
	e.ShellTools = map[string]facts.ShellTool{"exec_command": {CommandArgument: "cmd", WorkdirArgument: "workdir", DecisionFloor: "ask"}}
	tests := []struct {
		name     string
		call     facts.Call
		surfaces []string
		values   []string
		floor    string
		unreg    bool
	}{
		{"read gates path and read", facts.Call{Tool: "read", Input: map[string]any{"path": ".env"}}, []string{"path", "read"}, []string{".env", ".env"}, "", false},
		{"ls defaults to the cwd, a directory: strict mode also gates ./", facts.Call{Tool: "ls", Input: map[string]any{}}, []string{"path", "ls", "path"}, []string{".", ".", "./"}, "", false},
		{"write without path", facts.Call{Tool: "write", Input: map[string]any{}}, []string{"write"}, []string{""}, "", false},
		{"mcp arguments path", facts.Call{Tool: "mcp", Input: map[string]any{"tool": "fs:read", "arguments": map[string]any{"path": ".env"}}}, []string{"path", "mcp"}, []string{".env", "fs:read"}, "", false},
		{"skill name", facts.Call{Tool: "skill", Input: map[string]any{"name": "librarian"}}, []string{"skill"}, []string{"librarian"}, "", false},
		{"extension tool with a path", facts.Call{Tool: "my_reader", Input: map[string]any{"path": "a"}}, []string{"path", "my_reader"}, []string{"a", "a"}, "", false},
		{"extension tool", facts.Call{Tool: "task", Input: map[string]any{"prompt": "x"}}, []string{"task"}, []string{""}, "", false},
		{"bash command", facts.Call{Tool: "bash", Input: map[string]any{"command": "  git status \n"}}, []string{"bash"}, []string{"git status"}, "", false},
		{"bash with the folder it runs in (Gemini dir_path, OpenCode workdir)", facts.Call{Tool: "bash", Input: map[string]any{"command": "cat ./id.pem", "workdir": "/home/u/.ssh"}}, []string{"path", "bash", "path", "read"}, []string{"/home/u/.ssh", "cat ./id.pem", "./id.pem", "./id.pem"}, "", false},
		{"shell alias", facts.Call{Tool: "exec_command", Input: map[string]any{"cmd": "ls", "workdir": "/srv"}}, []string{"path", "bash"}, []string{"/srv", "ls"}, "ask", false},
		{"unregistered", facts.Call{Tool: "write", Input: map[string]any{"path": "a"}, Registered: []string{"read"}}, []string{"path", "write"}, []string{"a", "a"}, "", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := facts.Build(tc.call, e)
			var surfaces, values []string
			for _, c := range in.Checks {
				surfaces = append(surfaces, c.Surface)
				values = append(values, c.Value)
			}
			if !reflect.DeepEqual(surfaces, tc.surfaces) || !reflect.DeepEqual(values, tc.values) {
				t.Errorf("checks %q %q, want %q %q", surfaces, values, tc.surfaces, tc.values)
			}
			if in.Floor != tc.floor || in.Unregistered != tc.unreg {
				t.Errorf("floor %q unregistered %v, want %q %v", in.Floor, in.Unregistered, tc.floor, tc.unreg)
			}
		})
	}
}

func TestBashWithoutCommandFailsClosed(t *testing.T) {
	in := facts.Build(facts.Call{Tool: "bash", Input: map[string]any{"command": 3}}, env)
	if len(in.Checks) != 1 || !in.Checks[0].Unparseable || in.Checks[0].Reason == "" {
		t.Fatalf("a non-string command must be unparseable with a reason, got %+v", in.Checks)
	}
}

// TestPathCheckGroups: a path whose canonical spellings are its referenced
// ones is one spelling group; a link, or a canonical group that is only a
// subset, keeps two.
func TestPathCheckGroups(t *testing.T) {
	tests := map[string]int{".env": 1, "/home/u/repo/src/a.ts": 1, "/etc/hosts": 1, "cfg.txt": 2, "link/hosts": 2, "../other/x": 2}
	for value, want := range tests {
		in := facts.Build(facts.Call{Tool: "read", Input: map[string]any{"path": value}}, env)
		if got := len(in.Checks[0].Forms); got != want {
			t.Errorf("%s: %d groups %q, want %d", value, got, in.Checks[0].Forms, want)
		}
	}
}

// A command's relative paths are resolved against the folder the host says
// it runs in (Gemini CLI's dir_path, OpenCode's workdir), not the session's.
func TestBashWorkdirIsTheBaseOfRelativePaths(t *testing.T) {
	in := facts.Build(facts.Call{Tool: "bash", Input: map[string]any{"command": "cat ./id.pem", "workdir": "/home/u/.ssh"}}, env)
	for _, c := range in.Checks {
		if c.Surface == "path" && c.Value == "./id.pem" {
			for _, forms := range c.Forms {
				if slices.Contains(forms, "/home/u/.ssh/id.pem") {
					return
				}
			}
			t.Fatalf("forms of id.pem %q do not name /home/u/.ssh/id.pem", c.Forms)
		}
	}
	t.Fatalf("no path check of id.pem in %+v", in.Checks)
}
