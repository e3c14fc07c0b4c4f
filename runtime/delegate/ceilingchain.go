package delegate

import (
	"context"
	"fmt"
	"sync"

	"github.com/regate/regate/compiler/delegation"
)

// The chain model: every policy of a delegation chain is a link with an
// identity, and the identity is what the ceiling's state is keyed by.
//
//   - A policy object handed to Run.Delegate as a parent (the planner's,
//     live: read as it is now at each call) or as a tool's own policy gets
//     one id per Run, by pointer identity: every delegation from that object
//     in the run shares its buckets and ledger, whoever the child is.
//   - A lease's frozen copy of a child gets an id of its own when it is
//     delegated: two children given equal policies still have their own
//     rates, and a grandchild delegated from a child names the child's link.
//
// Ids are "<run id>/<n>", n counting up in the run. A content hash would
// not do: equal siblings would share their own buckets, and a parent
// mutated after delegate would start again with full ones. Runs that share
// one CeilingState (WithRunState) must have distinct ids.

// chainLink is one policy of a chain: its id (its name in the compiled
// data and its key in the state) and the policy. A live link is compiled
// at every decision; a frozen one once.
type chainLink struct {
	id       string
	policy   *delegation.Policy
	live     bool
	compiled any // the frozen policy's compiled document
}

// frozenLink freezes a copy of p under a new id and compiles it.
func frozenLink(id string, p *delegation.Policy) (chainLink, error) {
	frozen := p.Clone()
	doc, err := compileOne(id, frozen)
	if err != nil {
		return chainLink{}, err
	}
	return chainLink{id: id, policy: frozen, compiled: doc}, nil
}

// document returns the link's compiled policy, compiling a live one as it
// is now.
func (l chainLink) document() (any, error) {
	if !l.live {
		return l.compiled, nil
	}
	return compileOne(l.id, l.policy.Clone())
}

func compileOne(id string, p *delegation.Policy) (any, error) {
	return delegation.CompilePolicy(id, p)
}

// chainData is the data document of a chain and a tool's own policy: what
// the ceiling reads at data.regate.delegation.
func chainData(links []chainLink, tool *chainLink) (map[string]any, error) {
	policies := make(map[string]any, len(links)+1)
	all := links
	if tool != nil {
		all = append(append([]chainLink(nil), links...), *tool)
	}
	for _, l := range all {
		doc, err := l.document()
		if err != nil {
			return nil, err
		}
		policies[l.id] = doc
	}
	return map[string]any{"policies": policies}, nil
}

func linkIDs(links []chainLink) []string {
	ids := make([]string, len(links))
	for i, l := range links {
		ids[i] = l.id
	}
	return ids
}

// ceilingDomain is a CeilingState and the ceiling that decides against it.
// Every chain in one domain shares its buckets and ledgers, and their
// decisions are serialized, so that concurrent siblings never both spend a
// parent's last token. A run is one domain; an isolated delegation starts
// its own.
type ceilingDomain struct {
	state CeilingState

	mu      sync.Mutex
	ceiling *Ceiling
}

func newCeilingDomain(s CeilingState) *ceilingDomain {
	if s == nil {
		s = NewMemoryCeilingState()
	}
	return &ceilingDomain{state: s}
}

// decide decides call on the chain's policies, the tool's own after them.
func (d *ceilingDomain) decide(ctx context.Context, links []chainLink, tool *chainLink, call CeilingCall) (CeilingDecision, error) {
	data, err := chainData(links, tool)
	if err != nil {
		return CeilingDecision{}, err
	}
	c, err := d.prepared(ctx)
	if err != nil {
		return CeilingDecision{}, err
	}
	call.Chain = linkIDs(links)
	call.ToolPolicy = ""
	if tool != nil {
		call.ToolPolicy = tool.id
	}
	return c.decideOver(ctx, data, call)
}

// prepared returns the domain's ceiling, preparing the query on first use.
func (d *ceilingDomain) prepared(ctx context.Context) (*Ceiling, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.ceiling != nil {
		return d.ceiling, nil
	}
	out, err := delegation.Compile(map[string]*delegation.Policy{})
	if err != nil {
		return nil, err
	}
	c, err := NewCeiling(ctx, out, WithCeilingState(d.state))
	if err != nil {
		return nil, err
	}
	d.ceiling = c
	return c, nil
}

// policyIDs mints and remembers the ids of a run's policies.
type policyIDs struct {
	mu     sync.Mutex
	run    string
	byPtr  map[*delegation.Policy]string
	minted uint64
}

// of is the id of a live policy object: the same object, the same id.
func (p *policyIDs) of(policy *delegation.Policy) string {
	p.mu.Lock()
	defer p.mu.Unlock()
	if id, ok := p.byPtr[policy]; ok {
		return id
	}
	if p.byPtr == nil {
		p.byPtr = map[*delegation.Policy]string{}
	}
	id := p.mintLocked()
	p.byPtr[policy] = id
	return id
}

// mint is a new id, for a frozen copy.
func (p *policyIDs) mint() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.mintLocked()
}

func (p *policyIDs) mintLocked() string {
	p.minted++
	return fmt.Sprintf("%s/%d", p.run, p.minted)
}

// liveLink is the link of a live policy object of the run.
func (p *policyIDs) liveLink(policy *delegation.Policy) chainLink {
	return chainLink{id: p.of(policy), policy: policy, live: true}
}
