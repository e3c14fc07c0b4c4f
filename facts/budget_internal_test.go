package facts

import (
	"fmt"
	"strings"
	"testing"

	"github.com/regate/regate/bashfacts"
)

// TestPathLimit: a path of MaxPathBytes resolves; one byte more is the
// kernel's ENAMETOOLONG, and its check asks.
func TestPathLimit(t *testing.T) {
	e := &Env{Cwd: "/", Home: "/h", FS: MapFS{}}
	at := "/" + strings.Repeat("a/", MaxPathBytes/2-1) + "b"
	if len(at) != MaxPathBytes {
		t.Fatalf("the path is %d bytes", len(at))
	}
	if f := e.PathForms(at, "/"); f.Err != "" {
		t.Errorf("a path of %d bytes: %s", len(at), f.Err)
	}
	if f := e.PathForms(at+"c", "/"); f.Err != errPathTooLong.Error() {
		t.Errorf("a path of %d bytes: %q; want %q", len(at)+1, f.Err, errPathTooLong)
	}
	// A relative path that the working directory makes too long.
	deep := &Env{Cwd: at[:MaxPathBytes-2], Home: "/h", FS: MapFS{}}
	if f := deep.PathForms("xy", deep.Cwd); f.Err != errPathTooLong.Error() {
		t.Errorf("a relative path made too long: %q", f.Err)
	}
}

// TestProbeBudget: every file-system walk spends the call's budget; with
// exactly enough left a resolution succeeds, with one less it fails, and
// globs, recursive reads and search filters fail (they ask) instead of
// reading a spent budget as an empty folder.
func TestProbeBudget(t *testing.T) {
	// Resolving /a/b/c lstats /a, /a/b and /a/b/c: three probes.
	for _, c := range []struct {
		left int
		ok   bool
	}{{3, true}, {2, false}} {
		e := &Env{Cwd: "/", Home: "/h", FS: MapFS{"/a/b/c": "file"}, spent: &budget{probes: MaxProbes - c.left}}
		f := e.PathForms("/a/b/c", "/")
		if (f.Err == "") != c.ok || (!c.ok && f.Err != errBudget.Error()) {
			t.Errorf("%d probes left: err %q, want ok %v", c.left, f.Err, c.ok)
		}
	}
	near := func() *Env {
		return &Env{Cwd: "/", Home: "/h", FS: bigFS{n: 100}, spent: &budget{probes: MaxProbes - 50}}
	}
	if _, err := near().expandGlob("/big/*", "/"); !isBudget(err) {
		t.Errorf("a glob past the budget: %v", err)
	}
	if _, err := near().walkFilter("*.go", "/big", "/"); !isBudget(err) {
		t.Errorf("a search filter past the budget: %v", err)
	}
	got := near().treeChecks(bashfacts.Token{Value: "/big"}, "/", TreeRole)
	if len(got) == 0 || !strings.Contains(got[len(got)-1].Strict, "budget") {
		t.Errorf("a recursive read past the budget: %+v", got)
	}
	// With the budget untouched the same walks succeed.
	fresh := &Env{Cwd: "/", Home: "/h", FS: bigFS{n: 100}, spent: &budget{}}
	if m, err := fresh.expandGlob("/big/*", "/"); err != nil || len(m) != 100 {
		t.Errorf("a glob: %d matches, %v", len(m), err)
	}
	// The budget is per call: Build gives each a new one.
	e := Env{Cwd: "/", Home: "/h", FS: MapFS{}}
	for range 3 {
		in := Build(Call{Tool: "read", Input: map[string]any{"path": "/a/b"}}, e)
		if in.Checks[0].Error != "" {
			t.Fatalf("a fresh call: %s", in.Checks[0].Error)
		}
	}
}

// TestCheckLimit: a call of MaxChecks checks is decided as it is; one more
// check makes it one over-budget check that asks. An MCP tool's list of
// paths is the way to it (each path one check, plus the mcp check).
func TestCheckLimit(t *testing.T) {
	paths := func(n int) []any {
		out := make([]any, n)
		for i := range out {
			out[i] = fmt.Sprintf("/p/%d", i)
		}
		return out
	}
	e := Env{Cwd: "/", Home: "/h", FS: MapFS{}}
	call := func(n int) Call {
		return Call{Tool: "mcp", Input: map[string]any{"server": "s", "tool": "t", "arguments": map[string]any{"path": paths(n)}}}
	}
	if in := Build(call(MaxChecks-1), e); len(in.Checks) != MaxChecks {
		t.Errorf("at the limit: %d checks, want %d", len(in.Checks), MaxChecks)
	}
	in := Build(call(MaxChecks), e)
	if len(in.Checks) != 1 || in.Checks[0].Malformed == "" || !strings.Contains(in.Checks[0].Malformed, "budget") {
		t.Fatalf("past the limit: %d checks, %+v", len(in.Checks), in.Checks[0])
	}
	// A shell call past it is one unparseable check on its whole text.
	sh := overBudget("bash", true, "cat x", MaxChecks+1)
	if sh.Surface != "bash" || !sh.Unparseable || sh.Value != "cat x" {
		t.Errorf("%+v", sh)
	}
}
