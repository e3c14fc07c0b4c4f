package statedir_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/regate/regate/cmd/regate/internal/statedir"
	"github.com/regate/regate/compiler"
	"github.com/regate/regate/facts"
	"github.com/regate/regate/internal/testkit/workload"
	"github.com/regate/regate/policies"
	"github.com/regate/regate/runtime"
)

func decideAll(t *testing.T, out *compiler.Output, calls []facts.Call) []runtime.Decision {
	t.Helper()
	e, err := runtime.New(context.Background(), out, runtime.WithCwd("/repo"), runtime.WithFS(facts.MapFS{}))
	if err != nil {
		t.Fatal(err)
	}
	var ds []runtime.Decision
	for _, c := range calls {
		d, err := e.Decide(context.Background(), c)
		if err != nil {
			t.Fatal(err)
		}
		ds = append(ds, d)
	}
	return ds
}

// TestCompiledPolicyIsCached: the second compilation of the same rule files
// is read from the folder and decides exactly as a fresh one; an edit, or a
// damaged cache file, compiles again.
func TestCompiledPolicyIsCached(t *testing.T) {
	for _, name := range []string{"default", "workload-1000"} {
		t.Run(name, func(t *testing.T) {
			data := policies.Default()
			if name != "default" {
				data = []byte(workload.Policy(1000))
			}
			in := compiler.Input{Policy: &compiler.Source{Name: "policy.jsonc", Data: data}}
			d, err := statedir.Open(filepath.Join(t.TempDir(), "state"))
			if err != nil {
				t.Fatal(err)
			}
			home := compiler.WithHome("/home/u")
			fresh, wasCached, err := d.Compile(in, home)
			if err != nil || wasCached {
				t.Fatalf("first compile: cached %v, %v", wasCached, err)
			}
			again, wasCached, err := d.Compile(in, home)
			if err != nil || !wasCached {
				t.Fatalf("second compile: cached %v, %v", wasCached, err)
			}
			if again.Hash != fresh.Hash || !reflect.DeepEqual(again.Knobs, fresh.Knobs) ||
				!reflect.DeepEqual(again.Modules, fresh.Modules) || len(again.Examples) != len(fresh.Examples) ||
				len(again.Diagnostics) != len(fresh.Diagnostics) {
				t.Fatalf("the cached output differs from the compiled one")
			}
			calls := workload.Calls(7, 300)
			a, b := decideAll(t, fresh, calls), decideAll(t, again, calls)
			for i := range a {
				if !reflect.DeepEqual(a[i], b[i]) {
					t.Fatalf("the cached policy decides %v differently:\n%+v\n%+v", calls[i], a[i], b[i])
				}
			}
			cachedFile := filepath.Join(d.Root(), fresh.Hash, "compiled.json")
			if err := os.WriteFile(cachedFile, []byte(`{"hash": "`+fresh.Hash+`", "output": {"Hash": "other"}}`), 0o600); err != nil {
				t.Fatal(err)
			}
			if _, wasCached, err := d.Compile(in, home); err != nil || wasCached {
				t.Errorf("a damaged cache was trusted: cached %v, %v", wasCached, err)
			}
			edited := compiler.Input{Policy: &compiler.Source{Name: "policy.jsonc", Data: append(append([]byte(nil), data...), ' ')}}
			if _, wasCached, _ := d.Compile(edited, home); wasCached {
				t.Error("an edited policy was served from the cache")
			}
		})
	}
}

