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

	"github.com/regate/regate/compiler"
)

// TestDelegateReadsPolicyFilesAsRuleFiles: a delegation policy or request
// file is read as every rule file is: a FIFO is refused at once instead of
// hanging, and a file past compiler.MaxFileSize is refused with its
// position, both exit 2.
func TestDelegateReadsPolicyFilesAsRuleFiles(t *testing.T) {
	dir := t.TempDir()
	planner := filepath.Join(dir, "planner.jsonc")
	if err := os.WriteFile(planner, []byte(`{"allowed_tools": ["read_*"]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo.jsonc")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
	large := filepath.Join(dir, "large.jsonc")
	if err := os.WriteFile(large, append([]byte(`{"allowed_tools": []}`), bytes.Repeat([]byte(" "), compiler.MaxFileSize)...), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"fifo child", []string{"delegate", "subset", fifo, planner}, "not a regular file"},
		{"fifo request", []string{"delegate", "narrow", planner, fifo}, "not a regular file"},
		{"fifo check", []string{"delegate", "check", fifo}, "not a regular file"},
		{"large child", []string{"delegate", "subset", large, planner}, "file_too_large"},
		{"large request", []string{"delegate", "narrow", planner, large}, "file_too_large"},
	} {
		var stdout, stderr bytes.Buffer
		done := make(chan int, 1)
		go func() { done <- Main(c.args, strings.NewReader(""), &stdout, &stderr) }()
		select {
		case code := <-done:
			if out := stdout.String() + stderr.String(); code != exitBadRules || !strings.Contains(out, c.want) {
				t.Errorf("%s: exit %d, output %q; want %d and %q", c.name, code, out, exitBadRules, c.want)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: still reading after 5 s", c.name)
		}
	}
}
