package statedir_test

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/regate/regate/cmd/regate/internal/statedir"
	"github.com/regate/regate/compiler"
	"github.com/regate/regate/internal/testkit/workload"
)

// BenchmarkCompile compares compiling a policy with reading it back from
// the state folder, at the sizes of the workload.
func BenchmarkCompile(b *testing.B) {
	for _, n := range []int{33, 1000, 10000} {
		in := compiler.Input{Policy: &compiler.Source{Name: "policy.jsonc", Data: []byte(workload.Policy(n))}}
		home := compiler.WithHome("/home/u")
		b.Run(fmt.Sprintf("compile/rules=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := compiler.Compile(in, home); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("cached/rules=%d", n), func(b *testing.B) {
			d, err := statedir.Open(filepath.Join(b.TempDir(), "state"))
			if err != nil {
				b.Fatal(err)
			}
			if _, _, err := d.Compile(in, home); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				if _, cached, err := d.Compile(in, home); err != nil || !cached {
					b.Fatal(cached, err)
				}
			}
		})
	}
}

// BenchmarkSeen is what recording the session's policy adds to a hook
// call once the record exists (every call but a session's first), and
// what approve's lookup of those records costs.
func BenchmarkSeen(b *testing.B) {
	d, err := statedir.Open(filepath.Join(b.TempDir(), "state"))
	if err != nil {
		b.Fatal(err)
	}
	const policy = "/home/u/.config/regate/policy.jsonc"
	if err := d.Seen(policy, "s1"); err != nil {
		b.Fatal(err)
	}
	b.Run("seen-again", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if err := d.Seen(policy, "s1"); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("seen-policies", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if ps, err := d.SeenPolicies("s1"); err != nil || len(ps) != 1 {
				b.Fatal(ps, err)
			}
		}
	})
}