// TestApprovals: approvals persist per session and policy, concurrent
// writers lose nothing, a damaged line is a positioned error, and files
// are owner-only.
func TestApprovals(t *testing.T) {
	root := filepath.Join(t.TempDir(), "state")
	d, err := statedir.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	const hash = "h1"
	var wg sync.WaitGroup
	for i := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// A separate Dir per writer stands for a separate hook process.
			w, err := statedir.Open(root)
			if err == nil {
				err = w.Approve(hash, "../../etc/passwd", compiler.Approval{Surface: "bash", Pattern: fmt.Sprintf("make t%d", i)})
			}
			if err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	got, err := d.Approvals(hash, "../../etc/passwd")
	if err != nil || len(got) != 16 {
		t.Fatalf("%d approvals, %v; want 16", len(got), err)
	}
	if other, _ := d.Approvals(hash, "another-session"); len(other) != 0 {
		t.Errorf("another session sees %v", other)
	}
	if other, _ := d.Approvals("h2", "../../etc/passwd"); len(other) != 0 {
		t.Errorf("another policy sees %v", other)
	}
	var file string
	filepath.WalkDir(root, func(p string, e os.DirEntry, _ error) error {
		info, _ := e.Info()
		want := os.FileMode(0o700)
		if !e.IsDir() {
			want, file = 0o600, p
		}
		if info.Mode().Perm() != want {
			t.Errorf("%s: mode %v; want %v", p, info.Mode().Perm(), want)
		}
		return nil
	})
	if !strings.HasPrefix(file, root) {
		t.Fatalf("the session file %s escaped the folder", file)
	}
	f, _ := os.OpenFile(file, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("{\"surface\": \"bash\", \"patern\": \"x\"}\n")
	f.Close()
	if _, err := d.Approvals(hash, "../../etc/passwd"); err == nil || !strings.Contains(err.Error(), file+":17:1") {
		t.Errorf("a damaged line: %v", err)
	}
	if err := d.Approve(hash, "s", compiler.Approval{Pattern: "x"}); err == nil {
		t.Error("an approval without a surface was recorded")
	}
}

// TestApprovalsOutliveEdits: approvals are keyed by the policy's identity,
// not its text, so a recompiled (edited) policy keeps them; Revoke drops
// them for one policy only.
func TestApprovalsOutliveEdits(t *testing.T) {
	d, err := statedir.Open(filepath.Join(t.TempDir(), "state"))
	if err != nil {
		t.Fatal(err)
	}
	const policy = "/home/u/.config/regate/policy.jsonc"
	deploy := compiler.Approval{Surface: "bash", Pattern: "make deploy"}
	if err := d.Approve(policy, "s1", deploy); err != nil {
		t.Fatal(err)
	}
	for _, text := range []string{`{"permission": {"*": "ask"}}`, `{"permission": {"*": "ask", "read": "allow"}}`} {
		if _, _, err := d.Compile(compiler.Input{Policy: &compiler.Source{Name: policy, Data: []byte(text)}}, compiler.WithHome("/home/u")); err != nil {
			t.Fatal(err)
		}
		if got, err := d.Approvals(policy, "s1"); err != nil || !reflect.DeepEqual(got, []compiler.Approval{deploy}) {
			t.Fatalf("after compiling %s: %v, %v", text, got, err)
		}
	}
	if err := d.Approve("/elsewhere/policy.jsonc", "s1", deploy); err != nil {
		t.Fatal(err)
	}
	if err := d.Revoke(policy, "s1"); err != nil {
		t.Fatal(err)
	}
	if got, _ := d.Approvals(policy, "s1"); len(got) != 0 {
		t.Errorf("revoked, still %v", got)
	}
	if got, _ := d.Approvals("/elsewhere/policy.jsonc", "s1"); len(got) != 1 {
		t.Errorf("revoking one policy's approvals took another's: %v", got)
	}
	if err := d.Revoke(policy, "never-approved"); err != nil {
		t.Errorf("revoking nothing: %v", err)
	}
}

// TestSeenPolicies: the policies hooks decided a session under, each once,
// sorted, per session; a damaged record is skipped.
func TestSeenPolicies(t *testing.T) {
	root := filepath.Join(t.TempDir(), "state")
	d, err := statedir.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := d.SeenPolicies("s1"); err != nil || len(got) != 0 {
		t.Fatalf("a session never seen: %v, %v", got, err)
	}
	var wg sync.WaitGroup
	for i := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w, err := statedir.Open(root)
			if err == nil {
				err = w.Seen([]string{"/b/policy.jsonc", "builtin:default"}[i%2], "s1")
			}
			if err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if err := d.Seen("/c/policy.jsonc", "s2"); err != nil {
		t.Fatal(err)
	}
	got, err := d.SeenPolicies("s1")
	if want := []string{"/b/policy.jsonc", "builtin:default"}; err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("seen %v, %v; want %v", got, err, want)
	}
	matches, _ := filepath.Glob(filepath.Join(root, "sessions", "*", "*.policy"))
	for _, m := range matches {
		if b, _ := os.ReadFile(m); string(b) == "/c/policy.jsonc\n" {
			os.WriteFile(m, []byte("/d/policy.jsonc\n"), 0o600) // names another policy than its file
		}
	}
	if got, _ := d.SeenPolicies("s2"); len(got) != 0 {
		t.Errorf("a damaged record was read: %v", got)
	}
}

