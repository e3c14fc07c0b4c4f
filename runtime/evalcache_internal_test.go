package runtime

import (
	"context"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/open-policy-agent/opa/v1/topdown"

	"github.com/regate/regate/compiler"
	"github.com/regate/regate/facts"
	"github.com/regate/regate/internal/testkit/workload"
)

// cacheRefs are the references the random operations below use: a few
// shared prefixes, scalars and composite terms, so that prefixes, equal
// composites built apart and hash neighbours all occur.
func cacheRefs(r *rand.Rand) ast.Ref {
	atoms := []func() *ast.Term{
		func() *ast.Term { return ast.StringTerm([]string{"a", "b", "c", "quick"}[r.IntN(4)]) },
		func() *ast.Term { return ast.IntNumberTerm(r.IntN(3)) },
		func() *ast.Term { return ast.ArrayTerm(ast.StringTerm("x"), ast.IntNumberTerm(r.IntN(2))) },
		func() *ast.Term {
			return ast.ObjectTerm(ast.Item(ast.StringTerm("surface"), ast.StringTerm([]string{"bash", "path"}[r.IntN(2)])))
		},
	}
	ref := ast.Ref{ast.DefaultRootDocument}
	for range 1 + r.IntN(4) {
		ref = append(ref, atoms[r.IntN(len(atoms))]())
	}
	return ref
}

// TestRuleCacheAgreesWithOPA runs random operations on ruleCache and on
// OPA's own virtual cache and requires the same answers, across resets.
func TestRuleCacheAgreesWithOPA(t *testing.T) {
	for seed := range uint64(200) {
		r := rand.New(rand.NewPCG(seed, 7))
		ours := newRuleCache()
		for round := range 3 {
			opas := topdown.NewVirtualCache()
			depth := 1
			for op := range 200 {
				ref := cacheRefs(r)
				switch k := r.IntN(10); {
				case k < 4:
					var v *ast.Term
					if r.IntN(4) > 0 {
						v = ast.IntNumberTerm(r.IntN(100))
					}
					// OPA reuses the slice it passes: ours must copy it.
					key := append(ast.Ref(nil), ref...)
					ours.Put(key, v)
					opas.Put(ref, v)
					for i := range key {
						key[i] = ast.NullTerm()
					}
				case k < 5:
					ours.Push()
					opas.Push()
					depth++
				case k < 6 && depth > 1:
					ours.Pop()
					opas.Pop()
					depth--
				default:
					v1, u1 := ours.Get(ref)
					v2, u2 := opas.Get(ref)
					if u1 != u2 || (v1 == nil) != (v2 == nil) || (v1 != nil && !v1.Equal(v2)) {
						t.Fatalf("seed %d round %d op %d: Get(%v) = %v, %v; OPA's = %v, %v", seed, round, op, ref, v1, u1, v2, u2)
					}
				}
			}
			if len(ours.Keys()) != len(opas.Keys()) {
				t.Fatalf("seed %d: %d keys, OPA's %d", seed, len(ours.Keys()), len(opas.Keys()))
			}
			ours.reset()
		}
	}
}

// baseTrie is OPA's base cache (topdown's baseCache, unexported there) as
// the model dataCache must answer like.
type baseTrie struct {
	value    ast.Value
	children map[ast.Value]*baseTrie
}

func (n *baseTrie) get(ref ast.Ref) ast.Value {
	for i := range ref {
		n = n.children[ref[i].Value]
		if n == nil {
			return nil
		}
		if n.value != nil {
			v, err := n.value.Find(ref[i+1:])
			if err != nil {
				return nil
			}
			return v
		}
	}
	return nil
}

func (n *baseTrie) put(ref ast.Ref, v ast.Value) {
	for i := range ref {
		c, ok := n.children[ref[i].Value]
		if !ok {
			c = &baseTrie{}
			if n.children == nil {
				n.children = map[ast.Value]*baseTrie{}
			}
			n.children[ref[i].Value] = c
		}
		n = c
	}
	n.value, n.children = v, nil
}

