package runtime_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/regate/regate/facts"
	"github.com/regate/regate/runtime"
)

// TestRulesDoNotReachAboveTheirFolder: a rule's "*" matches text, so
// "bash scripts/*" and "./scripts/*" (the developer policy's project
// scripts) met bash scripts/../../tmp/x.sh, which runs a script outside
// scripts/ (allowed before the sixth stop of 2026-12-07). Strict mode now
// also decides the unit with its ".." resolved, by every rule: the
// resolved text is not a project script, and asks. Without strict mode
// the specification's reading (the text as written) stands. Real bash
// first shows that the spelling runs the script outside the folder.
func TestRulesDoNotReachAboveTheirFolder(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "scripts"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, body := range map[string]string{"scripts/build.sh": "echo BUILD\n", "outside.sh": "echo OUTSIDE\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("#!/bin/sh\n"+body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if bash, err := exec.LookPath("bash"); err == nil {
		run := exec.Command(bash, "--norc", "-c", "bash scripts/../outside.sh && ./scripts/../outside.sh")
		run.Dir = dir
		if out, err := run.CombinedOutput(); err != nil || strings.Count(string(out), "OUTSIDE") != 2 {
			t.Fatalf("the spellings did not run the script outside scripts/: %v\n%s", err, out)
		}
	}
	const rules = `"permission": {"*": "ask", "bash": {"*": "ask", "bash scripts/*": "allow", "./scripts/*": "allow", "cat *": "allow"}}`
	strict := newEngine(t, `{"strict": true, `+rules+`}`, runtime.WithFS(facts.OSFS{}), runtime.WithCwd(dir))
	plain := newEngine(t, `{`+rules+`}`, runtime.WithFS(facts.OSFS{}), runtime.WithCwd(dir))
	decideUnderBoth(t, strict, plain, []policyRow{
		{"bash scripts/../outside.sh", "ask", "allow"},
		{"./scripts/../outside.sh", "ask", "allow"},
		{"bash scripts/sub/../build.sh", "allow", "allow"},
		{"./scripts/build.sh", "allow", "allow"},
		{"bash scripts/build.sh", "allow", "allow"},
		{"cat scripts/../outside.sh", "allow", "allow"},
	})
}
