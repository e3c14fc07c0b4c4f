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

// gitApplyRepo is the repository every case of TestGitApplyWritesWhatGitWrites
// starts from; its script then writes the patch p.diff (with git or diff)
// and leaves the work tree as committed.
const gitApplyRepo = `git init -q . && mkdir -p src docs sub && echo a > README.md && echo 'package a' > src/a.go &&
echo doc > docs/x.md && printf '#!/bin/sh\n' > run.sh && echo 'x' > 'my file.txt' && echo .env > .gitignore &&
echo s > sub/s.txt && echo SECRET=1 > .env && git add . && git commit -qm init
`

// TestGitApplyWritesWhatGitWrites runs git apply on patches of every
// shape in a real repository and requires that strict mode's write checks
// (facts' role patch) name every file git changed: a patch is a write of
// each file it names, not a read of the patch alone.
func TestGitApplyWritesWhatGitWrites(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	cases := []struct {
		name, script, cmd, cwd string
		exact                  bool // regate's writes are exactly git's
	}{
		{"change", `echo b > README.md && git diff > p.diff && git checkout -q .`, "git apply p.diff", "", true},
		{"new file", `mkdir -p new/dir && echo n > new/dir/f.txt && git add -N new && git diff > p.diff && git rm -q --cached -r new && rm -r new`, "git apply p.diff", "", true},
		{"delete", `git rm -q src/a.go && git diff --cached > p.diff && git reset -q --hard`, "git apply p.diff", "", true},
		{"rename", `git mv docs/x.md docs/y.md && git diff --cached -M > p.diff && git reset -q --hard`, "git apply p.diff", "", true},
		{"copy", `cp README.md COPY.md && git add COPY.md && git diff --cached -C --find-copies-harder > p.diff && git reset -q --hard`, "git apply p.diff", "", true},
		{"mode", `chmod +x run.sh && git diff > p.diff && git checkout -q . && chmod -x run.sh`, "git apply p.diff", "", true},
		{"quoted name", `echo y > 'my file.txt' && git diff > p.diff && git checkout -q .`, "git apply p.diff", "", true},
		{"binary", `printf '\x00\x01\x02' > src/a.go && git diff --binary > p.diff && git checkout -q .`, "git apply p.diff", "", true},
		{"the secret", `git add -f .env && git commit -qm env && echo SECRET=2 > .env && git diff > p.diff && git checkout -q .`, "git apply p.diff", "", true},
		{"two patches", `echo b > README.md && git diff > p.diff && git checkout -q . && echo c > docs/x.md && git diff > q.diff && git checkout -q .`, "git apply p.diff q.diff", "", true},
		{"traditional", `mkdir -p a/docs b/docs && cp docs/x.md a/docs/x.md && echo changed > b/docs/x.md && (diff -u a/docs/x.md b/docs/x.md > p.diff; true) && rm -r a b`, "git apply p.diff", "", false},
		{"traditional p0", `cp docs/x.md x.orig && echo changed > docs/x.md && (diff -u x.orig docs/x.md | sed 's#^--- x.orig#--- docs/x.md#' > p.diff; true) && git checkout -q . && rm x.orig`, "git apply -p0 p.diff", "", false},
		{"directory", `echo b > docs/x.md && (cd docs && git diff --relative > ../p.diff) && git checkout -q .`, "git apply --directory=docs p.diff", "", true},
		{"from a subfolder", `echo t > sub/s.txt && git diff > p.diff && git checkout -q . && mv p.diff sub/`, "git apply p.diff", "sub", true},
		{"index too", `echo b > src/a.go && git diff > p.diff && git checkout -q .`, "git apply --index p.diff", "", true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := gitFixture(t, gitApplyRepo+tc.script)
			cwd := filepath.Join(dir, tc.cwd)
			e := newEngine(t, `{"strict": true, "bash": {"*": "allow"}}`, runtime.WithFS(facts.OSFS{}), runtime.WithCwd(cwd))
			var ours []string
			for _, c := range e.Facts(facts.Call{Tool: "bash", Input: map[string]any{"command": tc.cmd}}).Checks {
				if c.Surface == "write" {
					ours = append(ours, c.Value)
				}
				if c.Strict != "" {
					t.Errorf("strict mode asks: %s", c.Strict)
				}
			}
			before := withModes(dir, snapshot(dir))
			run := exec.Command("bash", "-c", tc.cmd)
			run.Dir, run.Env = cwd, gitEnv(dir)
			if out, err := run.CombinedOutput(); err != nil {
				t.Fatalf("%s: %v\n%s", tc.cmd, err, out)
			}
			checkWrites(t, tc.cmd, ours, changedPaths(dir, before, withModes(dir, snapshot(dir))), tc.exact)
		})
	}
}

// checkWrites holds regate's writes for cmd (ours) to the files the real
// program changed: every one of them is among ours, and, when exact, ours
// are no more.
func checkWrites(t *testing.T, cmd string, ours, changed []string, exact bool) {
	t.Helper()
	if len(changed) == 0 {
		t.Fatalf("%s changed nothing: the case does not test a write", cmd)
	}
	for _, p := range changed {
		if !slices.Contains(ours, p) {
			t.Errorf("%s wrote %s; regate's writes: %v", cmd, p, ours)
		}
	}
	if exact {
		for _, p := range ours {
			if !slices.Contains(changed, p) {
				t.Errorf("regate gates a write of %s, which %s did not write (it wrote %v)", p, cmd, changed)
			}
		}
	}
}

