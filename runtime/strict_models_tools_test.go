package runtime_test

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/regate/regate/facts"
	"github.com/regate/regate/runtime"
)

// toolsFixture is modelFixture with what git, go, make, npm, tar and curl
// need: a Go module, a Makefile, a package.json, a curl config that
// writes a lock file. toolsSetup makes it a git repository of two
// commits (.env ignored) and packs an archive of one new file.
var toolsFixture = func() map[string]string {
	m := map[string]string{
		".gitignore":   ".env\n",
		"src/main.go":  "package main\n\n// TODO\nfunc main() {}\n",
		"go.mod":       "module fixture\n\ngo 1.22\n",
		"x_test.go":    "package fixture\n\nimport \"testing\"\n\nfunc TestOK(t *testing.T) {}\n",
		"Makefile":     "test:\n\t@echo ok\n",
		"package.json": `{"name": "fixture", "version": "1.0.0", "scripts": {"test": "echo ok"}}` + "\n",
		"curl.cfg":     "output = \"cfg.lock\"\n",
	}
	for name, body := range modelFixture {
		if _, ok := m[name]; !ok && name != ".env.example" {
			m[name] = body
		}
	}
	return m
}()

// toolsSetup makes the fixture a repository with two commits and an
// archive. Go's telemetry is off in the rows' home: on, go writes counters
// there from a process that can outlive the row, and the row's folder
// could not be removed.
const toolsSetup = `set -e
mkdir .home
git init -q
git add -A .
git commit -qm one
echo '// two' >> src/main.go
git commit -qam two
mkdir arc && echo new > arc/new.txt && tar -czf x.tgz -C arc new.txt && rm -r arc
mkdir -p .home/.config/go/telemetry && echo off > .home/.config/go/telemetry/mode && echo .home/ >> .git/info/exclude`

// toolsFS is toolsFixture as the engines see it, at /home/u/repo.
func toolsFS() facts.MapFS {
	fsys := facts.MapFS{}
	for name := range toolsFixture {
		fsys["/home/u/repo/"+name] = "file"
	}
	fsys["/home/u/repo/x.tgz"] = "file:" + newTxtArchive()
	// A git repository whose .gitignore ignores .env, as toolsSetup makes
	// it: git grep reads what git tracks.
	fsys["/home/u/repo/.gitignore"] = "file:" + toolsFixture[".gitignore"]
	fsys["/home/u/repo/.git/HEAD"] = "file"
	return fsys
}

// newTxtArchive is the archive toolsSetup packs: new.txt, gzip-compressed.
func newTxtArchive() string {
	var b bytes.Buffer
	z := gzip.NewWriter(&b)
	tw := tar.NewWriter(z)
	_ = tw.WriteHeader(&tar.Header{Name: "new.txt", Mode: 0o644, Size: 4, Typeflag: tar.TypeReg})
	_, _ = tw.Write([]byte("new\n"))
	_ = tw.Close()
	_ = z.Close()
	return b.String()
}

// toolsPolicy is a typical user policy that lets these programs run, with
// the default policy's secrets and lock files kept out of reach.
const toolsPolicy = `{
  "strict": true,
  "permission": {
    "*": "ask",
    "read": "allow",
    "path": {"*": "allow", "*.env": "deny", "*.env.*": "deny", "*.pem": "deny", "~/.ssh/*": "deny"},
    "write": {"*": "allow", "*.lock": "deny"},
    "edit": {"*": "allow", "*.lock": "deny"},
    "bash": {
      "*": "ask",
      "git *": "allow", "find *": "allow", "fd *": "allow", "rg *": "allow", "jq *": "allow",
      "tar *": "allow", "zip *": "allow", "curl *": "allow", "go *": "allow", "make *": "allow",
      "npm *": "allow", "pnpm *": "allow", "yarn *": "allow", "cat *": "allow", "ls *": "allow"
    }
  }
}`

// toolEngines are toolsPolicy with strict mode and without.
func toolEngines(t *testing.T, fsys facts.MapFS) defaultEngines {
	plain := strings.Replace(toolsPolicy, `"strict": true`, `"strict": false`, 1)
	return defaultEngines{
		strict: newEngine(t, toolsPolicy, runtime.WithFS(fsys)),
		plain:  newEngine(t, plain, runtime.WithFS(fsys)),
	}
}

// toolRun runs cmd in real bash in a fresh copy of the set-up fixture
// (toolsTemplate), with a home of its own (git, curl and npm read no
// configuration of the machine's, go env -w writes there) and go's build
// cache shared. It returns what the command printed and the files it
// created, changed or removed (git's own bookkeeping left out).
func toolRun(t *testing.T, bash, template, cmd string) bashEffect {
	t.Helper()
	dir := t.TempDir()
	run := func(script string) ([]byte, error) {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		c := exec.CommandContext(ctx, bash, "--norc", "--noprofile", "-c", script)
		c.Dir, c.Env, c.Stdin = dir, toolsEnv(dir), strings.NewReader("")
		return c.CombinedOutput()
	}
	if out, err := exec.Command("cp", "-a", template+"/.", dir).CombinedOutput(); err != nil {
		t.Fatalf("copying the fixture: %v\n%s", err, out)
	}
	before := snapshot(dir)
	out, err := run(cmd)
	eff := bashEffect{out: string(out), failed: err != nil}
	after := snapshot(dir)
	for name, body := range after {
		if b, ok := before[name]; !ok || b != body {
			eff.changed = append(eff.changed, name)
		}
	}
	for name := range before {
		if _, ok := after[name]; !ok {
			eff.changed = append(eff.changed, name)
		}
	}
	slices.Sort(eff.changed)
	return eff
}

