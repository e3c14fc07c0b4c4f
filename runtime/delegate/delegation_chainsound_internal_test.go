package delegate

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/regate/regate/compiler/delegation"
)

// TestDelegationChainSoundness extends the differential fuzzer
// (TestDelegationSoundness) from pairs to chains, with the generator of
// delegation_gen_internal_test.go. Each draw has two parts:
//
//   - Three levels: a grandparent, a parent narrowed from it and a child
//     narrowed from the parent, each proven within the one above. The calls
//     the child alone admits must be admitted by the parent alone and by the
//     grandparent alone (every ancestor, not only the nearest), each from
//     fresh state and charged for exactly those calls. And the whole chain,
//     entered through the Go API (Run.Delegate, ChildRun.Delegate), must
//     decide every call as the child alone does: the same allows and
//     escalations (to the same approver), a refusal for every refusal
//     (where the child alone refuses an escalation for want of an approver,
//     the chain may escalate to an outer policy's, the outermost rule
//     winning).
//   - Shared-parent siblings: two children narrowed from one parent take
//     interleaved calls through the Go API. Every decision must equal the
//     Rego ceiling's over the same policies by name; the calls both admit,
//     in order, must be admitted by the parent alone (siblings together
//     never spend more than their parent holds); and each child's own
//     admitted calls by that child alone.
//
// The seed is fixed. REGATE_DELEG_PAIRS sets the number of draws (short by
// default), REGATE_DELEG_SEED the seed, as for the pair fuzzer.
func TestDelegationChainSoundness(t *testing.T) {
	draws := envInt(t, "REGATE_DELEG_PAIRS", 60)
	seed := uint64(envInt(t, "REGATE_DELEG_SEED", 21))
	if testing.Short() || raceEnabled {
		draws = min(draws, 20)
	}
	ctx := context.Background()
	workers := 1 // the short run shares the machine with the other packages' tests
	if draws >= 1000 {
		workers = min(runtime.GOMAXPROCS(0), 4)
	}
	var (
		mu    sync.Mutex
		total chainStats
		found []string
		next  int
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
				stop := i >= draws || len(found) >= 3
				mu.Unlock()
				if stop {
					return
				}
				st, reports, err := h.chainDraw(ctx, seed, uint64(i))
				mu.Lock()
				total.three.add(st.three)
				total.siblings.add(st.siblings)
				found = append(found, reports...)
				if err != nil {
					found = append(found, fmt.Sprintf("draw %d: %v", i, err))
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	t.Logf("delegation chain soundness, seed %d: three levels: %s; siblings: %s", seed, total.three, total.siblings)
	for _, f := range found {
		t.Error(f)
	}
	if total.three.allowed == 0 || total.siblings.allowed == 0 {
		t.Fatalf("the generator produced nothing to compare: %s; %s", total.three, total.siblings)
	}
}

type chainStats struct{ three, siblings sideStats }

func (s *sideStats) add(o sideStats) {
	s.pairs += o.pairs
	s.accepted += o.accepted
	s.calls += o.calls
	s.allowed += o.allowed
	s.escalated += o.escalated
	s.disagreements += o.disagreements
}

func (s sideStats) String() string {
	return fmt.Sprintf("%d draws, %d accepted, %d calls (%d allowed, %d escalated), %d disagreements",
		s.pairs, s.accepted, s.calls, s.allowed, s.escalated, s.disagreements)
}

// chainDraw is draw i of the seed: a three-level chain and a pair of
// siblings, each from its own random stream.
func (h *soundHarness) chainDraw(ctx context.Context, seed, i uint64) (chainStats, []string, error) {
	var st chainStats
	reports, err := h.threeLevels(ctx, newGen(rand.New(rand.NewPCG(seed, 1<<40|i))), &st.three)
	if err != nil {
		return st, reports, err
	}
	more, err := h.siblings(ctx, newGen(rand.New(rand.NewPCG(seed, 2<<40|i))), &st.siblings)
	return st, append(reports, more...), err
}

// narrowOf draws requests of parent, up to four, and returns the first
// narrowed policy, or nil when Narrow refuses them all or the parent is one
// no policy is within.
func narrowOf(g gen, parentDoc map[string]any, parent *delegation.Policy) *delegation.Policy {
	if len(parent.Unknown) > 0 {
		return nil
	}
	for range 4 {
		if n, err := parent.Narrow(g.request(parentDoc)); err == nil {
			return n
		}
	}
	return nil
}

// threeLevels checks a grandparent, a parent and a child.
func (h *soundHarness) threeLevels(ctx context.Context, g gen, st *sideStats) ([]string, error) {
	st.pairs++
	gpDoc := g.policy()
	gp, err := decodeDoc("grandparent", gpDoc)
	if err != nil {
		return nil, err
	}
	p := narrowOf(g, gpDoc, gp)
	if p == nil {
		return nil, nil
	}
	c := narrowOf(g, docOf(p), p)
	if c == nil {
		return nil, nil
	}
	st.accepted++
	docs := fmt.Sprintf("grandparent: %s\nparent: %s\nchild: %s", compact(gpDoc), compact(docOf(p)), compact(docOf(c)))
	for _, pair := range [][2]*delegation.Policy{{p, gp}, {c, p}} {
		if ps := delegation.SubsetProblems(pair[0], pair[1]); len(ps) > 0 {
			st.disagreements++
			return []string{fmt.Sprintf("a narrowed policy is not proven within its parent: %v\n%s", ps, docs)}, nil
		}
	}
	calls := g.calls(gpDoc, docOf(p), docOf(c))
	for i := range calls {
		calls[i].Agent = "leaf"
	}
	alone, msg, err := h.aloneThenAncestors(ctx, map[string]*delegation.Policy{"gp": gp, "p": p, "c": c}, calls, st)
	if err != nil || msg != "" {
		return reportIf(msg, docs, st), err
	}
	// The chain through the Go API decides each call as the child alone.
	run := NewRun("chain")
	mid, err := enterChild(run, nil, gp, p, "mid", 0)
	if err != nil {
		return nil, err
	}
	leaf, err := enterChild(run, mid, nil, c, "leaf", 1)
	if err != nil {
		return nil, err
	}
	for i, call := range calls {
		d, err := leaf.Decide(ctx, call)
		if err != nil {
			return nil, err
		}
		if !chainAgrees(alone[i], d) {
			return reportIf(fmt.Sprintf("call %d (%s): the child alone %s, the chain %s", i+1, callString(call),
				decisionString(alone[i]), decisionString(d)), docs, st), nil
		}
	}
	return nil, nil
}

// aloneThenAncestors decides calls through the child "c" alone and each call
// it allows through every other policy alone, charged; an escalation is
// peeked at without charging. It returns the child's decisions, or what
// went wrong.
func (h *soundHarness) aloneThenAncestors(ctx context.Context, policies map[string]*delegation.Policy, calls []CeilingCall, st *sideStats) ([]CeilingDecision, string, error) {
	out, err := delegation.Compile(policies)
	if err != nil {
		return nil, "", err
	}
	if err := h.c.Update(ctx, out); err != nil {
		return nil, "", err
	}
	h.c.state = NewMemoryCeilingState()
	alone := make([]CeilingDecision, len(calls))
	for i, call := range calls {
		st.calls++
		call.Chain = []string{"c"}
		if alone[i], err = h.c.Decide(ctx, call); err != nil {
			return nil, "", err
		}
		for _, ancestor := range []string{"p", "gp"} {
			call.Chain = []string{ancestor}
			var d CeilingDecision
			switch alone[i].Decision {
			case "allow":
				d, err = h.c.Decide(ctx, call)
				if err == nil && d.Decision != "allow" {
					return nil, fmt.Sprintf("call %d (%s): the child allows, %s alone %s", i+1, callString(call), ancestor, decisionString(d)), nil
				}
			case "escalate":
				d, err = h.peek(ctx, call)
				if err == nil && (d.Decision == "deny" || (d.Decision == "escalate" && d.Approver != alone[i].Approver)) {
					return nil, fmt.Sprintf("call %d (%s): the child escalates to %s, %s alone %s", i+1, callString(call), alone[i].Approver, ancestor, decisionString(d)), nil
				}
			}
			if err != nil {
				return nil, "", err
			}
		}
		switch alone[i].Decision {
		case "allow":
			st.allowed++
		case "escalate":
			st.escalated++
		}
	}
	return alone, "", nil
}

// chainAgrees: the chain decides as the child alone, except that an
// escalation the child alone refuses for want of an approver may escalate
// to an outer policy's approver.
func chainAgrees(alone, chain CeilingDecision) bool {
	switch {
	case alone.Decision == "deny" && alone.Violation == "no_approver":
		return chain.Decision == "deny" || chain.Decision == "escalate"
	case alone.Decision == "escalate":
		return chain.Decision == "escalate" && chain.Approver == alone.Approver
	}
	return alone.Decision == chain.Decision
}

func reportIf(msg, docs string, st *sideStats) []string {
	if msg == "" {
		return nil
	}
	st.disagreements++
	return []string{msg + "\n" + docs}
}

// enterChild delegates child from parent (in run, or further from above)
// and enters it.
func enterChild(run *Run, above *ChildRun, parent, child *delegation.Policy, agent string, level int) (*ChildRun, error) {
	o := DelegateOptions{AgentID: agent, Level: level}
	var d *Delegation
	var err error
	if above == nil {
		d, err = run.Delegate(parent, child, o)
	} else {
		d, err = above.Delegate(child, o)
	}
	if err != nil {
		return nil, err
	}
	return d.Enter(run, level)
}

// siblings checks two children of one parent taking interleaved calls.
func (h *soundHarness) siblings(ctx context.Context, g gen, st *sideStats) ([]string, error) {
	st.pairs++
	pDoc := g.policy()
	p, err := decodeDoc("parent", pDoc)
	if err != nil {
		return nil, err
	}
	a, b := narrowOf(g, pDoc, p), narrowOf(g, pDoc, p)
	if a == nil || b == nil {
		return nil, nil
	}
	st.accepted++
	docs := fmt.Sprintf("parent: %s\nalpha: %s\nbeta: %s", compact(pDoc), compact(docOf(a)), compact(docOf(b)))
	run := NewRun("siblings")
	children := map[string]*ChildRun{}
	for name, child := range map[string]*delegation.Policy{"alpha": a, "beta": b} {
		if children[name], err = enterChild(run, nil, p, child, name, 0); err != nil {
			return nil, err
		}
	}
	out, err := delegation.Compile(map[string]*delegation.Policy{"parent": p, "alpha": a, "beta": b})
	if err != nil {
		return nil, err
	}
	if err := h.c.Update(ctx, out); err != nil {
		return nil, err
	}
	h.c.state = NewMemoryCeilingState()
	names := map[string]string{run.PolicyID(p): "parent", children["alpha"].Chain()[1]: "alpha", children["beta"].Chain()[1]: "beta"}
	calls := g.calls(pDoc, docOf(a), docOf(b))
	var admitted []CeilingCall
	for i, call := range calls {
		st.calls++
		call.Agent = []string{"alpha", "beta"}[g.r.IntN(2)]
		calls[i] = call
		got, err := children[call.Agent].Decide(ctx, call)
		if err != nil {
			return nil, err
		}
		call.Chain = []string{"parent", call.Agent}
		want, err := h.c.Decide(ctx, call)
		if err != nil {
			return nil, err
		}
		got.Policy, got.Escalation = names[got.Policy], ""
		got.Reason, want.Reason = "", "" // each names the policies its own way
		if got != want {
			return reportIf(fmt.Sprintf("call %d (%s): the Go API %+v, the Rego ceiling %+v", i+1, callString(call), got, want), docs, st), nil
		}
		switch got.Decision {
		case "allow":
			st.allowed++
			admitted = append(admitted, call)
		case "escalate":
			st.escalated++
		}
	}
	// Together the siblings spent no more than the parent holds, and each
	// no more than its own policy.
	h.c.state = NewMemoryCeilingState()
	for _, call := range admitted {
		for _, chain := range [][]string{{"parent"}, {call.Agent}} {
			call.Chain = chain
			d, err := h.c.Decide(ctx, call)
			if err != nil {
				return nil, err
			}
			if d.Decision != "allow" {
				return reportIf(fmt.Sprintf("%s alone refuses an admitted call of %s (%s): %s; the admitted calls: %s",
					chain[0], call.Agent, callString(call), decisionString(d), callsString(admitted)), docs, st), nil
			}
		}
	}
	return nil, nil
}

func callsString(calls []CeilingCall) string {
	s := make([]string, len(calls))
	for i, c := range calls {
		s[i] = callString(c)
	}
	return strings.Join(s, "; ")
}
