package runtime_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/regate/regate/facts"
	"github.com/regate/regate/runtime"
)

// TestRecursiveChanges: rm -r, chmod -R, chown -R, chgrp -R and mv change
// every entry below the folders they are given (argmodel role tree-write):
// under strict mode each entry meets the path and write rules, so removing
// or opening up a folder that holds .env or a key asks (a deny capped at
// ask: the person named the folder, not the file), while a folder that
// holds nothing a rule protects stays allowed. Each row first runs in real
// bash and checks which files it changed (removed, or their mode changed):
// rm refuses a folder without -r, and -- ends the options.
func TestRecursiveChanges(t *testing.T) {
	files := []string{"src/main.go", "build/out.js", "config/.env", "config/app.yaml", "keys/id.pem", "README.md"}
	fixture := facts.MapFS{}
	for _, f := range files {
		fixture["/home/u/repo/"+f] = "file"
	}
	developer := newEngine(t, readPolicy(t, "developer.jsonc"), runtime.WithFS(fixture))
	for _, c := range []struct {
		cmd       string
		changed   []string
		developer string
	}{
		{"rm -rf build", []string{"build/out.js"}, "allow"},
		{"rm -r src build", []string{"src/main.go", "build/out.js"}, "allow"},
		{"rm -rf config", []string{"config/.env", "config/app.yaml"}, "ask"},
		{"rm -Rf keys", []string{"keys/id.pem"}, "ask"},
		{"rm --recursive --force config/", []string{"config/.env", "config/app.yaml"}, "ask"},
		{"rm -f -r -- config", []string{"config/.env", "config/app.yaml"}, "ask"},
		{"rm -rf ./config/../keys", []string{"keys/id.pem"}, "ask"},
		{"rm -rf c*", []string{"config/.env", "config/app.yaml"}, "ask"},
		{"rm -r config/.env", []string{"config/.env"}, "deny"},
		{"rm config", nil, "allow"}, // a folder without -r: rm refuses it
		{"rm -rf src/main.go", []string{"src/main.go"}, "allow"},
		{"chmod -R go-rwx config", []string{"config/.env", "config/app.yaml"}, "ask"},
		{"chmod -R 700 build", []string{"build/out.js"}, "allow"},
		{"chmod --recursive 600 keys", []string{"keys/id.pem"}, "ask"},
		// mv moves every entry of a folder it is given (sixth stop of
		// 2026-12-07: mv config settings moved config/.env unasked).
		{"mv config settings", []string{"config/.env", "config/app.yaml"}, "ask"},
		{"mv -f -- keys/ k", []string{"keys/id.pem"}, "ask"},
		{"mv build dist", []string{"build/out.js"}, "allow"},
		{"mv src/main.go src/app.go", []string{"src/main.go"}, "allow"},
		{"mv -t src build", []string{"build/out.js"}, "allow"},
		{"mv -t src config", []string{"config/.env", "config/app.yaml"}, "ask"},
	} {
		t.Run(c.cmd, func(t *testing.T) {
			if dir := runAmong(t, files, c.cmd); dir != "" {
				for _, f := range files {
					fi, err := os.Stat(filepath.Join(dir, f))
					changed := os.IsNotExist(err) || (err == nil && fi.Mode().Perm() != 0o644)
					if want := slices.Contains(c.changed, f); changed != want {
						t.Fatalf("bash -c %q: %s changed %v, the row says %v", c.cmd, f, changed, want)
					}
				}
			}
			call := facts.Call{Tool: "bash", Input: map[string]any{"command": c.cmd}}
			d, err := developer.Decide(context.Background(), call)
			if err != nil || string(d.Action) != c.developer {
				t.Errorf("developer policy: %s (%s, %v); want %s", d.Action, d.Matched, err, c.developer)
			}
			if d.Action == "ask" && !strings.HasPrefix(d.Reason, "changing the folder ") {
				t.Errorf("the reason %q does not say the folder is changed", d.Reason)
			}
		})
	}
}

// TestGitRemovesFolders: git rm -r deletes the tracked files below the
// folders it is given, from the work tree as well as the index, and git mv
// moves them: a recursive change, walked as rm -r's is (git rm -r config
// deleted a tracked config/.env unasked before the fifth stop of
// 2026-12-07, git mv config x moved it before the sixth). With --cached it
// changes only the index, which reads no file. Each row first runs in real
// git and checks whether the .env is gone.
func TestGitRemovesFolders(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	const setup = `mkdir config src && echo 'TOKEN=1' > config/.env && echo 'a: 1' > config/app.yaml &&
echo 'package a' > src/a.go && git init -q && git add -A && git commit -qm one`
	developer := readPolicy(t, "developer.jsonc")
	for _, c := range []struct {
		cmd     string
		removes bool // config/.env
		want    string
	}{
		{"git rm -r -q config", true, "ask"},
		{"git rm -rq config", true, "ask"},
		{"git rm -r -q --cached config", false, "allow"},
		{"git rm -r -q src", false, "allow"},
		{"git mv config settings", true, "ask"},
		{"git mv src lib", false, "allow"},
	} {
		t.Run(c.cmd, func(t *testing.T) {
			repo := gitFixture(t, setup)
			run := exec.Command("bash", "-c", c.cmd)
			run.Dir, run.Env = repo, gitEnv(repo)
			if out, err := run.CombinedOutput(); err != nil {
				t.Fatalf("%s: %v\n%s", c.cmd, err, out)
			}
			_, err := os.Stat(filepath.Join(repo, "config/.env"))
			if gone := os.IsNotExist(err); gone != c.removes {
				t.Fatalf("%s: config/.env removed %v, the row says %v", c.cmd, gone, c.removes)
			}
			fresh := gitFixture(t, setup)
			e := newEngine(t, developer, runtime.WithFS(facts.OSFS{}), runtime.WithCwd(fresh), runtime.WithCacheSize(0))
			d, err := e.Decide(context.Background(), facts.Call{Tool: "bash", Input: map[string]any{"command": c.cmd}})
			if err != nil || string(d.Action) != c.want {
				t.Errorf("%s: %s (%s, %v); want %s", c.cmd, d.Action, d.Matched, err, c.want)
			}
		})
	}
}
