package runtime

import (
	"context"
	"os"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/profiler"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/open-policy-agent/opa/v1/storage/inmem"
	"github.com/open-policy-agent/opa/v1/topdown"

	"github.com/regate/regate/compiler"
	"github.com/regate/regate/facts"
	"github.com/regate/regate/internal/testkit/workload"
)

func scratchSetup(t testing.TB, pol string) (*Engine, *compiler.Output, []ast.Value) {
	out, err := compiler.Compile(compiler.Input{Policy: &compiler.Source{Name: "policy.jsonc", Data: []byte(pol)}}, compiler.WithHome("/home/u"))
	if err != nil {
		t.Fatal(err)
	}
	e, err := New(context.Background(), out, WithCwd("/home/u/repo"), WithFS(facts.MapFS{}), WithCacheSize(0))
	if err != nil {
		t.Fatal(err)
	}
	calls := workload.Calls(workload.Seed, 1000)
	ins := make([]ast.Value, len(calls))
	for i, c := range calls {
		approvals, _ := e.session.current()
		ins[i] = inputValue(e.Facts(c), approvals)
	}
	return e, out, ins
}

func scratchQuery(t testing.TB, out *compiler.Output, extra ...func(*rego.Rego)) rego.PreparedEvalQuery {
	lib, _ := queryModules(decisionQuery, out.Modules)
	store := inmem.NewFromObjectWithOpts(out.Data, inmem.OptRoundTripOnWrite(false), inmem.OptReturnASTValuesOnRead(true))
	opts := append([]func(*rego.Rego){rego.Query(decisionQuery), rego.Store(store)}, extra...)
	opts = append(opts, moduleOptions(lib, out.Modules)...)
	q, err := rego.New(opts...).PrepareForEval(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return q
}

func TestScratchProfile(t *testing.T) {
	if os.Getenv("SCRATCH") == "" {
		t.Skip()
	}
	pol := workload.Policy(33)
	if os.Getenv("SCRATCH_POLICY") != "" {
		b, _ := os.ReadFile(os.Getenv("SCRATCH_POLICY"))
		pol = string(b)
	}
	_, out, ins := scratchSetup(t, pol)
	q := scratchQuery(t, out)
	p := profiler.New()
	for _, in := range ins {
		if _, err := q.Eval(context.Background(), rego.EvalParsedInput(in), rego.EvalQueryTracer(p)); err != nil {
			t.Fatal(err)
		}
	}
	rep := p.ReportTopNResults(100000, []string{"num_eval"})
	total := 0
	byFile := map[string]int{}
	for _, r := range rep {
		total += r.NumEval
		byFile[r.Location.File+":"+itoa(r.Location.Row)] += r.NumEval
	}
	t.Logf("evals per decision: %.1f", float64(total)/float64(len(ins)))
	type kv struct {
		k string
		v int
	}
	var kvs []kv
	for k, v := range byFile {
		kvs = append(kvs, kv{k, v})
	}
	sort.Slice(kvs, func(i, j int) bool { return kvs[i].v > kvs[j].v })
	for _, x := range kvs[:min(40, len(kvs))] {
		t.Logf("%6.1f %s", float64(x.v)/float64(len(ins)), x.k)
	}
}

func itoa(i int) string { return strings.TrimSpace(strings.Repeat(" ", 0) + fmtInt(i)) }

func fmtInt(i int) string {
	b := []byte{}
	if i == 0 {
		return "0"
	}
	for i > 0 {
		b = append([]byte{byte('0' + i%10)}, b...)
		i /= 10
	}
	return string(b)
}

func TestScratchTrace(t *testing.T) {
	cmd := os.Getenv("SCRATCH_CMD")
	if cmd == "" {
		t.Skip()
	}
	pol := workload.Policy(33)
	if os.Getenv("SCRATCH_POLICY") != "" {
		b, _ := os.ReadFile(os.Getenv("SCRATCH_POLICY"))
		pol = string(b)
	}
	e, out, _ := scratchSetup(t, pol)
	q := scratchQuery(t, out)
	approvals, _ := e.session.current()
	in := inputValue(e.Facts(facts.Call{Tool: "bash", Input: map[string]any{"command": cmd}}), approvals)
	buf := topdown.NewBufferTracer()
	if _, err := q.Eval(context.Background(), rego.EvalParsedInput(in), rego.EvalQueryTracer(buf)); err != nil {
		t.Fatal(err)
	}
	var sb strings.Builder
	topdown.PrettyTraceWithLocation(&sb, *buf)
	n := 0
	for _, l := range strings.Split(sb.String(), "\n") {
		if strings.Contains(l, "| Eval ") || strings.Contains(l, "| Index ") {
			n++
			t.Log(l)
		}
	}
	t.Logf("%d steps", n)
}

func BenchmarkScratchPartial(b *testing.B) {
	_, out, ins := scratchSetup(b, workload.Policy(33))
	lib, _ := queryModules(decisionQuery, out.Modules)
	store := inmem.NewFromObjectWithOpts(out.Data, inmem.OptRoundTripOnWrite(false), inmem.OptReturnASTValuesOnRead(true))
	mk := func() *rego.Rego {
		opts := []func(*rego.Rego){rego.Query(decisionQuery), rego.Store(store)}
		opts = append(opts, moduleOptions(lib, out.Modules)...)
		return rego.New(opts...)
	}
	ctx := context.Background()
	pr, err := mk().PartialResult(ctx)
	if err != nil {
		b.Fatal(err)
	}
	pq, err := pr.Rego(rego.Store(store)).PrepareForEval(ctx)
	if err != nil {
		b.Fatal(err)
	}
	q, _ := mk().PrepareForEval(ctx)
	for i, in := range ins[:50] {
		a, err1 := evalTerm(ctx, q, in)
		c, err2 := evalTerm(ctx, pq, in)
		if err1 != nil || err2 != nil || a.Compare(c) != 0 {
			b.Fatalf("%d: %v %v\n%v\n%v", i, err1, err2, a, c)
		}
	}
	b.Run("prepared", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			evalTerm(ctx, q, ins[i%len(ins)])
			i++
		}
	})
	b.Run("partial", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			evalTerm(ctx, pq, ins[i%len(ins)])
			i++
		}
	})
}

