package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
)

// TestBundledPoliciesPassRegateTest runs `regate test` on every policy
// under policies/ (the default with the bundled hard guards and agents):
// OPA's tester over the library's tests and each policy's inline examples.
func TestBundledPoliciesPassRegateTest(t *testing.T) {
	files, err := filepath.Glob("../../policies/*.jsonc")
	if err != nil || len(files) < 5 {
		t.Fatalf("bundled policies: %v %v", files, err)
	}
	for _, f := range files {
		if strings.HasPrefix(filepath.Base(f), "hard-guards") {
			continue
		}
		args := []string{"test", "--policy", f, "--home", "/home/u"}
		if filepath.Base(f) == "default.jsonc" {
			args = append(args, "--hard-guards", "../../policies/hard-guards.jsonc", "--agents-dir", "../../policies/agents")
		}
		var stdout, stderr bytes.Buffer
		if code := Main(args, nil, &stdout, &stderr); code != 0 {
			t.Errorf("regate %s: exit %d\n%s%s", strings.Join(args, " "), code, stdout.String(), stderr.String())
			continue
		}
		if !strings.Contains(stdout.String(), "PASS: ") || strings.Contains(stdout.String(), "FAIL") {
			t.Errorf("regate %s:\n%s", strings.Join(args, " "), stdout.String())
		}
	}
}
