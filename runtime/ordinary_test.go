package runtime_test

import (
	"bufio"
	"context"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path"
	"slices"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/index"

	"github.com/regate/regate/facts"
	"github.com/regate/regate/internal/testkit/golden"
	"github.com/regate/regate/policies"
	"github.com/regate/regate/runtime"
)

// The ordinary-work corpus (issue 33): testdata/ordinary/commands.txt holds
// the commands coding agents run in a day's work, written for the corpus
// rather than from the program models, and project.txt the project they run
// in. TestOrdinaryCommands decides every one under the bundled default
// policy and under policies/developer.jsonc (strict mode on in both) and
// holds the targets docs/strict.md reports:
//   - default policy: no read-only command asks or is denied, except one
//     marked as reading a secret ("read!");
//   - developer policy: at most 2% of all commands ask or are denied.
//
// Both are not met yet: the test holds the figures reached
// (maxDefaultReadAsks, maxDeveloperNotAllowed), so that a change can only
// lower them, and logs the distance to the targets. Every decision is
// written to testdata/ordinary/decisions.golden (UPDATE_GOLDEN=1 rewrites
// it), so a change to a model or a policy shows which commands it moved.
const ordinaryDir = "../testdata/ordinary/"

// The figures reached, reported in docs/strict.md ("Ordinary work"): lower
// them as the remaining cases are fixed; never raise them.
const (
	maxDefaultReadAsks     = 3
	maxDeveloperNotAllowed = 10
)

type ordinaryCommand struct {
	kind   string // read, build, git, edit, net, push
	secret bool   // "read!": it reads a secret, so asking is right
	cmd    string
}

func TestOrdinaryCommands(t *testing.T) {
	cmds := readOrdinaryCommands(t)
	if len(cmds) < 200 {
		t.Fatalf("the corpus has %d commands; issue 33 asks for at least 200", len(cmds))
	}
	fsys := readOrdinaryProject(t)
	engines := []struct {
		name   string
		engine *runtime.Engine
	}{
		{"default", newDefaultEngines(t, fsys).strict},
		{"developer", newEngine(t, readPolicy(t, "developer.jsonc"), runtime.WithFS(fsys))},
	}
	var report strings.Builder
	fmt.Fprintf(&report, "# %-9s %-9s %-6s %-40s %s\n", "default", "developer", "kind", "matched (default / developer)", "command")
	notAllowed := map[string]int{}
	var readAsks []string
	for _, c := range cmds {
		call := facts.Call{Tool: "bash", Input: map[string]any{"command": c.cmd}}
		var actions, matched [2]string
		for i, e := range engines {
			d, err := e.engine.Decide(context.Background(), call)
			if err != nil {
				t.Fatalf("%s: %s: %v", e.name, c.cmd, err)
			}
			actions[i], matched[i] = string(d.Action), d.Matched
			if d.Action != "allow" {
				notAllowed[e.name]++
			}
		}
		kind := c.kind
		if c.secret {
			kind += "!"
		}
		fmt.Fprintf(&report, "%-11s %-9s %-6s %-40s %s\n", actions[0], actions[1], kind, matched[0]+" / "+matched[1], c.cmd)
		if c.kind == "read" && !c.secret && actions[0] != "allow" {
			readAsks = append(readAsks, fmt.Sprintf("%s (%s): %s", actions[0], matched[0], c.cmd))
		}
	}
	rate := float64(notAllowed["developer"]) / float64(len(cmds))
	fmt.Fprintf(&report, "# %d commands; read-only commands not allowed by default: %d; not allowed: default %d, developer %d (%.1f%%)\n",
		len(cmds), len(readAsks), notAllowed["default"], notAllowed["developer"], 100*rate)
	if len(readAsks) > maxDefaultReadAsks {
		t.Errorf("default policy: %d read-only commands ask or are denied, more than the %d reached before:\n%s",
			len(readAsks), maxDefaultReadAsks, strings.Join(readAsks, "\n"))
	} else if len(readAsks) > 0 {
		t.Logf("default policy: %d read-only commands still ask (the target is 0):\n%s", len(readAsks), strings.Join(readAsks, "\n"))
	}
	if notAllowed["developer"] > maxDeveloperNotAllowed {
		t.Errorf("developer policy: %d of %d commands (%.1f%%) ask or are denied, more than the %d reached before",
			notAllowed["developer"], len(cmds), 100*rate, maxDeveloperNotAllowed)
	} else if rate > 0.02 {
		t.Logf("developer policy: %d of %d commands (%.1f%%) ask or are denied; the target is at most 2%%",
			notAllowed["developer"], len(cmds), 100*rate)
	}
	checkPlainGolden(t, ordinaryDir+"decisions.golden", report.String())
}

