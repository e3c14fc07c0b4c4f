package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/regate/regate/internal/testkit/workload"
)

// BenchmarkHookProcess runs one `regate hook claude` process per call, as
// Claude Code does: process start, the policy (compiled, or read back from
// a warm state folder), prepare, decision, answer. start is the floor: the
// same binary printing its help. Run it with a small -benchtime (each
// iteration is a process).
func BenchmarkHookProcess(b *testing.B) {
	bin := filepath.Join(b.TempDir(), "regate")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	state := filepath.Join(b.TempDir(), "state")
	env := append(os.Environ(), "REGATE_STATE_DIR="+state)
	in := []byte(`{"session_id":"s1","cwd":"/repo","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git status && rm -rf build"}}`)
	run := func(b *testing.B, args ...string) {
		for b.Loop() {
			cmd := exec.Command(bin, args...)
			cmd.Env = env
			cmd.Stdin = bytes.NewReader(in)
			out, err := cmd.Output()
			if err != nil || (args[0] == "hook" && !bytes.Contains(out, []byte(`"permissionDecision":"deny"`))) {
				b.Fatalf("%v: %s", err, out)
			}
		}
	}
	b.Run("start", func(b *testing.B) { run(b, "help") })
	b.Run("no-state", func(b *testing.B) { run(b, "hook", "claude", "--no-state") })
	b.Run("warm-state", func(b *testing.B) { run(b, "hook", "claude") })
	big := filepath.Join(b.TempDir(), "policy.jsonc")
	if err := os.WriteFile(big, []byte(workload.Policy(10000)), 0o600); err != nil {
		b.Fatal(err)
	}
	b.Run("rules=10000/no-state", func(b *testing.B) { run(b, "hook", "claude", "--policy", big, "--no-state") })
	b.Run("rules=10000/warm-state", func(b *testing.B) { run(b, "hook", "claude", "--policy", big) })
}
