package delegate

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	goruntime "runtime"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/regate/regate/compiler/delegation"
	"github.com/regate/regate/runtime"
)

// TestDelegationSoundness is a differential fuzzer of the subset prover and
// Narrow against the runtime that decides calls at the ceiling. For random
// parent and child policies (delegation_gen_internal_test.go) that
// SubsetProblems accepts, and for every Narrow of the parent that succeeds,
// it replays a random call sequence through the child alone and feeds the
// calls the child admits, in order, to the parent alone. The proof claims
// the parent admits each of them: a call the child allows that the parent
// does not allow, or one the child escalates that the parent refuses or
// escalates elsewhere, is a disagreement, printed minimised (the pair and
// the call sequence). A narrowed policy the prover does not accept is a
// failure too, and so is a subset problem without a file:line:col.
//
// Only the calls the child admits reach the parent, because a call the
// parent alone would admit and the child refuses charges the parent's
// buckets and ledger and not the child's: the claim is about the child's
// behaviour, each trace of calls it admits being one its parent admits.
//
// The seed is fixed, so every run decides the same pairs. REGATE_DELEG_PAIRS
// sets how many (the short default keeps `go test` to a few seconds);
// REGATE_DELEG_SEED changes the seed.
func TestDelegationSoundness(t *testing.T) {
	pairs := envInt(t, "REGATE_DELEG_PAIRS", 250)
	seed := uint64(envInt(t, "REGATE_DELEG_SEED", 21))
	if testing.Short() || raceEnabled {
		pairs = min(pairs, 40)
	}
	ctx := context.Background()
	workers := min(goruntime.GOMAXPROCS(0), 4)
	if pairs < 1000 {
		workers = 1 // the short run shares the machine with the other packages' tests
	}
	var (
		mu    sync.Mutex
		total soundStats
		found []string
		next  = 0
		wg    sync.WaitGroup
	)
	for range workers {
		h, err := newSoundHarness(ctx)
		if err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				mu.Lock()
				i := next
				next++
				stop := i >= pairs || len(found) >= 3
				mu.Unlock()
				if stop {
					return
				}
				st, reports, err := h.pair(ctx, seed, uint64(i))
				mu.Lock()
				total.add(st)
				found = append(found, reports...)
				if err != nil {
					found = append(found, fmt.Sprintf("pair %d: %v", i, err))
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	t.Logf("delegation soundness, seed %d: %s", seed, total)
	for _, f := range found {
		t.Error(f)
	}
	if total.subset.allowed == 0 || total.narrow.allowed == 0 || total.lease.allowed == 0 {
		t.Fatalf("the generator produced nothing to compare: %s", total)
	}
}

func envInt(t *testing.T, name string, def int) int {
	s := os.Getenv(name)
	if s == "" {
		return def
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		t.Fatalf("%s=%q: want a count", name, s)
	}
	return n
}

// soundStats are the figures of a run, for the subset pairs and the
// narrowed ones apart.
type soundStats struct{ subset, narrow, lease sideStats }

type sideStats struct {
	pairs, accepted, calls, allowed, escalated, disagreements int
}

func (s *soundStats) add(o soundStats) {
	for _, p := range []struct{ a, b *sideStats }{{&s.subset, &o.subset}, {&s.narrow, &o.narrow}, {&s.lease, &o.lease}} {
		p.a.pairs += p.b.pairs
		p.a.accepted += p.b.accepted
		p.a.calls += p.b.calls
		p.a.allowed += p.b.allowed
		p.a.escalated += p.b.escalated
		p.a.disagreements += p.b.disagreements
	}
}

func (s soundStats) String() string {
	f := func(s sideStats) string {
		return fmt.Sprintf("%d pairs, %d accepted, %d calls (%d allowed, %d escalated by the child), %d disagreements",
			s.pairs, s.accepted, s.calls, s.allowed, s.escalated, s.disagreements)
	}
	return "subset: " + f(s.subset) + "; narrow: " + f(s.narrow) + fmt.Sprintf("; leases: %d pairs, %d accepted, %d argument checks (%d allowed by the child), %d disagreements",
		s.lease.pairs, s.lease.accepted, s.lease.calls, s.lease.allowed, s.lease.disagreements)
}

// soundHarness is one ceiling, prepared once, whose compiled policies and
// state are replaced for every replay.
type soundHarness struct {
	c      *Ceiling
	leases *CapabilityEngine
}

func newSoundHarness(ctx context.Context) (*soundHarness, error) {
	out, err := delegation.Compile(map[string]*delegation.Policy{})
	if err != nil {
		return nil, err
	}
	c, err := NewCeiling(ctx, out)
	if err != nil {
		return nil, err
	}
	e, err := NewCapabilityEngine(ctx, nil)
	if err != nil {
		return nil, err
	}
	return &soundHarness{c: c, leases: e}, nil
}

// pair generates and checks pair i of the seed: a parent and a child made
// from it, a Narrow of the parent, each child with its own call sequence,
// and a parent's and a child's argument leases.
func (h *soundHarness) pair(ctx context.Context, seed, i uint64) (soundStats, []string, error) {
	g := newGen(rand.New(rand.NewPCG(seed, i)))
	var st soundStats
	parentDoc := g.policy()
	parent, err := decodeDoc("parent", parentDoc)
	if err != nil {
		return st, nil, err
	}
	reports, err := h.subsetSide(ctx, g, i, seed, parentDoc, parent, &st.subset)
	if err != nil {
		return st, reports, err
	}
	more, err := h.narrowSide(ctx, g, i, seed, parentDoc, parent, &st.narrow)
	reports = append(reports, more...)
	if err != nil {
		return st, reports, err
	}
	more, err = h.leaseSide(ctx, g, i, seed, &st.lease)
	return st, append(reports, more...), err
}

// subsetSide checks a child made from parent: every problem positioned,
// and when the prover accepts it, a call sequence.
func (h *soundHarness) subsetSide(ctx context.Context, g gen, i, seed uint64, parentDoc map[string]any, parent *delegation.Policy, st *sideStats) ([]string, error) {
	var reports []string
	childDoc := g.child(parentDoc)
	child, err := decodeDoc("child", childDoc)
	if err != nil {
		return nil, err
	}
	calls := g.calls(parentDoc, childDoc)
	st.pairs++
	problems := delegation.SubsetProblems(child, parent)
	for _, pr := range problems {
		if pr.Pos.File == "" {
			reports = append(reports, fmt.Sprintf("pair %d (seed %d): a problem without a position: %q\nparent: %s\nchild: %s",
				i, seed, pr.Msg, compact(parentDoc), compact(childDoc)))
		}
	}
	if len(problems) > 0 {
		return reports, nil
	}
	st.accepted++
	d, err := h.replay(ctx, parent, child, calls, st)
	if err != nil || d == nil {
		return reports, err
	}
	st.disagreements++
	return append(reports, h.report(ctx, fmt.Sprintf("pair %d (seed %d): the child admits what the parent refuses", i, seed),
		parentDoc, childDoc, calls)), nil
}

// narrowSide checks a random Narrow of parent: proven within it, and a
// call sequence.
func (h *soundHarness) narrowSide(ctx context.Context, g gen, i, seed uint64, parentDoc map[string]any, parent *delegation.Policy, st *sideStats) ([]string, error) {
	req := g.request(parentDoc)
	st.pairs++
	narrowed, err := parent.Narrow(req)
	if err != nil || len(parent.Unknown) > 0 {
		return nil, nil // a widening request, or a parent no policy is within
	}
	st.accepted++
	narrowedDoc := docOf(narrowed)
	if ps := delegation.SubsetProblems(narrowed, parent); len(ps) > 0 {
		st.disagreements++
		return []string{fmt.Sprintf("pair %d (seed %d): Narrow(%s) is not proven within its parent\nparent: %s\nnarrowed: %s\nproblems: %v",
			i, seed, requestString(req), compact(parentDoc), compact(narrowedDoc), ps)}, nil
	}
	calls := g.calls(parentDoc, narrowedDoc)
	d, err := h.replay(ctx, parent, narrowed, calls, st)
	if err != nil || d == nil {
		return nil, err
	}
	st.disagreements++
	return []string{h.report(ctx, fmt.Sprintf("pair %d (seed %d): Narrow(%s) admits what its parent refuses", i, seed, requestString(req)),
		parentDoc, narrowedDoc, calls)}, nil
}

// disagreement is the first call of a replay on which the child admits
// more than its parent.
type disagreement struct {
	step          int
	child, parent CeilingDecision
}

// replay decides calls through the child alone and each call the child
// admits through the parent alone, from fresh state. It returns the first
// disagreement, or nil.
func (h *soundHarness) replay(ctx context.Context, parent, child *delegation.Policy, calls []CeilingCall, st *sideStats) (*disagreement, error) {
	out, err := delegation.Compile(map[string]*delegation.Policy{"parent": parent, "child": child})
	if err != nil {
		return nil, err
	}
	if err := h.c.Update(ctx, out); err != nil {
		return nil, err
	}
	h.c.state = NewMemoryCeilingState()
	for i, call := range calls {
		if st != nil {
			st.calls++
		}
		call.Chain = []string{"child"}
		dc, err := h.c.Decide(ctx, call)
		if err != nil {
			return nil, err
		}
		call.Chain = []string{"parent"}
		var dp CeilingDecision
		switch dc.Decision {
		case "allow":
			if st != nil {
				st.allowed++
			}
			// Decided for real: the parent is charged for what the child
			// admits.
			if dp, err = h.c.Decide(ctx, call); err != nil {
				return nil, err
			}
			if dp.Decision != "allow" {
				return &disagreement{step: i, child: dc, parent: dp}, nil
			}
		case "escalate":
			if st != nil {
				st.escalated++
			}
			// An escalation charges nothing, so the parent is asked without
			// charging it either.
			if dp, err = h.peek(ctx, call); err != nil {
				return nil, err
			}
			if dp.Decision == "deny" || (dp.Decision == "escalate" && dp.Approver != dc.Approver) {
				return &disagreement{step: i, child: dc, parent: dp}, nil
			}
		}
	}
	return nil, nil
}

// peek decides call without charging anything.
func (h *soundHarness) peek(ctx context.Context, call CeilingCall) (CeilingDecision, error) {
	h.c.mu.Lock()
	defer h.c.mu.Unlock()
	var r ceilingResult
	err := runtime.EvalLibrary(ctx, h.c.query, h.c.input(call), &r)
	return r.CeilingDecision, err
}

// docOf is a policy as a document, its fields at their default left out
// so that the printed pair stays short.
func docOf(p *delegation.Policy) map[string]any {
	b, _ := json.Marshal(p)
	var full map[string]any
	_ = json.Unmarshal(b, &full)
	defaults := map[string]any{}
	b, _ = json.Marshal(&delegation.Policy{ReauthThreshold: 1})
	_ = json.Unmarshal(b, &defaults)
	for k, v := range full {
		if def, ok := defaults[k]; ok && jsonString(def) == jsonString(v) {
			delete(full, k)
		}
	}
	return full
}

func compact(doc map[string]any) string { return jsonString(doc) }

func jsonString(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func requestString(r delegation.Request) string {
	m := map[string]any{}
	if r.AllowedTools != nil {
		m["allowed_tools"] = r.AllowedTools
	}
	if r.DeniedTools != nil {
		m["denied_tools"] = r.DeniedTools
	}
	if r.RateLimits != nil {
		m["rate_limits"] = r.RateLimits
	}
	if r.CallBudget != nil {
		m["amplification_budget"] = r.CallBudget
	}
	return jsonString(m)
}

func callString(c CeilingCall) string {
	s := fmt.Sprintf("%s at %gs %02d:%02d session %s", c.Tool, c.At, c.Minute/60, c.Minute%60, c.Session)
	if c.Agent != "" {
		s += " agent " + c.Agent
	}
	if len(c.Roles) > 0 {
		s += " roles " + strings.Join(c.Roles, ",")
	}
	if c.UntrustedPrior > 0 {
		s += fmt.Sprintf(" untrusted_prior %d", c.UntrustedPrior)
	}
	if c.AuthorizedOnce {
		s += " authorized_once"
	}
	return s
}

func decisionString(d CeilingDecision) string {
	switch {
	case d.Violation != "":
		return d.Decision + " (" + d.Violation + ")"
	case d.Approver != "":
		return d.Decision + " to " + d.Approver
	}
	return d.Decision
}
