package delegate

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/regate/regate/compiler/delegation"
)

// The lease side of the delegation soundness fuzzer: child leases the
// prover grants (LeaseProblems empty: each within a parent lease) must
// admit no argument value the parent's leases refuse, checked by the
// runtime's argument check (regate.lib.lease, step 4.5).

var (
	genTargets = []string{
		"*", "/repo/*", "/repo/docs/*", "/repo/docs/*.md", "/repo/src/?", "/repo/[ds]*", "/repo/docs/readme.md",
		"*.md", "/tmp/*", "/repo/docs/a?md", "/repo/*/readme.md",
	}
	genValues = []string{
		"/repo/docs/a.md", "/repo/docs/x/y.md", "/repo/src/a", "/repo/src/ab", "/repo/docs", "/repo/docs/readme.md",
		"/tmp/x", "readme.md", "/repo/../etc/passwd", "/repo/docs/..", "/repo/d", "/repo/docs/a.txt", "/etc/passwd",
		"/repo/s/readme.md", "/repo/docs/%2e%2e/x", "/repo/docs/a\x00.md",
	}
	genCapabilities = []string{"write_file", "network_egress"}
	genCategories   = []string{"filesystem_read", "credential_access", "network_egress"}
)

func (g gen) lease(id string) delegation.Lease {
	l := delegation.Lease{ID: id, Capability: g.pick(genCapabilities), Target: g.pick(genTargets)}
	for _, c := range genCategories {
		if g.chance(0.4) {
			l.Categories = append(l.Categories, c)
		}
	}
	return l
}

// leasePair is 1 to 3 parent leases and 1 to 2 child leases, most of them
// made from a parent lease (its capability, a target within its target,
// some of its categories), the rest drawn afresh.
func (g gen) leasePair() (parent, child []delegation.Lease) {
	for i := range 1 + g.r.IntN(3) {
		parent = append(parent, g.lease(fmt.Sprintf("p%d", i)))
	}
	for i := range 1 + g.r.IntN(2) {
		c := g.lease(fmt.Sprintf("c%d", i))
		if g.chance(0.8) {
			p := parent[g.r.IntN(len(parent))]
			c.Capability = p.Capability
			var within []string
			for _, t := range genTargets {
				if delegation.Within(t, p.Target) {
					within = append(within, t)
				}
			}
			if len(within) > 0 {
				c.Target = g.pick(within)
			}
			c.Categories = nil
			for _, cat := range p.Categories {
				if g.chance(0.7) {
					c.Categories = append(c.Categories, cat)
				}
			}
		}
		child = append(child, c)
	}
	return parent, child
}

// leaseChecks decides argument values under the child's leases and each
// value the child admits under the parent's. It returns the first value the
// child admits and the parent refuses, or "".
func (h *soundHarness) leaseChecks(ctx context.Context, parent, child []delegation.Lease, values []ArgumentCall, st *sideStats) (string, error) {
	e := h.leases
	for _, a := range []string{"parent", "child"} {
		for _, l := range e.Held(a) {
			e.Revoke(a, l.ID)
		}
	}
	for _, l := range parent {
		e.Grant("parent", l)
	}
	for _, l := range child {
		e.Grant("child", l)
	}
	for _, v := range values {
		if st != nil {
			st.calls++
		}
		v.Agent = "child"
		dc, err := e.CheckArgument(ctx, v)
		if err != nil {
			return "", err
		}
		if dc.Decision != "allow" {
			continue
		}
		if st != nil {
			st.allowed++
		}
		v.Agent = "parent"
		dp, err := e.CheckArgument(ctx, v)
		if err != nil {
			return "", err
		}
		if dp.Decision != "allow" {
			return fmt.Sprintf("%s %q", v.Capability, v.Value), nil
		}
	}
	return "", nil
}

// leaseSide draws and checks pair i's leases.
func (h *soundHarness) leaseSide(ctx context.Context, g gen, i, seed uint64, st *sideStats) ([]string, error) {
	parent, child := g.leasePair()
	var values []ArgumentCall
	for range 6 + g.r.IntN(10) {
		values = append(values, ArgumentCall{Capability: g.pick(genCapabilities), Value: g.pick(genValues)})
	}
	st.pairs++
	if len(delegation.LeaseProblems(child, parent)) > 0 {
		return nil, nil
	}
	st.accepted++
	bad, err := h.leaseChecks(ctx, parent, child, values, st)
	if err != nil || bad == "" {
		return nil, err
	}
	st.disagreements++
	// Minimised: the leases neither side needs to disagree are dropped.
	for _, side := range []*[]delegation.Lease{&child, &parent} {
		for j := len(*side) - 1; j >= 0; j-- {
			fewer := slices.Delete(slices.Clone(*side), j, j+1)
			p, c := parent, child
			if side == &child {
				c = fewer
			} else {
				p = fewer
			}
			if len(c) == 0 || len(delegation.LeaseProblems(c, p)) > 0 {
				continue
			}
			if b, err := h.leaseChecks(ctx, p, c, values, nil); err == nil && b != "" {
				*side = fewer
			}
		}
	}
	bad, _ = h.leaseChecks(ctx, parent, child, values, nil)
	return []string{fmt.Sprintf("pair %d (seed %d): a child lease admits what the parent's refuse (minimised)\nparent leases: %s\nchild leases:  %s\nvalue: %s",
		i, seed, leasesString(parent), leasesString(child), bad)}, nil
}

func leasesString(ls []delegation.Lease) string {
	var parts []string
	for _, l := range ls {
		parts = append(parts, fmt.Sprintf("%s{%s %q %v}", l.ID, l.Capability, l.Target, l.Categories))
	}
	return strings.Join(parts, ", ")
}
