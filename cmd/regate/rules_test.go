//go:build unix

package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestHookRefusesAFifoPolicy: a FIFO at the policy path (nobody writing
// it) is refused at once with the host's block and the reason, instead of
// hanging the hook until the host's own timeout lets the call run (issue
// 20). An open that hangs for another reason (a hung network mount) is
// still answered by the hook's deadline (TestHookDeadlineBlocksASlowDecision).
func TestHookRefusesAFifoPolicy(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("REGATE_STATE_DIR", filepath.Join(dir, "state"))
	fifo := filepath.Join(dir, "policy.jsonc")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
	in := strings.NewReader(`{"tool_name": "Bash", "tool_input": {"command": "ls"}, "hook_event_name": "PreToolUse"}`)
	var stdout, stderr bytes.Buffer
	done := make(chan int, 1)
	go func() { done <- Main([]string{"hook", "claude", "--policy", fifo}, in, &stdout, &stderr) }()
	select {
	case code := <-done:
		if code != 2 || !strings.Contains(stderr.String(), "not a regular file") {
			t.Fatalf("exit %d, stderr %q; want the block (2) naming the file", code, stderr.String())
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the hook is still reading the FIFO after 5 s")
	}
}

// TestAgentFolderIsListedNotGlobbed: an agents folder whose name holds
// glob characters names only itself; a glob of it would read a sibling.
func TestAgentFolderIsListedNotGlobbed(t *testing.T) {
	root := t.TempDir()
	for name, file := range map[string]string{"agents[x]": "mine.md", "agentsx": "sibling.md"} {
		if err := os.MkdirAll(filepath.Join(root, name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, name, file), []byte("---\nname: a\n---\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	files, err := agentFiles(filepath.Join(root, "agents[x]"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 1 || filepath.Base(files[0]) != "mine.md" {
		t.Fatalf("agent files %v; want only agents[x]/mine.md", files)
	}
}

// TestDiagnosticsAreOneLineEach: a key or an agent file name holding a
// newline or an escape sequence cannot fake a line of output or drive the
// terminal.
func TestDiagnosticsAreOneLineEach(t *testing.T) {
	dir := t.TempDir()
	agents := filepath.Join(dir, "agents")
	if err := os.MkdirAll(agents, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(agents, "x\nregate: all clear\x1b[2J.md"), []byte("---\nname: [\n---\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	policy := filepath.Join(dir, "policy.jsonc")
	if err := os.WriteFile(policy, []byte("{\"permission\": {\"*\": \"ask\"}, \"k\\nfake line\\u001b[31m\": 1}"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	rf := ruleFlags{policy: policy, agentDirs: []string{agents}, cwd: dir}
	_, _ = rf.compile(&out)
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != 2 || strings.ContainsRune(out.String(), 0x1b) {
		t.Fatalf("want 2 escaped diagnostic lines, got %d:\n%s", len(lines), out.String())
	}
}
