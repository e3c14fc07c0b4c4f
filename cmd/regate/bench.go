package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	goruntime "runtime"
	"slices"
	"time"

	"github.com/spf13/cobra"

	"github.com/regate/regate/facts"
	"github.com/regate/regate/internal/testkit/workload"
	"github.com/regate/regate/runtime"
)

type benchParams struct {
	rules    ruleFlags
	duration time.Duration
	cwd      string
}

func newBenchCmd(a *app) *cobra.Command {
	p := &benchParams{}
	cmd := &cobra.Command{
		Use:   "bench [POLICY] [CALLS.jsonl]",
		Short: "measure what your rules cost: decisions/s, p50/p99 latency, allocations",
		Long: `bench decides calls against a policy for a while and prints decisions per second, the
median and 99th-percentile latency and the allocations per decision, first with every call
decided from scratch and then with the decision cache, replaying the calls as an agent session
repeats itself. Progress goes to stderr (a live line on a terminal). POLICY defaults to the bundled default policy; CALLS.jsonl (one call per line,
as for decide) defaults to regate's built-in workload of 1,000 bash commands and file and MCP
calls.`,
		Example: `  regate bench
  regate bench policy.jsonc my-calls.jsonl --duration 5s`,
		Args: cobra.MaximumNArgs(2),
		PreRunE: func(cmd *cobra.Command, args []string) error {
			if p.duration <= 0 {
				return withCode(exitUsage, errors.New("--duration must be positive"))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			return runBench(cmd.Context(), p, args, a.stdin, a.stdout, a.stderr)
		},
	}
	p.rules.bind(cmd)
	cmd.Flags().DurationVar(&p.duration, "duration", 2*time.Second, "how long to measure each mode")
	cmd.Flags().StringVar(&p.cwd, "cwd", "/home/u/repo", "the working directory the calls are decided in")
	return cmd
}

func runBench(ctx context.Context, p *benchParams, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) > 0 {
		p.rules.policy = args[0]
	}
	calls := workload.Calls(workload.Seed, 1000)
	source := "the built-in workload"
	if len(args) > 1 {
		var err error
		if calls, err = readCallsFile(args[1], stdin); err != nil {
			return withCode(exitUsage, err)
		}
		source = args[1]
	}
	if len(calls) == 0 {
		return withCode(exitUsage, errors.New("no calls to decide"))
	}
	start := time.Now()
	out, err := p.rules.compile(stderr)
	if err != nil {
		return err
	}
	if _, err := engine(ctx, out, p.cwd, facts.MapFS{}); err != nil {
		return err
	}
	prepare := time.Since(start)
	policy := p.rules.policy
	if policy == "" {
		policy = "the bundled default policy"
	}
	fmt.Fprintf(stdout, "policy   %s (compiled and prepared in %s)\n", policy, prepare.Round(time.Microsecond))
	fmt.Fprintf(stdout, "calls    %d from %s\n", len(calls), source)
	for _, mode := range []struct {
		name  string
		cache int
	}{{"uncached", 0}, {"cached", runtime.DefaultCacheSize}} {
		eng, err := runtime.New(ctx, out, runtime.WithCwd(p.cwd), runtime.WithFS(facts.MapFS{}), runtime.WithCacheSize(mode.cache))
		if err != nil {
			return withCode(exitFault, err)
		}
		pr := newProgress(stderr, "bench "+mode.name)
		r, err := measure(ctx, eng, calls, p.duration, pr)
		pr.finish()
		if err != nil {
			return withCode(exitFault, err)
		}
		fmt.Fprintf(stdout, "%-8s %8.0f decisions/s  p50 %-9s p99 %-9s %6.0f allocs/decision  (%d decisions)\n",
			mode.name, r.rate, r.p50, r.p99, r.allocs, r.n)
	}
	return nil
}

type benchResult struct {
	n        int
	rate     float64
	p50, p99 time.Duration
	allocs   float64
}

// measure decides the calls round after round for d and reports the rate,
// the latency percentiles and the allocations per decision; pr hears of it
// every 1,024 decisions.
func measure(ctx context.Context, eng *runtime.Engine, calls []facts.Call, d time.Duration, pr *progress) (benchResult, error) {
	var r benchResult
	lat := make([]time.Duration, 0, 1<<16)
	var before, after goruntime.MemStats
	goruntime.GC()
	goruntime.ReadMemStats(&before)
	start := time.Now()
	for time.Since(start) < d {
		t := time.Now()
		if _, err := eng.Decide(ctx, calls[r.n%len(calls)]); err != nil {
			return r, err
		}
		lat = append(lat, time.Since(t))
		if r.n++; r.n%1024 == 0 {
			pr.update(r.n, 0)
		}
	}
	elapsed := time.Since(start)
	goruntime.ReadMemStats(&after)
	slices.Sort(lat)
	r.rate = float64(r.n) / elapsed.Seconds()
	r.p50 = lat[len(lat)/2].Round(100 * time.Nanosecond)
	r.p99 = lat[len(lat)*99/100].Round(100 * time.Nanosecond)
	r.allocs = float64(after.Mallocs-before.Mallocs) / float64(r.n)
	return r, nil
}