func TestScratchPercentiles(t *testing.T) {
	if os.Getenv("SCRATCH") == "" {
		t.Skip()
	}
	def, _ := os.ReadFile("../policies/default.jsonc")
	for _, p := range []struct{ name, src string }{{"bench33", workload.Policy(33)}, {"bench10k", workload.Policy(10000)}, {"default", string(def)}} {
		e, _, _ := scratchSetup(t, p.src)
		calls := workload.Calls(workload.Seed, 1000)
		ins := make([]*facts.Input, len(calls))
		for i, c := range calls {
			ins[i] = e.Facts(c)
		}
		ctx := context.Background()
		var ds []float64
		for round := 0; round < 5; round++ {
			for _, in := range ins {
				t0 := nanotime()
				if _, err := e.DecideFacts(ctx, in); err != nil {
					t.Fatal(err)
				}
				ds = append(ds, float64(nanotime()-t0)/1000)
			}
		}
		sort.Float64s(ds)
		sum := 0.0
		for _, d := range ds {
			sum += d
		}
		t.Logf("%s: p50 %.1fus p90 %.1fus p99 %.1fus mean %.1fus", p.name, ds[len(ds)/2], ds[len(ds)*9/10], ds[len(ds)*99/100], sum/float64(len(ds)))
	}
}

func nanotime() int64 { return time.Now().UnixNano() }

func TestScratchSpecial(t *testing.T) {
	if os.Getenv("SCRATCH") == "" {
		t.Skip()
	}
	def, _ := os.ReadFile("../policies/default.jsonc")
	e, _, _ := scratchSetup(t, string(def))
	cnt := map[string]int{}
	total := 0
	for _, c := range workload.Calls(workload.Seed, 1000) {
		in := e.Facts(c)
		for _, ch := range in.Checks {
			if ch.SpecOnly {
				continue
			}
			total++
			if ch.Bare {
				cnt["bare"]++
			}
			if ch.Role != "" {
				cnt["role"]++
			}
			if ch.Strict != "" {
				cnt["strict"]++
			}
			if ch.Error != "" {
				cnt["error"]++
			}
			if ch.Wrapper != "" {
				cnt["wrapper"]++
			}
			if ch.Unparseable {
				cnt["unparseable"]++
			}
			if ch.Malformed != "" {
				cnt["malformed"]++
			}
			if ch.Within != "" {
				cnt["within"]++
			}
			if len(ch.Forms) > 1 {
				cnt["groups"]++
			}
			if ch.StrictOnly {
				cnt["strict_only"]++
			}
		}
	}
	t.Logf("total %d: %v", total, cnt)
}