// toolsTemplate writes toolsFixture under dir and runs toolsSetup there,
// once for every row: each row runs in a copy.
func toolsTemplate(t *testing.T, bash string) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range toolsFixture {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	c := exec.Command(bash, "--norc", "--noprofile", "-c", toolsSetup)
	c.Dir, c.Env, c.Stdin = dir, toolsEnv(dir), strings.NewReader("")
	if out, err := c.CombinedOutput(); err != nil {
		t.Fatalf("setting up the fixture: %v\n%s", err, out)
	}
	return dir
}

// toolsEnv is the environment of a row run in dir.
func toolsEnv(dir string) []string {
	env := append(os.Environ(), "HOME="+filepath.Join(dir, ".home"), "GOENV="+filepath.Join(dir, ".home", "goenv"),
		"GIT_CONFIG_NOSYSTEM=1", "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t",
		"GIT_COMMITTER_EMAIL=t@t", "GOTOOLCHAIN=local", "GOFLAGS=", "npm_config_update_notifier=false")
	if cache := goCache(); cache != "" {
		env = append(env, "GOCACHE="+cache)
	}
	return env
}

// goCache is go's build cache, asked of go once.
var goCache = sync.OnceValue(func() string {
	out, err := exec.Command("go", "env", "GOCACHE").Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
})

// snapshot reads every file under dir but git's index and logs, which
// git status and the like rewrite.
func snapshot(dir string) map[string]string {
	files := map[string]string{}
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		if rel == ".git/index" || strings.HasPrefix(rel, ".git/logs/") || strings.HasPrefix(rel, ".home/.npm/") {
			return nil
		}
		b, _ := os.ReadFile(p)
		files[rel] = string(b)
		return nil
	})
	return files
}

// succeeds proves the command ran without an error.
var succeeds = proof{"succeeds", func(e bashEffect) bool { return !e.failed }}

// touches proves the command created, changed or removed these files
// (among others it may touch).
func touches(files ...string) proof {
	return proof{"touches " + strings.Join(files, ", "), func(e bashEffect) bool {
		for _, f := range files {
			if !slices.Contains(e.changed, f) {
				return false
			}
		}
		return true
	}}
}

