package schema_test

import (
	"os"
	"testing"

	"github.com/tailscale/hujson"

	"github.com/regate/regate/compiler/schema"
)

// BenchmarkValidatePolicy validates the 1,000-rule benchmark policy: what
// a schema check of a large policy costs (editors and tests; not on the
// decision path).
func BenchmarkValidatePolicy(b *testing.B) {
	src, err := os.ReadFile("../../testdata/bench/policy-1000.jsonc")
	if err != nil {
		b.Fatal(err)
	}
	std, err := hujson.Standardize(src)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		vs, err := schema.ValidateJSON(schema.Policy, std)
		if err != nil || len(vs) > 0 {
			b.Fatal(err, vs)
		}
	}
}
