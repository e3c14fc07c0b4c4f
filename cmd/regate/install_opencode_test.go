package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The loader install writes for OpenCode runs regate's plugin with the
// installed settings: checked in OpenCode's own runtime (its binary is Bun,
// and BUN_BE_BUN=1 makes it run a script), with a stub regate that records
// how it was called and denies.
func TestOpenCodeLoaderRunsThePlugin(t *testing.T) {
	cache, err := os.UserCacheDir()
	if err != nil {
		t.Skip("no cache folder")
	}
	found, _ := filepath.Glob(filepath.Join(cache, "regate-e2e", "node_modules", "opencode-*", "bin", "opencode"))
	if len(found) == 0 {
		t.Skip("OpenCode is not installed here")
	}
	dir := lastingFolder(t)
	project := filepath.Join(dir, "project")
	os.MkdirAll(filepath.Join(project, ".regate"), 0o755)
	os.MkdirAll(filepath.Join(project, "sub"), 0o755)
	os.WriteFile(filepath.Join(project, ".regate", "policy.jsonc"), []byte(`{"permission": {"*": "allow"}}`), 0o644)
	bin := filepath.Join(dir, "bin")
	os.MkdirAll(bin, 0o755)
	record := filepath.Join(dir, "called")
	os.WriteFile(filepath.Join(bin, "regate"), []byte("#!/bin/sh\necho \"$@\" > "+record+"\ncat >> "+record+"\necho '{\"decision\":\"deny\",\"reason\":\"stub denies\"}'\n"), 0o755)
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	t.Chdir(project)

	var stdout, stderr bytes.Buffer
	// --force: this regate may not have the opencode codec yet.
	if code := Main([]string{"install", "opencode", "--project", "--policy", ".regate/policy.jsonc", "--write", "--force"}, nil, &stdout, &stderr); code != 0 {
		t.Fatalf("install: exit %d: %s", code, stderr.String())
	}
	script := filepath.Join(dir, "run.ts")
	os.WriteFile(script, []byte(`const { Regate } = await import(process.argv[2]);
const p = await Regate({ directory: process.argv[3] });
try {
  await p["tool.execute.before"]({ tool: "bash", sessionID: "s", callID: "c" }, { args: { command: "rm -rf /" } });
  console.log("ALLOWED");
} catch (e) { console.log("BLOCKED: " + (e as Error).message); }
`), 0o644)
	cmd := exec.Command(found[0], script, filepath.Join(project, ".opencode", "plugin", "regate.ts"), filepath.Join(project, "sub"))
	cmd.Env = append(os.Environ(), "BUN_BE_BUN=1")
	out, err := cmd.CombinedOutput()
	if err != nil || strings.TrimSpace(string(out)) != "BLOCKED: stub denies" {
		t.Fatalf("err %v, output %s", err, out)
	}
	called, _ := os.ReadFile(record)
	want := "hook opencode --policy " + filepath.Join(project, ".regate", "policy.jsonc") + " --deadline 10s\n"
	if !strings.HasPrefix(string(called), want) || !strings.Contains(string(called), `"command":"rm -rf /"`) {
		t.Errorf("regate was called with\n%s\nwant the first line %q", called, want)
	}
}
