// Package golden compares outputs with txtar golden files. Run the tests with
// UPDATE_GOLDEN=1 to rewrite the expected sections from what the code
// produces now; an environment variable works across ./... where a
// per-package flag would not.
package golden

import (
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rogpeppe/go-internal/txtar"
)

// Update reports whether goldens are being rewritten.
func Update() bool { return os.Getenv("UPDATE_GOLDEN") == "1" }

// Read parses a txtar archive and returns it with its files by name.
func Read(t testing.TB, path string) (*txtar.Archive, map[string]string) {
	t.Helper()
	a, err := txtar.ParseFile(path)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{}
	for _, f := range a.Files {
		files[f.Name] = string(f.Data)
	}
	return a, files
}

// Check compares got with the archive's files under prefix (for example
// "out/"). With UPDATE_GOLDEN=1 it rewrites those files instead.
func Check(t testing.TB, path string, a *txtar.Archive, prefix string, got map[string]string) {
	t.Helper()
	if Update() {
		kept := a.Files[:0]
		for _, f := range a.Files {
			if !strings.HasPrefix(f.Name, prefix) {
				kept = append(kept, f)
			}
		}
		names := make([]string, 0, len(got))
		for n := range got {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			kept = append(kept, txtar.File{Name: prefix + n, Data: []byte(got[n])})
		}
		a.Files = kept
		if err := os.WriteFile(path, txtar.Format(a), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want := map[string]string{}
	for _, f := range a.Files {
		if n, ok := strings.CutPrefix(f.Name, prefix); ok {
			want[n] = string(f.Data)
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("%s differs from the golden (-want +got); run with UPDATE_GOLDEN=1 if the change is intended:\n%s", path, diff)
	}
}