// TestSessionsArePruned: a session untouched for 30 days is removed when a
// new policy is compiled; a recent one stays.
func TestSessionsArePruned(t *testing.T) {
	root := filepath.Join(t.TempDir(), "state")
	d, err := statedir.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	x := compiler.Approval{Surface: "bash", Pattern: "x"}
	if err := d.Approve("p", "old", x); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-31 * 24 * time.Hour)
	filepath.WalkDir(filepath.Join(root, "sessions"), func(p string, _ os.DirEntry, _ error) error {
		return os.Chtimes(p, old, old)
	})
	if err := d.Approve("p", "recent", x); err != nil {
		t.Fatal(err)
	}
	if _, _, err := d.Compile(compiler.Input{Policy: &compiler.Source{Name: "p", Data: []byte(`{}`)}}); err != nil {
		t.Fatal(err)
	}
	if got, _ := d.Approvals("p", "old"); len(got) != 0 {
		t.Errorf("a stale session was kept: %v", got)
	}
	if got, _ := d.Approvals("p", "recent"); len(got) != 1 {
		t.Errorf("a recent session was pruned: %v", got)
	}
}

// TestApprovalsAreSigned: an approvals file holds only lines Approve wrote
// for that session and policy. A line appended without a MAC, or copied
// from another session's file, is an error naming it, and the caller
// decides without the session's approvals (asking more, never less).
func TestApprovalsAreSigned(t *testing.T) {
	d, err := statedir.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	deploy := compiler.Approval{Surface: "bash", Pattern: "make deploy"}
	for _, s := range []string{"s1", "s2"} {
		if err := d.Approve("/p/policy.jsonc", s, deploy); err != nil {
			t.Fatal(err)
		}
	}
	files, _ := filepath.Glob(filepath.Join(d.Root(), "sessions", "*", "*.jsonl"))
	if len(files) != 2 {
		t.Fatalf("approvals files %v", files)
	}
	if got, err := d.Approvals("/p/policy.jsonc", "s1"); err != nil || !reflect.DeepEqual(got, []compiler.Approval{deploy}) {
		t.Fatalf("signed approvals: %v, %v", got, err)
	}
	signed, _ := os.ReadFile(files[0])
	for _, c := range []struct {
		name  string
		extra []byte
	}{
		{"unsigned", []byte(`{"surface":"bash","pattern":"*"}` + "\n")},
		{"copied from another session", signed},
	} {
		before, _ := os.ReadFile(files[1])
		f, _ := os.OpenFile(files[1], os.O_APPEND|os.O_WRONLY, 0)
		f.Write(c.extra)
		f.Close()
		_, err1 := d.Approvals("/p/policy.jsonc", "s1")
		_, err2 := d.Approvals("/p/policy.jsonc", "s2")
		if err := errors.Join(err1, err2); err == nil || !strings.Contains(err.Error(), "MAC does not verify") {
			t.Errorf("%s: %v", c.name, err)
		}
		os.WriteFile(files[1], before, 0o600)
	}
	a, _ := os.ReadFile(files[0])
	b, _ := os.ReadFile(files[1])
	if bytes.Equal(a, b) {
		t.Error("two sessions' files hold the same signed line: a line copied between them would verify")
	}
}