// TestDataCacheAgreesWithOPA runs random operations on dataCache and on
// the model of OPA's base cache, with documents that hold the documents
// below them, and requires the same answers.
func TestDataCacheAgreesWithOPA(t *testing.T) {
	names := []string{"a", "b", "c"}
	doc := func(r *rand.Rand, depth int) ast.Value {
		var build func(int) ast.Value
		build = func(d int) ast.Value {
			if d == 0 || r.IntN(3) == 0 {
				return ast.IntNumberTerm(r.IntN(100)).Value
			}
			o := ast.NewObject()
			for _, n := range names[:1+r.IntN(3)] {
				o.Insert(ast.StringTerm(n), ast.NewTerm(build(d-1)))
			}
			return o
		}
		return build(depth)
	}
	for seed := range uint64(300) {
		r := rand.New(rand.NewPCG(seed, 11))
		var ours dataCache
		for range 3 {
			model := &baseTrie{}
			for op := range 100 {
				ref := ast.Ref{ast.DefaultRootDocument}
				for range r.IntN(4) {
					ref = append(ref, ast.StringTerm(names[r.IntN(3)]))
				}
				if r.IntN(3) == 0 {
					v := doc(r, 3)
					ours.Put(ref, v)
					model.put(ref, v)
					continue
				}
				v1, v2 := ours.Get(ref), model.get(ref)
				if (v1 == nil) != (v2 == nil) || (v1 != nil && v1.Compare(v2) != 0) {
					t.Fatalf("seed %d op %d: Get(%v) = %v; OPA's = %v", seed, op, ref, v1, v2)
				}
			}
			ours.reset()
		}
	}
}

// TestEvalCachesDecideAsOPAs decides the workload's calls under the
// bundled default policy and the bench policy, with the self floor, once
// with OPA's own caches and once with the pooled ones, and requires the
// same decision objects.
func TestEvalCachesDecideAsOPAs(t *testing.T) {
	def, err := os.ReadFile("../policies/default.jsonc")
	if err != nil {
		t.Fatal(err)
	}
	guarded := []compiler.Guarded{
		{Path: "/home/u/.config/regate/policy.jsonc", What: "the policy file"},
		{Path: "/home/u/.config/regate", What: "regate's configuration folder", Folder: true},
		{Path: ".github/hooks", What: "hooks", Folder: true},
	}
	calls := workload.Calls(workload.Seed, 1000)
	ctx := context.Background()
	for name, src := range map[string]string{"default": string(def), "bench": workload.Policy(33)} {
		out, err := compiler.Compile(compiler.Input{Policy: &compiler.Source{Name: "policy.jsonc", Data: []byte(src)}, Guarded: guarded}, compiler.WithHome("/home/u"))
		if err != nil {
			t.Fatal(err)
		}
		e, err := New(ctx, out, WithCwd("/home/u/repo"), WithFS(facts.MapFS{}), WithCacheSize(0))
		if err != nil {
			t.Fatal(err)
		}
		approvals, _ := e.session.current()
		for i, c := range calls {
			in := e.Facts(c)
			in.Index()
			doc := inputValue(in, approvals)
			ours, err := evalTerm(ctx, e.query, doc)
			if err != nil {
				t.Fatal(err)
			}
			rs, err := e.query.Eval(ctx, rego.EvalParsedInput(doc), rego.EvalGenerateJSON(keepTerm))
			if err != nil || len(rs) != 1 {
				t.Fatalf("%s call %d: %v", name, i, err)
			}
			if opas := rs[0].Expressions[0].Value.(ast.Object); ours.Compare(opas) != 0 {
				t.Fatalf("%s call %d (%v): %v\nwith OPA's caches: %v", name, i, c.Input, ours, opas)
			}
		}
	}
}
