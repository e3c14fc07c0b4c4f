package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSelfFloorGuardsTheFilesInUse: under a policy that allows everything,
// `regate decide` asks before a write to each rule file it was given (by
// the path given and, through a link, by the file it resolves to), into
// the agents folder, the state folder, the decision-log folder and a host's
// settings; a write elsewhere is allowed.
func TestSelfFloorGuardsTheFilesInUse(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "rules", "policy.jsonc")
	link := filepath.Join(dir, "policy.jsonc")
	files := map[string]string{
		real:                                    `{"yoloMode": true, "permission": {"*": "allow", "bash": {"*": "allow"}}}`,
		filepath.Join(dir, "hard-guards.jsonc"): `{"permission": {"bash": {"rm -rf /*": "deny"}}}`,
		filepath.Join(dir, "agents", "a.md"):    "---\npermission:\n  bash: allow\n---\n",
		filepath.Join(dir, "work", "README"):    "text",
	}
	for name, text := range files {
		if err := os.MkdirAll(filepath.Dir(name), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(name, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	state, logs := filepath.Join(dir, "state"), filepath.Join(dir, "logs")
	args := []string{"decide", "--format", "json", "--policy", link, "--hard-guards", filepath.Join(dir, "hard-guards.jsonc"),
		"--agents-dir", filepath.Join(dir, "agents"), "--decision-log", logs, "--home", filepath.Join(dir, "home"),
		"--cwd", filepath.Join(dir, "work"), "--calls", "-"}
	t.Setenv("REGATE_STATE_DIR", state)
	for _, c := range []struct {
		path, what string // what the message names; "" for an allowed write
	}{
		{link, "the policy file"},
		{real, "the policy file"},
		{filepath.Join(dir, "hard-guards.jsonc"), "the hard-guards file"},
		{filepath.Join(dir, "agents", "b.md"), "a folder of agent files"},
		{filepath.Join(state, "sessions", "x.jsonl"), "regate's state folder"},
		{filepath.Join(logs, "decisions.jsonl"), "regate's decision log folder"},
		{filepath.Join(dir, "home", ".claude", "settings.json"), "Claude Code's user settings"},
		{filepath.Join(dir, "work", ".gemini", "settings.json"), "Gemini CLI's project settings"},
		{filepath.Join(dir, "home", ".pi", "agent", "system-prompts", "config.json"), "prompt profiles"},
		// --home names another user's home: that user's state folder too.
		{filepath.Join(dir, "home", ".cache", "regate", "key"), "the key that signs"},
		{filepath.Join(dir, "work", "notes.txt"), ""},
	} {
		call, _ := json.Marshal(map[string]any{"tool": "bash", "input": map[string]any{"command": "echo x > '" + c.path + "'"}})
		var stdout, stderr strings.Builder
		Main(args, strings.NewReader(string(call)+"\n"), &stdout, &stderr)
		var d struct {
			Decision struct{ Action, Layer, Message string } `json:"decision"`
		}
		if err := json.Unmarshal([]byte(stdout.String()), &d); err != nil {
			t.Fatalf("%s: %v\n%s%s", c.path, err, stdout.String(), stderr.String())
		}
		switch {
		case c.what == "" && d.Decision.Action != "allow":
			t.Errorf("%s: %s (%s); want allow", c.path, d.Decision.Action, d.Decision.Message)
		case c.what != "" && (d.Decision.Action != "ask" || d.Decision.Layer != "self-guard" || !strings.Contains(d.Decision.Message, c.what)):
			t.Errorf("%s: %s in %s (%s); want the self floor's ask naming %q", c.path, d.Decision.Action, d.Decision.Layer, d.Decision.Message, c.what)
		}
	}
}
