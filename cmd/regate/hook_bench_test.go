package main

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"testing"
)

// BenchmarkHookProcess runs one `regate hook claude` process per call, as
// Claude Code does: process start, policy compile and prepare, decision,
// answer. Run it with a small -benchtime (each iteration is a process).
func BenchmarkHookProcess(b *testing.B) {
	bin := filepath.Join(b.TempDir(), "regate")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	in := []byte(`{"session_id":"s1","cwd":"/repo","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git status && rm -rf build"}}`)
	for b.Loop() {
		cmd := exec.Command(bin, "hook", "claude")
		cmd.Stdin = bytes.NewReader(in)
		out, err := cmd.Output()
		if err != nil || !bytes.Contains(out, []byte(`"permissionDecision":"deny"`)) {
			b.Fatalf("%v: %s", err, out)
		}
	}
}
