package suggest_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/regate/regate/compiler"
	"github.com/regate/regate/compiler/action"
	"github.com/regate/regate/facts"
	"github.com/regate/regate/internal/testkit/sessiontrace"
	"github.com/regate/regate/policies"
	"github.com/regate/regate/runtime"
	"github.com/regate/regate/runtime/suggest"
)

// The recorded session is decided in this repository, on a virtual tree.
var repoFS = facts.MapFS{"/home/u/repo/go.mod": "file"}

func newEngine(ctx context.Context, out *compiler.Output) (*runtime.Engine, error) {
	return runtime.New(ctx, out, runtime.WithCwd("/home/u/repo"), runtime.WithFS(repoFS), runtime.WithCacheSize(0))
}

var home = compiler.WithHome("/home/u")

func readTrace(t testing.TB) []sessiontrace.Entry {
	t.Helper()
	trace, err := sessiontrace.ReadFile("../../testdata/trace/session.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	return trace
}

// replay decides the trace under a policy as a session would: every ask is
// put to the trace's person, and the review log and the decision log are
// what it leaves.
func replay(t testing.TB, policy []byte, trace []sessiontrace.Entry) (evidence []suggest.Record, decisions []runtime.Decision) {
	t.Helper()
	ctx := context.Background()
	out, err := compiler.Compile(compiler.Input{Policy: &compiler.Source{Name: "policy.jsonc", Data: policy}}, home)
	if err != nil || len(out.Diagnostics.Fatal()) > 0 {
		t.Fatal(err, out.Diagnostics)
	}
	e, err := newEngine(ctx, out)
	if err != nil {
		t.Fatal(err)
	}
	for i, entry := range trace {
		d, err := e.Decide(ctx, entry.Call)
		if err != nil {
			t.Fatal(err)
		}
		decisions = append(decisions, d)
		r := suggest.Record{Call: entry.Call, Decision: suggest.OutcomeOf(d), Session: entry.Session,
			Time: fmt.Sprintf("2026-12-01T%02d:%02d:00Z", 8+i/300, (i/5)%60)}
		if d.Action == action.Ask {
			r.Answered, r.Approved = true, entry.Answer == "approve"
		}
		evidence = append(evidence, r)
	}
	return evidence, decisions
}

func countAsks(ds []runtime.Decision) int {
	n := 0
	for _, d := range ds {
		if d.Action == action.Ask {
			n++
		}
	}
	return n
}

// TestPromptFatigue replays the recorded session (3,000 calls of 40
// sessions, internal/testkit/sessiontrace) under the bundled default policy,
// suggests rules from what its people approved, and replays it again under
// the policy with the suggestions written in: the prompts fall by at least
// half, and no call that was denied, that a person rejected, or that a
// floor or hard guard decided is decided more loosely (the comparison
// regate diff makes, call by call).
func TestPromptFatigue(t *testing.T) {
	if testing.Short() {
		t.Skip("replays 3,000 calls several times")
	}
	trace := readTrace(t)
	evidence, before := replay(t, policies.Default(), trace)
	res, err := suggest.Suggest(context.Background(), compiler.Input{Policy: &compiler.Source{Name: "policy.jsonc", Data: policies.Default()}},
		evidence, suggest.Options{Engine: newEngine, Compile: []compiler.Option{home}})
	if err != nil {
		t.Fatal(err)
	}
	_, after := replay(t, res.Policy, trace)
	asksBefore, asksAfter := countAsks(before), countAsks(after)
	t.Logf("%d suggestions; prompts %d -> %d", len(res.Suggestions), asksBefore, asksAfter)
	for _, s := range res.Suggestions {
		t.Logf("  %s %q: %d approvals, %d sessions, %d calls change", s.Surface, s.Pattern, s.Approvals, len(s.Sessions), len(s.Changes))
	}
	if asksAfter*2 > asksBefore {
		t.Errorf("prompts %d -> %d: not cut by half", asksBefore, asksAfter)
	}
	loosened := 0
	for i, entry := range trace {
		b, a := before[i], after[i]
		guarded := b.Action == action.Deny || (b.Action == action.Ask && entry.Answer == "reject") ||
			b.Layer == "floor" || b.Layer == "hard-guard"
		if guarded && b.Action.Stricter(a.Action) {
			loosened++
			t.Errorf("%v: %s (%s) became %s (%s)", entry.Call, b.Action, b.Matched, a.Action, a.Matched)
		}
	}
	if loosened > 0 {
		t.Errorf("%d guarded calls loosened", loosened)
	}
}

// BenchmarkPromptFatigue reports the recorded session's prompts before and
// after the suggestions (prompts-before, prompts-after), and the time a
// whole suggest run over its 3,000 calls takes.
func BenchmarkPromptFatigue(b *testing.B) {
	trace := readTrace(b)
	evidence, before := replay(b, policies.Default(), trace)
	in := compiler.Input{Policy: &compiler.Source{Name: "policy.jsonc", Data: policies.Default()}}
	var res suggest.Result
	b.ReportAllocs()
	for b.Loop() {
		var err error
		if res, err = suggest.Suggest(context.Background(), in, evidence, suggest.Options{Engine: newEngine, Compile: []compiler.Option{home}}); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	_, after := replay(b, res.Policy, trace)
	b.ReportMetric(float64(countAsks(before)), "prompts-before")
	b.ReportMetric(float64(countAsks(after)), "prompts-after")
	b.ReportMetric(float64(len(res.Suggestions)), "suggestions")
}
