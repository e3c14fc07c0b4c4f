package hosts

import (
	"reflect"
	"strings"
	"testing"

	"github.com/regate/regate/facts"
)

func TestPatchFiles(t *testing.T) {
	patch := "*** Begin Patch\n*** Add File: a.go\n+x\n*** Update File: b.go\n*** Move to: c.go\n@@\n*** Delete File: d.go\r\n*** End Patch"
	want := []PatchFile{{"write", "a.go"}, {"edit", "b.go"}, {"write", "c.go"}, {"edit", "d.go"}}
	if got := PatchFiles(patch); !reflect.DeepEqual(got, want) {
		t.Fatalf("PatchFiles = %v; want %v", got, want)
	}
}

func TestShellCommand(t *testing.T) {
	for _, c := range []struct {
		in   any
		want string
	}{
		{"git status", "git status"},
		{[]any{"bash", "-lc", "git status && rm -rf x"}, "git status && rm -rf x"},
		{[]any{"/bin/sh", "-c", "ls"}, "ls"},
		{[]any{"rm", "-rf", "my dir"}, "rm -rf 'my dir'"},
		{[]any{"echo", "it's"}, `echo 'it'\''s'`},
	} {
		got, err := shellCommand(c.in)
		if err != nil || got != c.want {
			t.Errorf("shellCommand(%v) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
	for _, bad := range []any{nil, 3, []any{"ls", 4}} {
		if _, err := shellCommand(bad); err == nil {
			t.Errorf("shellCommand(%v) succeeded", bad)
		}
	}
}

func TestDecodeMapsTools(t *testing.T) {
	for _, c := range []struct {
		host, in string
		want     facts.Call
	}{
		{"claude", `{"tool_name":"Read","tool_input":{"file_path":"/r/a"}}`, facts.Call{Tool: "read", Input: map[string]any{"path": "/r/a"}}},
		{"claude", `{"tool_name":"mcp__gh__get","tool_input":{"n":1}}`,
			facts.Call{Tool: "mcp", Input: map[string]any{"server": "gh", "tool": "get", "arguments": map[string]any{"n": float64(1)}}}},
		{"claude", `{"tool_name":"mcp__broken","tool_input":{}}`, facts.Call{Tool: "mcp__broken", Input: map[string]any{}}},
		{"gemini", `{"tool_name":"write_file","tool_input":{"file_path":"a","content":"x"}}`,
			facts.Call{Tool: "write", Input: map[string]any{"path": "a", "content": "x"}}},
		{"codex", `{"tool_name":"shell","tool_input":{"command":["bash","-lc","ls"]},"agent_type":"r"}`,
			facts.Call{Tool: "bash", Input: map[string]any{"command": "ls"}, Agent: "r"}},
	} {
		codec, err := Lookup(c.host, Options{})
		if err != nil {
			t.Fatal(err)
		}
		req, err := codec.Decode([]byte(c.in))
		if err != nil {
			t.Fatalf("%s %s: %v", c.host, c.in, err)
		}
		if len(req.Calls) != 1 || !reflect.DeepEqual(req.Calls[0], c.want) {
			t.Errorf("%s %s: %+v; want %+v", c.host, c.in, req.Calls, c.want)
		}
	}
}

// Every codec's Fail blocks: exit 2 and a reason.
func TestFailBlocks(t *testing.T) {
	for _, h := range Names() {
		codec, _ := Lookup(h, Options{})
		a := codec.Fail(Request{}, "boom")
		if a.Exit != 2 || a.Stderr == "" {
			t.Errorf("%s: Fail = %+v", h, a)
		}
	}
}

func TestInstallKeepsOtherSettings(t *testing.T) {
	old := []byte(`{"model": "opus", "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "lint.sh"}]},
		{"matcher": "*", "hooks": [{"type": "command", "command": "/old/regate hook claude"}]}]}}`)
	once, err := Install("claude", old, "/bin/regate hook claude")
	if err != nil {
		t.Fatal(err)
	}
	twice, err := Install("claude", once, "/bin/regate hook claude")
	if err != nil {
		t.Fatal(err)
	}
	if string(once) != string(twice) {
		t.Fatalf("installing twice changed the settings:\n%s\n%s", once, twice)
	}
	for _, want := range []string{`"model": "opus"`, `"lint.sh"`, `"/bin/regate hook claude"`, `"PermissionRequest"`} {
		if !strings.Contains(string(once), want) {
			t.Errorf("the settings lost %s:\n%s", want, once)
		}
	}
	if strings.Contains(string(once), "/old/regate") {
		t.Errorf("the earlier regate hook was kept:\n%s", once)
	}
	if _, err := Install("claude", []byte("{not json"), "x"); err == nil {
		t.Error("settings that are not JSON were overwritten")
	}
}
