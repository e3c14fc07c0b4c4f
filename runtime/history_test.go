package runtime_test

import (
	"context"
	"crypto/sha1"
	"encoding/hex"
	"os/exec"
	"testing"

	"github.com/regate/regate/facts"
	"github.com/regate/regate/runtime"
)

// TestHistoryReads: git log -p, git show and git diff without a pathspec
// print what the repository's index and history hold (role history,
// facts/history.go): under strict mode, in a repository that tracks a
// denied .env, they ask (a deny capped at ask, as a recursive read's);
// narrowed by a pathspec after --, or printing no contents (--stat,
// --name-only, -s), or showing one blob, they are allowed, and so is every
// one of them where the .env is only ignored, not tracked. Each row first
// runs in real git and checks whether the secret is printed (git diff in
// a clean work tree prints nothing, yet may: it asks). git stash show -p,
// git stash list -p and git format-patch --stdout were allowed before
// 2026-12-07 (fourth stop) while they printed a tracked .env's changes,
// and git grep of a revision's tree before the fifth.
func TestHistoryReads(t *testing.T) {
	// The hash of the blob of the tracked .env's last version, as git
	// ls-tree -r HEAD lists it.
	sum := sha1.Sum([]byte("blob 14\x00TOKEN=SECRET2\n"))
	secretBlob := hex.EncodeToString(sum[:])
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	const rules = `"permission": {"*": "ask", "bash": {"*": "allow"}, "path": {"*": "allow", "*.env": "deny"}}`
	tracked := gitFixture(t, `mkdir src && echo 'TOKEN=SECRET1' > .env && echo 'package a' > src/a.go &&
git init -q && git add -A && git commit -qm one && echo 'TOKEN=SECRET2' > .env && git commit -qam two`)
	dirty := gitFixture(t, `mkdir src && echo 'TOKEN=SECRET1' > .env && echo 'package a' > src/a.go &&
git init -q && git add -A && git commit -qm one && echo 'TOKEN=SECRET2' > .env`)
	ignored := gitFixture(t, `mkdir src && echo 'TOKEN=SECRET' > .env && echo .env > .gitignore && echo 'package a' > src/a.go &&
git init -q && git add -A && git commit -qm one && echo 'package b' > src/a.go && git commit -qam two`)
	stashed := gitFixture(t, `mkdir src && echo 'TOKEN=SECRET1' > .env && echo 'package a' > src/a.go &&
git init -q && git add -A && git commit -qm one && echo 'TOKEN=SECRET2' > .env && git stash -q`)
	untracked := gitFixture(t, `mkdir src && echo 'package a' > src/a.go && git init -q && git add -A && git commit -qm one &&
echo 'TOKEN=SECRET' > .env && git stash -q -u`)
	// The index written a while after the files it records (not racy, as
	// git counts it), then .env changed, or deleted, after it.
	const settle = ` && touch -d @1600000000 .env src/a.go && git update-index -q --refresh`
	settled := gitFixture(t, `mkdir src && echo 'TOKEN=SECRET1' > .env && echo 'package a' > src/a.go &&
git init -q && git add -A && git commit -qm one`+settle)
	changed := gitFixture(t, `mkdir src && echo 'TOKEN=SECRET1' > .env && echo 'package a' > src/a.go &&
git init -q && git add -A && git commit -qm one`+settle+` && echo 'TOKEN=SECRET2' >> .env`)
	deleted := gitFixture(t, `mkdir src && echo 'TOKEN=SECRET1' > .env && echo 'package a' > src/a.go &&
git init -q && git add -A && git commit -qm one`+settle+` && rm .env`)
	touched := gitFixture(t, `mkdir src && echo 'TOKEN=SECRET1' > .env && echo 'package a' > src/a.go &&
git init -q && git add -A && git commit -qm one`+settle+` && touch .env`)
	intent := gitFixture(t, `mkdir src && echo 'package a' > src/a.go && git init -q && git add -A && git commit -qm one &&
touch -d @1600000000 src/a.go && echo 'TOKEN=SECRET' > .env && git add -N .env && git update-index -q --refresh`)
	// An index that is a fifo would block a reader: regate asks instead.
	fifo := gitFixture(t, `echo 'package a' > a.go && git init -q && git add -A && git commit -qm one && rm .git/index && mkfifo .git/index`)
	call := facts.Call{Tool: "bash", Input: map[string]any{"command": "git log -p"}}
	e := newEngine(t, `{"strict": true, `+rules+`}`, runtime.WithFS(facts.OSFS{}), runtime.WithCwd(fifo), runtime.WithCacheSize(0))
	if d, err := e.Decide(context.Background(), call); err != nil || d.Action != "ask" {
		t.Errorf("git log -p with a fifo for an index: %s (%s, %v); want ask", d.Action, d.Matched, err)
	}
	for _, c := range []struct {
		repo          string
		cmd           string
		prints        bool
		strict, plain string
	}{
		{tracked, "git log -p", true, "ask", "allow"},
		{tracked, "git log -p --stat", true, "ask", "allow"},
		{tracked, "git log -U1", true, "ask", "allow"},
		{tracked, "git show", true, "ask", "allow"},
		{tracked, "git show HEAD~1", true, "ask", "allow"},
		{tracked, "git diff HEAD~1", true, "ask", "allow"},
		// git diff with no revision prints the tracked files whose copy
		// differs from the index's record of it: a settled, clean work
		// tree prints nothing (it asked before the sixth stop of
		// 2026-12-07), a changed or deleted .env is printed.
		{settled, "git diff", false, "allow", "allow"},
		{settled, "git diff -p --stat", false, "allow", "allow"},
		{settled, "git diff --cached", false, "ask", "allow"}, // the index against HEAD: regate does not read objects
		{settled, "git diff HEAD", false, "ask", "allow"},
		{changed, "git diff", true, "ask", "allow"},
		{deleted, "git diff", true, "ask", "allow"},
		{touched, "git diff", false, "allow", "allow"}, // its record differs, its contents do not
		{tracked, "git diff", false, "allow", "allow"}, // racy entries, compared by their contents
		{intent, "git diff", true, "ask", "allow"},     // git add -N: the whole file is new to the diff
		{tracked, "cd src && git log -p", true, "ask", "allow"},
		{tracked, "git -C src log -p", true, "ask", "allow"},
		// No contents, one blob, or a pathspec that leaves .env out.
		{tracked, "git log --stat", false, "allow", "allow"},
		{tracked, "git log --oneline", false, "allow", "allow"},
		{tracked, "git show --stat", false, "allow", "allow"},
		{tracked, "git show -s", false, "allow", "allow"},
		{tracked, "git show --name-only HEAD~1", false, "allow", "allow"},
		{tracked, "git show HEAD:src/a.go", false, "allow", "allow"},
		{tracked, "git diff --name-only HEAD~1", false, "allow", "allow"},
		{tracked, "git log -p -- src", false, "allow", "allow"},
		{tracked, "git diff HEAD~1 -- src", false, "allow", "allow"},
		// A pathspec names every tracked path below it: git log -p -- .
		// printed the .env's changes unasked before the sixth stop of
		// 2026-12-07 (the folder was read, not what git prints of it).
		{tracked, "git log -p -- .", true, "ask", "allow"},
		{tracked, "git show HEAD -- ./", true, "ask", "allow"},
		{tracked, "git format-patch --stdout -1 -- .", true, "ask", "allow"},
		{tracked, "cd src && git log -p -- ..", true, "ask", "allow"},
		{tracked, "git whatchanged -p -- src .", true, "ask", "allow"},
		// A glob pathspec of git diff (the work tree against the index) is
		// matched against the paths the index tracks; with a revision it
		// may reach paths the index no longer holds, and asks.
		{dirty, "git diff -- '*.go'", false, "allow", "allow"},
		{dirty, "git diff -- '.en?'", true, "ask", "allow"},
		{dirty, "git diff", true, "ask", "allow"},
		{tracked, "git diff HEAD~1 -- '*.go'", false, "ask", "allow"},
		// A stash's patch, and format-patch's, print history as git show does.
		{stashed, "git stash show -p", true, "ask", "allow"},
		{stashed, "git stash show --patch stash@{0}", true, "ask", "allow"},
		{stashed, "git stash list -p", true, "ask", "allow"},
		{stashed, "git stash show", false, "allow", "allow"},
		{stashed, "git stash list", false, "allow", "allow"},
		{untracked, "git stash show -p -u", true, "ask", "allow"}, // the stashed untracked .env is in no index
		{untracked, "git stash show -u", false, "allow", "allow"},
		{tracked, "git format-patch --stdout HEAD~1", true, "ask", "allow"},
		{tracked, "git format-patch --stdout -1 -- src", false, "allow", "allow"},
		// git grep searches a revision's whole tree (git grep -e . HEAD
		// printed a tracked .env before 2026-12-07, fifth stop); a
		// pathspec after -- narrows it.
		{tracked, "git grep -e . HEAD", true, "ask", "allow"},
		{tracked, "git grep TOKEN HEAD~1", true, "ask", "allow"},
		{tracked, "git grep -e package HEAD src", false, "ask", "allow"}, // src before -- is taken as a path, but asks as git show HEAD src does
		{tracked, "git grep -e package HEAD -- src", false, "allow", "allow"},
		{ignored, "git grep -e . HEAD", false, "allow", "allow"},
		// git cat-file prints any object it is named, a blob by its hash
		// (git ls-tree lists them) as well as REV:path (allowed before
		// the fifth stop of 2026-12-07); its type, size or existence
		// prints no contents.
		{tracked, "git cat-file -p " + secretBlob, true, "ask", "allow"},
		{tracked, "git cat-file blob " + secretBlob[:12], true, "ask", "allow"},
		{tracked, "git cat-file -s " + secretBlob, false, "allow", "allow"},
		{tracked, "git cat-file -p HEAD:src/a.go", false, "allow", "allow"},
		// An ignored .env is in no index and no history.
		{ignored, "git log -p", false, "allow", "allow"},
		{ignored, "git show", false, "allow", "allow"},
		{ignored, "git diff HEAD~1", false, "allow", "allow"},
	} {
		name := map[string]string{tracked: "tracked/", dirty: "dirty/", ignored: "ignored/", stashed: "stashed/", untracked: "untracked/",
			settled: "settled/", changed: "changed/", deleted: "deleted/", intent: "intent/", touched: "touched/"}[c.repo]
		t.Run(name+c.cmd, func(t *testing.T) {
			if got := showsSecret(t, c.repo, c.cmd); got != c.prints {
				t.Fatalf("%s: the secret printed: %v, want %v", c.cmd, got, c.prints)
			}
			call := facts.Call{Tool: "bash", Input: map[string]any{"command": c.cmd}}
			for _, m := range []struct{ policy, want string }{{`{"strict": true, ` + rules + `}`, c.strict}, {`{` + rules + `}`, c.plain}} {
				e := newEngine(t, m.policy, runtime.WithFS(facts.OSFS{}), runtime.WithCwd(c.repo), runtime.WithCacheSize(0))
				if d, err := e.Decide(context.Background(), call); err != nil || string(d.Action) != m.want {
					t.Errorf("%s: %s (%s, %v); want %s", m.policy[:16], d.Action, d.Matched, err, m.want)
				}
			}
		})
	}
}