func readOrdinaryCommands(t *testing.T) []ordinaryCommand {
	t.Helper()
	var cmds []ordinaryCommand
	eachLine(t, ordinaryDir+"commands.txt", func(line string) {
		kind, cmd, ok := strings.Cut(line, "\t")
		if !ok {
			t.Fatalf("commands.txt: no tab in %q", line)
		}
		c := ordinaryCommand{cmd: cmd}
		c.kind, c.secret = strings.CutSuffix(kind, "!")
		switch c.kind {
		case "read", "build", "git", "edit", "net", "push":
		default:
			t.Fatalf("commands.txt: unknown kind %q", kind)
		}
		cmds = append(cmds, c)
	})
	return cmds
}

// readOrdinaryProject builds the project of project.txt under /home/u/repo,
// with /home/u as the home directory (as newEngine compiles).
func readOrdinaryProject(t *testing.T) facts.MapFS {
	t.Helper()
	fsys := facts.MapFS{}
	eachLine(t, ordinaryDir+"project.txt", func(line string) {
		name, value := line, "file"
		if n, entries, ok := strings.Cut(line, " [zip] "); ok {
			var files [][2]string
			for _, f := range strings.Fields(entries) {
				files = append(files, [2]string{f, f + "\n"})
			}
			name, value = n, "file:"+zipOf(t, files...)
		} else if n, target, ok := strings.Cut(line, " -> "); ok {
			name, value = n, "link:"+target
		} else if n, text, ok := strings.Cut(line, ": "); ok {
			name, value = n, "file:"+strings.ReplaceAll(text, `\n`, "\n")
		} else if n, ok := strings.CutSuffix(line, "/"); ok {
			name, value = n, "dir"
		}
		switch {
		case strings.HasPrefix(name, "~/"):
			name = "/home/u/" + name[2:]
		case !strings.HasPrefix(name, "/"):
			name = "/home/u/repo/" + name
		}
		fsys[path.Clean(name)] = value
	})
	if _, ok := fsys["/home/u/repo/.git/index"]; ok {
		fsys["/home/u/repo/.git/index"] = "file:" + trackedIndex(t, fsys)
	}
	return fsys
}

// trackedIndex is a git index (encoded by go-git, as git writes it) of the
// project's files that its .gitignore does not ignore: what git log -p,
// git show and git diff read (facts/history.go). The ignore lines it knows
// are the project's: a name, a name/ folder, *.suffix.
func trackedIndex(t *testing.T, fsys facts.MapFS) string {
	t.Helper()
	const root = "/home/u/repo/"
	var ignores []string
	if b, err := fsys.ReadFile(root + ".gitignore"); err == nil {
		ignores = strings.Fields(string(b))
	}
	ignored := func(rel string) bool {
		for _, g := range ignores {
			switch {
			case strings.HasSuffix(g, "/"):
				if slices.Contains(strings.Split(rel, "/"), strings.TrimSuffix(g, "/")) {
					return true
				}
			case strings.HasPrefix(g, "*"):
				if strings.HasSuffix(rel, g[1:]) {
					return true
				}
			case path.Base(rel) == g:
				return true
			}
		}
		return false
	}
	idx := index.Index{Version: 2}
	for _, name := range slices.Sorted(maps.Keys(fsys)) {
		rel, ok := strings.CutPrefix(name, root)
		v := fsys[name]
		if !ok || strings.HasPrefix(rel, ".git/") || (v != "file" && !strings.HasPrefix(v, "file:")) || ignored(rel) {
			continue
		}
		idx.Entries = append(idx.Entries, &index.Entry{Name: rel, Mode: filemode.Regular})
	}
	var b strings.Builder
	if err := index.NewEncoder(&b).Encode(&idx); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func readPolicy(t *testing.T, name string) string {
	t.Helper()
	src, err := fs.ReadFile(policies.FS, name)
	if err != nil {
		t.Fatal(err)
	}
	return string(src)
}

// eachLine calls fn with every line of the file that is neither blank nor
// a comment.
func eachLine(t *testing.T, name string, fn func(string)) {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if line := sc.Text(); line != "" && !strings.HasPrefix(line, "#") {
			fn(line)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
}

// checkPlainGolden compares got with a plain-text golden file, or rewrites
// the file with UPDATE_GOLDEN=1.
func checkPlainGolden(t *testing.T, name, got string) {
	t.Helper()
	if golden.Update() {
		if err := os.WriteFile(name, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(name)
	if err != nil {
		t.Fatalf("%v (run with UPDATE_GOLDEN=1 to write it)", err)
	}
	if string(want) != got {
		t.Errorf("%s differs from the decisions now (UPDATE_GOLDEN=1 rewrites it); now:\n%s", name, got)
	}
}