// TestGitApplyOfASecretIsDenied: under a policy that allows git and
// denies writes of .env, applying a patch to .env is denied; the same
// patch with --check (which writes nothing) and a patch of another file
// are allowed.
func TestGitApplyOfASecretIsDenied(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	dir := gitFixture(t, gitApplyRepo+`git add -f .env && git commit -qm env && echo SECRET=2 > .env && git diff > env.diff &&
echo b > README.md && git diff README.md > ok.diff && git checkout -q . &&
(cat ok.diff && printf -- '--- a/.env\n+++ b/.env\n@@ -1 +1 @@\n-SECRET=1\n+SECRET=3\n') > mixed.diff`)
	e := newEngine(t, `{"strict": true, "permission": {"*": "ask", "bash": {"*": "ask", "git *": "allow"}, "path": {"*": "allow"}, "read": {"*": "allow"}, "write": {"*": "allow", "*.env": "deny"}}}`,
		runtime.WithFS(facts.OSFS{}), runtime.WithCwd(dir))
	for cmd, want := range map[string]string{
		"git apply env.diff":         "deny",
		"git apply ok.diff env.diff": "deny",
		"git apply --check env.diff": "allow",
		"git apply ok.diff":          "allow",
		"git apply < env.diff":       "deny", // the patch from standard input, a file
		"git apply < ok.diff":        "allow",
		"cat env.diff | git apply":   "ask", // a pipe regate does not read
		"git apply 3< ok.diff":       "ask", // descriptor 3, not the input
		"git apply -p$N ok.diff":     "ask",
		// git applies a traditional header after a git diff too (checked
		// with git 2.39: both files change); regate asks for such a mix
		"git apply mixed.diff": "ask",
	} {
		d, err := e.Decide(context.Background(), facts.Call{Tool: "bash", Input: map[string]any{"command": cmd}})
		if err != nil {
			t.Fatal(err)
		}
		if string(d.Action) != want {
			t.Errorf("%s: %s (%s), want %s", cmd, d.Action, d.Message, want)
		}
	}
}

// withModes adds each file's mode to its snapshot: a patch may change a
// mode alone.
func withModes(dir string, files map[string]string) map[string]string {
	for rel, content := range files {
		if info, err := os.Lstat(filepath.Join(dir, rel)); err == nil {
			files[rel] = info.Mode().String() + content
		}
	}
	return files
}

// changedPaths are the files below dir that differ between two
// snapshots (strict_models_tools_test.go), as absolute paths; what git
// keeps in .git is left out.
func changedPaths(dir string, before, after map[string]string) []string {
	var out []string
	for p, v := range after {
		if before[p] != v {
			out = append(out, filepath.Join(dir, p))
		}
	}
	for p := range before {
		if _, ok := after[p]; !ok {
			out = append(out, filepath.Join(dir, p))
		}
	}
	out = slices.DeleteFunc(out, func(p string) bool { return strings.Contains(p, "/.git/") })
	slices.Sort(out)
	return out
}

// TestGitApplyFromAHeredoc: a patch given to git apply by a heredoc whose
// text is literal is read as a patch file is; the real git applies it and
// regate's writes are exactly the files git changed. A heredoc bash would
// expand, a pipe and a redirect from a file ask.
func TestGitApplyFromAHeredoc(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	const patch = "diff --git a/docs/x.md b/docs/x.md\n--- a/docs/x.md\n+++ b/docs/x.md\n@@ -1 +1 @@\n-doc\n+changed\n" +
		"diff --git a/README.md b/NEW.md\nsimilarity index 100%\nrename from README.md\nrename to NEW.md\n"
	dir := gitFixture(t, gitApplyRepo)
	e := newEngine(t, `{"strict": true, "permission": {"*": "ask", "bash": {"*": "ask", "git *": "allow"}, "path": {"*": "allow"}, "read": {"*": "allow"}, "write": {"*": "allow", "*.env": "deny", "NEW.md": "deny"}}}`,
		runtime.WithFS(facts.OSFS{}), runtime.WithCwd(dir))
	cmd := "git apply <<'EOF'\n" + patch + "EOF\n"
	var ours []string
	for _, c := range e.Facts(facts.Call{Tool: "bash", Input: map[string]any{"command": cmd}}).Checks {
		if c.Surface == "write" {
			ours = append(ours, c.Value)
		}
	}
	before := withModes(dir, snapshot(dir))
	run := exec.Command("bash", "-c", cmd)
	run.Dir, run.Env = dir, gitEnv(dir)
	if out, err := run.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", cmd, err, out)
	}
	changed := changedPaths(dir, before, withModes(dir, snapshot(dir)))
	slices.Sort(ours)
	if !slices.Equal(ours, changed) {
		t.Errorf("regate's writes %v; git changed %v", ours, changed)
	}
	for cmd, want := range map[string]string{
		cmd: "deny", // NEW.md is denied
		"git apply <<'EOF'\n" + strings.ReplaceAll(patch[:strings.Index(patch, "diff --git a/README")], "docs/x.md", ".env") + "EOF\n": "deny",
		"git apply <<'EOF'\n" + patch[:strings.Index(patch, "diff --git a/README")] + "EOF\n":                                          "allow",
		"git apply <<EOF\n" + strings.ReplaceAll(patch, "+changed", "+$X") + "EOF\n":                                                   "ask",
		"cat p.diff | git apply":                        "ask",
		"git apply --check <<'EOF'\n" + patch + "EOF\n": "allow",
	} {
		d, err := e.Decide(context.Background(), facts.Call{Tool: "bash", Input: map[string]any{"command": cmd}})
		if err != nil || string(d.Action) != want {
			t.Errorf("%q: %s (%s, %v); want %s", cmd, d.Action, d.Message, err, want)
		}
	}
}
