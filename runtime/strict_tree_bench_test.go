package runtime_test

import (
	"context"
	"fmt"
	"io/fs"
	"testing"

	"github.com/regate/regate/facts"
	"github.com/regate/regate/internal/matchkey"
	"github.com/regate/regate/policies"
	"github.com/regate/regate/runtime"
)

// BenchmarkTreeReadDecision decides grep -r x . under the default policy
// (strict on) with a within check of 5000 paths, facts' bound for one
// recursive read (facts/tree.go), with their candidate keys, uncached.
func BenchmarkTreeReadDecision(b *testing.B) {
	src, err := fs.ReadFile(policies.FS, "default.jsonc")
	if err != nil {
		b.Fatal(err)
	}
	eng := newEngine(b, string(src), runtime.WithCacheSize(0))
	in := eng.Facts(facts.Call{Tool: "bash", Input: map[string]any{"command": "grep -r x ."}})
	forms := make([][]string, 5000)
	for i := range forms {
		rel := fmt.Sprintf("src/d%d/f%d.go", i/50, i)
		forms[i] = []string{rel, "/home/u/repo/" + rel}
	}
	keys := make([][]string, len(forms))
	for i, f := range forms {
		keys[i] = matchkey.AppendGroup(nil, matchkey.Path, f)
	}
	in.Checks = append(in.Checks, facts.Check{Surface: "path", Value: ".", Forms: forms, Keys: keys, StrictOnly: true, Within: "."})
	b.ReportAllocs()
	for b.Loop() {
		if d, err := eng.DecideFacts(context.Background(), in); err != nil || d.Action != "allow" {
			b.Fatal(d, err)
		}
	}
}