// TestGitListings: $(git ls-files PATHSPEC…) is the tracked paths the
// pathspecs match (bashfacts/listing.go, facts/listing.go): wc -l of the
// Go files is allowed under strict mode, cat of every tracked path asks
// where the index tracks .env (and is allowed where .env is only ignored),
// a path bash would split asks, ls -l only names them, and an ls-files
// option regate does not model asks. Each row runs in real bash first.
func TestGitListings(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	const rules = `"permission": {"*": "ask", "bash": {"*": "allow"}, "path": {"*": "allow", "*.env": "deny"}}`
	tracked := gitFixture(t, `mkdir src && echo 'TOKEN=SECRET' > .env && echo 'package a' > src/a.go &&
git init -q && git add -A && git commit -qm one`)
	ignored := gitFixture(t, `mkdir src && echo 'TOKEN=SECRET' > .env && echo .env > .gitignore && echo 'package a' > src/a.go &&
git init -q && git add -A && git commit -qm one`)
	spaced := gitFixture(t, `echo 'TOKEN=SECRET' > .env && echo x > 'notes .env' && echo .env > .gitignore &&
git init -q && git add -A && git commit -qm one`)
	for _, c := range []struct {
		name, repo, cmd string
		prints          bool
		want            string
	}{
		{"tracked", tracked, "wc -l $(git ls-files '*.go')", false, "allow"},
		{"tracked", tracked, "cd src && wc -l $(git ls-files)", false, "allow"},
		{"tracked", tracked, "cat $(git ls-files)", true, "ask"},
		{"tracked", tracked, "ls -l $(git ls-files)", false, "allow"},
		{"tracked", tracked, "wc -l $(git ls-files -o --exclude-standard)", false, "ask"},
		{"ignored", ignored, "cat $(git ls-files)", false, "allow"},
		{"spaced", spaced, "cat $(git ls-files) 2>/dev/null; true", true, "ask"}, // notes .env is notes and .env
	} {
		t.Run(c.name+"/"+c.cmd, func(t *testing.T) {
			if got := showsSecret(t, c.repo, c.cmd); got != c.prints {
				t.Fatalf("%s: the secret printed: %v, want %v", c.cmd, got, c.prints)
			}
			e := newEngine(t, `{"strict": true, `+rules+`}`, runtime.WithFS(facts.OSFS{}), runtime.WithCwd(c.repo), runtime.WithCacheSize(0))
			call := facts.Call{Tool: "bash", Input: map[string]any{"command": c.cmd}}
			if d, err := e.Decide(context.Background(), call); err != nil || string(d.Action) != c.want {
				t.Errorf("%s (%s, %v); want %s", d.Action, d.Matched, err, c.want)
			}
		})
	}
}