// TestStrictToolModels: git, find, rg, jq, tar, zip, curl, go, make and
// npm read as their models say (docs/strict.md, "Argument models"),
// under the bundled default policy and a typical user policy that lets
// these programs run. Every row runs in real bash first (when bash and the
// program are installed) to prove what it does. A harmless call keeps its
// decision (no new prompt); a write meets the write rules; a floor asks
// where the program can do what regate cannot see; and a pattern never
// hides a file that a command reads or deletes. want and plain are the
// default policy with and without strict mode; user and userPlain are the
// user policy's.
func TestStrictToolModels(t *testing.T) {
	fsys := toolsFS()
	def, user := newDefaultEngines(t, fsys), toolEngines(t, fsys)
	bash, _ := exec.LookPath("bash")
	// The rows run in parallel, each in a copy of one set-up fixture.
	template := ""
	if bash != "" {
		template = toolsTemplate(t, bash)
	}

	for _, c := range []struct {
		cmd                         string
		does                        proof
		want, plain, user, userPlan string
	}{
		// Harmless calls keep their decisions.
		{"git status", keepsSecret, "allow", "allow", "allow", "allow"},
		{"git log --oneline -5", keepsSecret, "allow", "allow", "allow", "allow"},
		{"git diff HEAD~1 -- src/main.go", keepsSecret, "allow", "allow", "allow", "allow"},
		{"git log --author=t --since=2.weeks --oneline", keepsSecret, "allow", "allow", "allow", "allow"},
		{"git show --stat HEAD", keepsSecret, "allow", "allow", "allow", "allow"},
		{"git branch", keepsSecret, "allow", "allow", "allow", "allow"},
		{"git tag -l", keepsSecret, "allow", "allow", "allow", "allow"},
		{"git grep -n TODO", keepsSecret, "allow", "allow", "allow", "allow"},
		{"git rev-parse --show-toplevel", keepsSecret, "allow", "allow", "allow", "allow"},
		{"git ls-files", keepsSecret, "allow", "allow", "allow", "allow"},
		{"find . -name '*.go' -type f", keepsSecret, "allow", "allow", "allow", "allow"},
		{"rg -n TODO src", keepsSecret, "allow", "allow", "allow", "allow"},
		{"rg -n TODO", keepsSecret, "allow", "allow", "allow", "allow"},
		{"jq -r .name package.json", keepsSecret, "allow", "allow", "allow", "allow"},
		{"go test ./...", keepsSecret, "ask", "ask", "allow", "allow"},
		{"go vet ./...", keepsSecret, "ask", "ask", "allow", "allow"},
		{"make test", keepsSecret, "ask", "ask", "allow", "allow"},
		{"npm test", keepsSecret, "deny", "deny", "allow", "allow"},
		{"tar -tzf x.tgz", keepsSecret, "ask", "ask", "allow", "allow"},
		{"tar -xOzf x.tgz", keepsSecret, "ask", "ask", "allow", "allow"},
		// The archive's entries are read (facts/archive.go): new.txt is a write the rules allow.
		{"tar -xzf x.tgz", touches("new.txt"), "ask", "ask", "allow", "allow"},
		{"curl -s https://example.com", keepsSecret, "ask", "ask", "allow", "allow"},
		{"tar -czf out.tgz src", touches("out.tgz"), "ask", "ask", "allow", "allow"},
		{"zip -qr out.zip src", touches("out.zip"), "ask", "ask", "allow", "allow"},
		{"git add README.md", succeeds, "ask", "ask", "allow", "allow"},
		{"git commit --allow-empty -qm 'fix: parser'", touches(".git/refs/heads/master"), "ask", "ask", "allow", "allow"},
		{"git stash list", succeeds, "allow", "allow", "allow", "allow"},
		// A branch or a tag changes refs only, as a commit does: the rules
		// that name git decide it.
		{"git branch feature", touches(".git/refs/heads/feature"), "ask", "ask", "allow", "allow"},
		{"git tag v1", touches(".git/refs/tags/v1"), "ask", "ask", "allow", "allow"},
		// .env named as a pattern or a string is not read: not denied.
		{"find . -name .env", keepsSecret, "allow", "deny", "allow", "deny"},
		{"git check-ignore .env", keepsSecret, "allow", "deny", "allow", "deny"},
		// A pattern that selects what a command reads or deletes stays a
		// path: strict mode does not loosen the spec's deny.
		{"find . -name .env -exec cat {} +", printsSecret, "deny", "deny", "deny", "deny"},
		{"find . -name .env -delete", touches(".env"), "deny", "deny", "deny", "deny"},
		{"zip -0qr - . -i .env", printsSecret, "deny", "deny", "deny", "deny"},
		// A read the spec's rules miss.
		{"rg -uu -g .env SECRET .", printsSecret, "deny", "allow", "deny", "allow"},
		{"curl -s -d @.env --libcurl - file:///dev/null", printsSecret, "deny", "ask", "deny", "allow"},
		{`curl -s "file://$PWD/.env"`, printsSecret, "deny", "ask", "deny", "allow"},
		// Writes meet the write rules ("*.lock": deny).
		{"tar -czf out.lock README", touches("out.lock"), "deny", "ask", "deny", "allow"},
		{"tar cf out.lock README", touches("out.lock"), "deny", "ask", "deny", "allow"},
		{"zip -q out.lock README", touches("out.lock"), "deny", "ask", "deny", "allow"},
		{"curl -s -o x.lock file:///dev/null", touches("x.lock"), "deny", "ask", "deny", "allow"},
		{"find . -fprint x.lock", touches("x.lock"), "deny", "allow", "deny", "allow"},
		// What regate cannot see asks.
		{"curl -sK curl.cfg file:///dev/null", touches("cfg.lock"), "ask", "ask", "ask", "allow"},
		{"git config core.pager cat", touches(".git/config"), "ask", "ask", "ask", "allow"},
		{"git -C /tmp log --oneline -1", keepsSecret, "ask", "ask", "ask", "allow"},
		// git -C into a folder below is cd DIR && git: decided as git log.
		{"git -C src log --oneline -1", keepsSecret, "allow", "allow", "allow", "allow"},
		{"git clean -fdx", touches(".env"), "ask", "ask", "ask", "allow"},
		{"go env -w GOFLAGS=-v", touches(".home/goenv"), "ask", "ask", "ask", "allow"},
		{"make test SHELL=/bin/sh", keepsSecret, "ask", "ask", "ask", "allow"},
		{"git log --onel", rejected, "ask", "allow", "ask", "allow"},
	} {
		t.Run(c.cmd, func(t *testing.T) {
			t.Parallel()
			program, _, _ := strings.Cut(c.cmd, " ")
			if _, err := exec.LookPath(program); bash != "" && err == nil {
				if eff := toolRun(t, bash, template, c.cmd); !c.does.holds(eff) {
					t.Fatalf("bash -c %q does not do what the row says (%s): %+v", c.cmd, c.does.says, eff)
				}
			}
			t.Run("default", func(t *testing.T) { def.check(t, c.cmd, c.want, c.plain) })
			t.Run("user", func(t *testing.T) { user.check(t, c.cmd, c.user, c.userPlan) })
		})
	}
}
