package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/tailscale/hujson"
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

// TestPolicyDocExamples checks every whole rule file that docs/policy.md
// shows (a jsonc block that is one object): regate check finds no problem
// in it and its inline examples pass, so the reference cannot drift from
// what the compiler accepts.
func TestPolicyDocExamples(t *testing.T) {
	doc, err := os.ReadFile("../../docs/policy.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)```jsonc\n(.*?)```").FindAllSubmatch(doc, -1)
	checked := 0
	dir := t.TempDir()
	for i, b := range blocks {
		src := b[1]
		if _, err := hujson.Parse(src); err != nil {
			continue // a fragment, or several files in one block
		}
		name := fmt.Sprintf("policy-%d.jsonc", i)
		if bytes.Contains(src, []byte("hard-guards.schema.json")) {
			name = fmt.Sprintf("hard-guards-%d.jsonc", i)
		}
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, src, 0o600); err != nil {
			t.Fatal(err)
		}
		var stdout, stderr bytes.Buffer
		if code := Main([]string{"check", path, "--home", "/home/u"}, nil, &stdout, &stderr); code != 0 || stdout.String() != "0 errors, 0 warnings\n" {
			t.Errorf("docs/policy.md block %d: regate check exit %d:\n%s%s\n%s", i, code, stdout.String(), stderr.String(), src)
		}
		checked++
	}
	t.Logf("%d rule files of docs/policy.md checked", checked)
	if checked < 4 {
		t.Errorf("only %d whole rule files found in docs/policy.md", checked)
	}
}
