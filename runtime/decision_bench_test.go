package runtime_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/regate/regate/compiler"
	"github.com/regate/regate/facts"
	"github.com/regate/regate/hosts"
	"github.com/regate/regate/internal/testkit/workload"
	"github.com/regate/regate/policies"
	"github.com/regate/regate/runtime"
)

// BenchmarkDecision is issue 31's first figure: the whole embedded
// decision, facts given (the input document built beforehand, the cache
// off), over the workload's calls, under the bench policy at 33 and 10,000
// rules and the bundled default policy (strict mode). Beside ns/op (the
// mean) it reports the median decision (p50-µs) and the 90th percentile.
func BenchmarkDecision(b *testing.B) {
	for _, p := range []struct {
		name    string
		src     []byte
		guarded []compiler.Guarded
	}{
		{"bench-33", []byte(workload.Policy(33)), nil},
		{"bench-10000", []byte(workload.Policy(10000)), nil},
		{"default", policies.Default(), nil},
		{"default+self", policies.Default(), benchGuarded()},
	} {
		b.Run(p.name, func(b *testing.B) {
			e := uncachedEngine(b, p.src, p.guarded...)
			calls := workload.Calls(workload.Seed, 1000)
			inputs := make([]*facts.Input, len(calls))
			for i, c := range calls {
				inputs[i] = e.Facts(c)
			}
			ctx := context.Background()
			lat := make([]time.Duration, 0, 1<<16)
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				t0 := time.Now()
				if _, err := e.DecideFacts(ctx, inputs[i%len(inputs)]); err != nil {
					b.Fatal(err)
				}
				if len(lat) < cap(lat) {
					lat = append(lat, time.Since(t0))
				}
				i++
			}
			slices.Sort(lat)
			b.ReportMetric(float64(lat[len(lat)/2].Nanoseconds())/1000, "p50-µs")
			b.ReportMetric(float64(lat[len(lat)*9/10].Nanoseconds())/1000, "p90-µs")
		})
	}
}

// benchGuarded are the places `regate hook` guards for a user at /home/u
// (cmd/regate's guarded): the policy, regate's folders, every host's.
func benchGuarded() []compiler.Guarded {
	out := []compiler.Guarded{
		{Path: "/home/u/.config/regate/policy.jsonc", What: "the policy file regate decides with"},
		{Path: "/home/u/.config/regate", What: "regate's configuration folder", Folder: true},
		{Path: "/home/u/.cache/regate", What: "regate's state folder", Folder: true},
		{Path: "/home/u/.cache/regate/key", What: "the key", Secret: true},
		{Path: "/home/u/.local/state/regate", What: "regate's log folder", Folder: true},
	}
	for _, p := range hosts.SettingsPlaces("/home/u", func(string) string { return "" }) {
		out = append(out, compiler.Guarded{Path: p.Path, What: p.What, Folder: p.Folder})
	}
	return out
}

// BenchmarkThreeUnitCall decides one bash call of three units (and the
// spelling check strict mode adds), facts given, under the bench policy
// and the bundled default policy, without and with the self floor: the
// call docs/performance.md times stock OPA on with `opa bench`, on the
// bundle of the same policy (which carries the self floor) and the
// document `regate facts` prints.
func BenchmarkThreeUnitCall(b *testing.B) {
	for _, p := range []struct {
		name    string
		src     []byte
		guarded []compiler.Guarded
	}{
		{"bench-33", []byte(workload.Policy(33)), nil},
		{"default", policies.Default(), nil},
		// As `regate bundle --home /home/u` compiles them: with the self
		// floor over regate's and the hosts' places.
		{"bench-33+self", []byte(workload.Policy(33)), benchGuarded()},
		{"default+self", policies.Default(), benchGuarded()},
	} {
		b.Run(p.name, func(b *testing.B) {
			e := uncachedEngine(b, p.src, p.guarded...)
			in := e.Facts(facts.Call{Tool: "bash", Input: map[string]any{"command": "git status && rm -rf build && ls src"}})
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				if _, err := e.DecideFacts(ctx, in); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// uncachedEngine is policy src compiled for a home of /home/u, with the
// self floor guarding guarded, and decided in /home/u/repo on an empty
// file system, with no decision cache.
func uncachedEngine(b *testing.B, src []byte, guarded ...compiler.Guarded) *runtime.Engine {
	b.Helper()
	out, err := compiler.Compile(compiler.Input{Policy: &compiler.Source{Name: "policy.jsonc", Data: src}, Guarded: guarded},
		compiler.WithHome("/home/u"))
	if err != nil {
		b.Fatal(err)
	}
	e, err := runtime.New(context.Background(), out, runtime.WithCwd("/home/u/repo"), runtime.WithFS(facts.MapFS{}), runtime.WithCacheSize(0))
	if err != nil {
		b.Fatal(err)
	}
	return e
}
