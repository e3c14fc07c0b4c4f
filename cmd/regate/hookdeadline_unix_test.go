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

// A policy file that never finishes opening (a FIFO with no writer, as a
// hung mount would be) blocks the call within the deadline: the worker is
// stuck in open(2), which no context interrupts, and the answer does not
// wait for it.
func TestHookDeadlineBlocksAPolicyThatHangs(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "policy.jsonc")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no FIFO here: %v", err)
	}
	t.Cleanup(func() {
		// Give the stuck worker a writer and an end of file, so it returns.
		if f, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil {
			f.Close()
		}
	})
	in := `{"session_id": "s", "cwd": "/repo", "hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "ls"}}`
	var stdout, stderr bytes.Buffer
	start := time.Now()
	code := Main([]string{"hook", "claude", "--no-state", "--policy", fifo, "--deadline", "300ms"}, strings.NewReader(in), &stdout, &stderr)
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("answered after %s", took)
	}
	if code != 2 || !strings.Contains(stderr.String(), "regate did not decide within 300ms") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout.String(), stderr.String())
	}
}
