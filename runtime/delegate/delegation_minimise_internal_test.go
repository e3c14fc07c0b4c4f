package delegate

import (
	"context"
	"fmt"
	"slices"
	"strings"
)

// Minimising and printing a disagreement of the delegation soundness
// fuzzer (delegation_soundness_internal_test.go): the calls and the fields
// nobody needs to show it are dropped, so that what is printed is the bug.

// report minimises a disagreeing pair and its calls and prints them.
func (h *soundHarness) report(ctx context.Context, title string, parentDoc, childDoc map[string]any, calls []CeilingCall) string {
	parentDoc, childDoc, calls = h.minimise(ctx, parentDoc, childDoc, calls)
	var b strings.Builder
	fmt.Fprintf(&b, "%s (minimised)\nparent: %s\nchild:  %s\ncalls (child alone, then each call it admits through the parent alone):\n",
		title, compact(parentDoc), compact(childDoc))
	parent, errP := decodeDoc("parent", parentDoc)
	child, errC := decodeDoc("child", childDoc)
	if errP != nil || errC != nil {
		fmt.Fprintf(&b, "  (the minimised pair does not decode: %v %v)\n", errP, errC)
		return b.String()
	}
	d, err := h.replay(ctx, parent, child, calls, nil)
	for i, c := range calls {
		fmt.Fprintf(&b, "  %d. %s", i+1, callString(c))
		if d != nil && d.step == i {
			fmt.Fprintf(&b, "  <- child %s, parent %s %s", decisionString(d.child), decisionString(d.parent), d.parent.Policy)
		}
		b.WriteByte('\n')
	}
	if err != nil {
		fmt.Fprintf(&b, "  replay: %v\n", err)
	}
	return b.String()
}

// fails reports whether the pair is accepted by the prover and still
// disagrees on calls.
func (h *soundHarness) fails(ctx context.Context, parentDoc, childDoc map[string]any, calls []CeilingCall) bool {
	parent, err := decodeDoc("parent", parentDoc)
	if err != nil {
		return false
	}
	child, err := decodeDoc("child", childDoc)
	if err != nil || !child.IsSubsetOf(parent) {
		return false
	}
	d, err := h.replay(ctx, parent, child, calls, nil)
	return err == nil && d != nil
}

// minimise drops calls, then fields and entries of either policy, one at a
// time while the pair still fails, until nothing more can go.
func (h *soundHarness) minimise(ctx context.Context, parentDoc, childDoc map[string]any, calls []CeilingCall) (map[string]any, map[string]any, []CeilingCall) {
	if !h.fails(ctx, parentDoc, childDoc, calls) {
		return parentDoc, childDoc, calls
	}
	for changed := true; changed; {
		changed = false
		for i := len(calls) - 1; i >= 0; i-- {
			shorter := slices.Delete(slices.Clone(calls), i, i+1)
			if h.fails(ctx, parentDoc, childDoc, shorter) {
				calls, changed = shorter, true
			}
		}
		for i := range calls {
			for _, simpler := range simplerCalls(calls, i) {
				if h.fails(ctx, parentDoc, childDoc, simpler) {
					calls, changed = simpler, true
					break
				}
			}
		}
		for _, pc := range reductions(parentDoc, childDoc) {
			if h.fails(ctx, pc[0], pc[1], calls) {
				parentDoc, childDoc, changed = pc[0], pc[1], true
				break
			}
		}
	}
	return parentDoc, childDoc, calls
}

// simplerCalls are calls with call i made plainer in one way: no agent, no
// roles, no untrusted output or grant, noon, or no time passed since the
// call before it (the later calls move back with it).
func simplerCalls(calls []CeilingCall, i int) [][]CeilingCall {
	var out [][]CeilingCall
	try := func(change func(c *CeilingCall) bool) {
		cs := slices.Clone(calls)
		if change(&cs[i]) {
			out = append(out, cs)
		}
	}
	try(func(c *CeilingCall) bool { ok := c.Agent != ""; c.Agent = ""; return ok })
	try(func(c *CeilingCall) bool { ok := c.Roles != nil; c.Roles = nil; return ok })
	try(func(c *CeilingCall) bool { ok := c.UntrustedPrior != 0; c.UntrustedPrior = 0; return ok })
	try(func(c *CeilingCall) bool { ok := c.AuthorizedOnce; c.AuthorizedOnce = false; return ok })
	try(func(c *CeilingCall) bool { ok := c.Minute != 720; c.Minute = 720; return ok })
	try(func(c *CeilingCall) bool { ok := c.Session != "A"; c.Session = "A"; return ok })
	before := 0.0
	if i > 0 {
		before = calls[i-1].At
	}
	if step := calls[i].At - before; step > 0 {
		cs := slices.Clone(calls)
		for j := i; j < len(cs); j++ {
			cs[j].At -= step
		}
		out = append(out, cs)
	}
	return out
}

// A removal names one field, or one entry of a list, a keyed field or the
// call budget (by its value or key), to take out of a policy document.
type removal struct {
	field, entry string
	whole        bool
}

// removals are the removals doc allows.
func removals(doc map[string]any) []removal {
	var out []removal
	for _, k := range sortedMapKeys(doc) {
		out = append(out, removal{field: k, whole: true})
		switch v := doc[k].(type) {
		case []any:
			for _, e := range v {
				out = append(out, removal{field: k, entry: fmt.Sprint(e)})
			}
		case map[string]any:
			for _, e := range sortedMapKeys(v) {
				out = append(out, removal{field: k, entry: e})
			}
		}
	}
	return out
}

// apply returns doc without r, and whether doc had it.
func (r removal) apply(doc map[string]any) (map[string]any, bool) {
	_, ok := doc[r.field]
	if !ok {
		return doc, false
	}
	d := cloneDoc(doc)
	if r.whole {
		delete(d, r.field)
		return d, true
	}
	switch v := d[r.field].(type) {
	case []any:
		kept := slices.DeleteFunc(slices.Clone(v), func(e any) bool { return fmt.Sprint(e) == r.entry })
		d[r.field] = kept
		return d, len(kept) < len(v)
	case map[string]any:
		_, had := v[r.entry]
		delete(v, r.entry)
		return d, had
	}
	return doc, false
}

// reductions are the pair with one removal made: from the parent alone,
// from the child alone, or from both (a field the child keeps because the
// parent has it can only go from both at once).
func reductions(parentDoc, childDoc map[string]any) [][2]map[string]any {
	var out [][2]map[string]any
	for _, r := range removals(parentDoc) {
		p, _ := r.apply(parentDoc)
		out = append(out, [2]map[string]any{p, childDoc})
		if c, ok := r.apply(childDoc); ok {
			out = append(out, [2]map[string]any{p, c})
		}
	}
	for _, r := range removals(childDoc) {
		c, _ := r.apply(childDoc)
		out = append(out, [2]map[string]any{parentDoc, c})
	}
	return out
}
