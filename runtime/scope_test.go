package runtime_test

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/regate/regate/compiler"
	"github.com/regate/regate/facts"
	"github.com/regate/regate/runtime"
)

// TestDecideInSessions: one engine, its one decision cache, many sessions.
// A decision cached under one session's approvals is never served to
// another, nor to the same session after a change; sessions without
// approvals share what is cached.
func TestDecideInSessions(t *testing.T) {
	e := newEngine(t, `{"permission": {"*": "allow", "bash": {"*": "ask", "ls *": "allow"}}}`)
	ctx := context.Background()
	a, b, c := runtime.NewSession("/home/u"), runtime.NewSession("/home/u"), runtime.NewSession("/home/u")
	make_ := facts.Call{Tool: "bash", Input: map[string]any{"command": "make"}}
	decide := func(s *runtime.Session) string {
		t.Helper()
		d, err := e.DecideIn(ctx, make_, runtime.Scope{Session: s})
		if err != nil {
			t.Fatal(err)
		}
		return string(d.Action) + "/" + d.Layer
	}
	for round := 0; round < 2; round++ { // the second round is served from the cache
		for _, s := range []*runtime.Session{a, b, c} {
			if got := decide(s); got != "ask/policy" {
				t.Fatalf("round %d, before any approval: %s", round, got)
			}
		}
	}
	if err := a.Approve(compiler.Approval{Surface: "bash", Pattern: "make"}); err != nil {
		t.Fatal(err)
	}
	if err := b.Approve(compiler.Approval{Surface: "bash", Pattern: "make test"}); err != nil {
		t.Fatal(err)
	}
	for round := 0; round < 2; round++ {
		for _, w := range []struct {
			s    *runtime.Session
			want string
		}{{a, "allow/session"}, {b, "ask/policy"}, {c, "ask/policy"}, {nil, "ask/policy"}} {
			if got := decide(w.s); got != w.want {
				t.Errorf("round %d: %s, want %s", round, got, w.want)
			}
		}
	}
	// The engine's own session (Decide) is one more session.
	if d, _ := e.Decide(ctx, make_); d.Action != "ask" {
		t.Errorf("the engine's own session: %s", d.Action)
	}
}

// TestDecideInFolders: the working directory is per call. A relative path
// is decided where the call stands; the decision cache cannot mix two
// folders up, since the input document holds the paths they make.
func TestDecideInFolders(t *testing.T) {
	e := newEngine(t, `{"permission": {"*": "allow", "path": {"/a/secret": "deny"}}}`)
	ctx := context.Background()
	cat := facts.Call{Tool: "bash", Input: map[string]any{"command": "cat ./secret"}}
	for round := 0; round < 2; round++ {
		for _, w := range []struct{ cwd, want string }{{"/a", "deny"}, {"/b", "allow"}, {"/a/", "deny"}, {"/b/../a", "deny"}, {"", "allow"}} {
			d, err := e.DecideIn(ctx, cat, runtime.Scope{Cwd: w.cwd})
			if err != nil || string(d.Action) != w.want {
				t.Errorf("round %d, cwd %q: %s (%v), want %s", round, w.cwd, d.Action, err, w.want)
			}
		}
	}
	if _, err := e.DecideIn(ctx, cat, runtime.Scope{Cwd: "a"}); err == nil {
		t.Error("a relative working directory was accepted")
	}
}

// splitFS folds case under /mac and not elsewhere: two file systems, as a
// Mac with an external ext4 drive has.
type splitFS struct {
	mac   facts.FoldMapFS
	other facts.MapFS
}

func (s splitFS) pick(name string) facts.FS {
	if name == "/mac" || strings.HasPrefix(name, "/mac/") {
		return s.mac
	}
	return s.other
}

func (s splitFS) Lstat(name string) (os.FileMode, error) { return s.pick(name).Lstat(name) }
func (s splitFS) Readlink(name string) (string, error)   { return s.pick(name).Readlink(name) }
func (s splitFS) ReadDir(name string) ([]string, error) {
	return s.pick(name).(facts.DirReader).ReadDir(name)
}
func (s splitFS) SameFile(a, b string) bool { return s.pick(a).(facts.SameFiler).SameFile(a, b) }

// TestDecideInFoldsCasePerFolder: whether the file system folds case is
// probed for each call's folder (and remembered), not once for the engine.
func TestDecideInFoldsCasePerFolder(t *testing.T) {
	fsys := splitFS{
		mac:   facts.FoldMapFS{"/mac/repo/.env": "file"},
		other: facts.MapFS{"/linux/repo/.env": "file"},
	}
	e := newEngine(t, `{"permission": {"*": "allow", "path": {"**/.env": "deny"}}}`, runtime.WithFS(fsys), runtime.WithCwd("/linux/repo"))
	ctx := context.Background()
	cat := facts.Call{Tool: "bash", Input: map[string]any{"command": "cat .ENV"}}
	for round := 0; round < 2; round++ {
		for _, w := range []struct{ cwd, want string }{{"/mac/repo", "deny"}, {"/linux/repo", "allow"}, {"", "allow"}} {
			d, err := e.DecideIn(ctx, cat, runtime.Scope{Cwd: w.cwd})
			if err != nil || string(d.Action) != w.want {
				t.Errorf("round %d, cwd %q: %s (%v), want %s", round, w.cwd, d.Action, err, w.want)
			}
		}
	}
}

// TestSessionLimit: a session made with a limit refuses the approval past
// it, and keeps what it had.
func TestSessionLimit(t *testing.T) {
	s := runtime.NewSessionWithLimit("/home/u", 2)
	for i, p := range []string{"a", "b"} {
		if err := s.Approve(compiler.Approval{Surface: "bash", Pattern: p}); err != nil {
			t.Fatalf("approval %d: %v", i, err)
		}
	}
	if err := s.Approve(compiler.Approval{Surface: "bash", Pattern: "c"}); err == nil {
		t.Fatal("the third approval was kept")
	}
	if s.Len() != 2 {
		t.Fatalf("%d approvals", s.Len())
	}
	if err := runtime.NewSession("/home/u").Approve(make([]compiler.Approval, 0)...); err != nil {
		t.Fatal(err)
	}
}
