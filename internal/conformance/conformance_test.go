package conformance_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/regate/regate/internal/conformance"
)

func TestPermissionSuite(t *testing.T) {
	rs, err := conformance.RunFile(context.Background(), "../../testdata/conformance/permission.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rs {
		if !r.Passed {
			t.Log(r.Line())
		}
	}
	p, f := conformance.Count(rs)
	t.Logf("%d passed, %d failed", p, f)
	_ = os.Getenv
	_ = filepath.Join
}
