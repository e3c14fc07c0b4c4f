package statedir_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/regate/regate/compiler"
	"github.com/regate/regate/facts"
	"github.com/regate/regate/internal/workload"
	"github.com/regate/regate/policies"
	"github.com/regate/regate/runtime"
	"github.com/regate/regate/runtime/statedir"
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
