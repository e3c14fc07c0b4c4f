package conformance_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/regate/regate/internal/testkit/conformance"
)

// TestCeilingCasesThroughEachEntryPoint runs every ceiling case of the
// delegation suite through the Rego ceiling over named policies and through
// the Go API's delegated runs (Run.Delegate, ChildRun.Delegate,
// ChildRun.Decide): both must reach every expected decision. regate serve
// runs the same cases in server's tests.
func TestCeilingCasesThroughEachEntryPoint(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(corpus, "delegation.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name string
		new  conformance.NewChainDecider
	}{
		{"rego", conformance.RegoCeiling},
		{"go-api", conformance.GoAPI},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rs, err := conformance.RunCeiling(context.Background(), "delegation.jsonl", src, tt.new)
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range rs {
				if !r.Passed {
					t.Errorf("%s", r.Line())
				}
			}
			if len(rs) < 46 {
				t.Errorf("%d ceiling cases ran; the suite holds 46", len(rs))
			}
		})
	}
}
