package runtime

import (
	"sync"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/topdown"
)

// ruleCache is OPA's cache of the values of rules and function calls
// within one evaluation (topdown.VirtualCache), kept for reuse: OPA's own
// builds a trie with a hash map per level, about 10% of a decision's
// allocations, and drops it when the evaluation ends. This one files every
// entry in one hash map per frame and keeps the maps and their memory from
// one evaluation to the next (evalCaches), so that a warm cache allocates
// nothing. It changes what an evaluation costs, never what it returns: it
// answers exactly as OPA's does (TestRuleCacheAgreesWithOPA).
type ruleCache struct {
	frames []*cacheFrame // the active frame is the last; Push and Pop move along it
	depth  int
	terms  []*ast.Term // the references' terms, copied: OPA reuses its key slices
}

type cacheFrame struct {
	first   map[uint64]int32 // a reference's hash → its first entry
	entries []ruleEntry
}

type ruleEntry struct {
	ref       ast.Ref
	value     *ast.Term
	undefined bool
	next      int32 // the next entry of the same hash, or -1
}

var _ topdown.VirtualCache = (*ruleCache)(nil)

func newRuleCache() *ruleCache {
	c := &ruleCache{}
	c.Push()
	return c
}

// evalCache is the caches of one evaluation.
type evalCache struct {
	rules *ruleCache
	data  dataCache
}

// evalCaches holds the caches between evaluations.
var evalCaches = sync.Pool{New: func() any { return &evalCache{rules: newRuleCache()} }}

// maxKeptTerms bounds the memory a cache keeps between evaluations: one
// that a large evaluation (a walk of many paths) grew past it is dropped.
const maxKeptTerms = 1 << 14

// release empties the caches and returns them to evalCaches.
func (c *evalCache) release() {
	if cap(c.rules.terms) > maxKeptTerms || cap(c.data.terms) > maxKeptTerms {
		return
	}
	c.rules.reset()
	c.data.reset()
	evalCaches.Put(c)
}

// reset empties the cache for the next evaluation, keeping its memory.
func (c *ruleCache) reset() {
	for _, f := range c.frames[:c.depth] {
		f.clear()
	}
	c.depth = 1
	clear(c.terms)
	c.terms = c.terms[:0]
}

func (f *cacheFrame) clear() {
	clear(f.first)
	clear(f.entries)
	f.entries = f.entries[:0]
}

func (c *ruleCache) Push() {
	if c.depth == len(c.frames) {
		c.frames = append(c.frames, &cacheFrame{first: map[uint64]int32{}})
	}
	c.depth++
}

func (c *ruleCache) Pop() {
	c.depth--
	c.frames[c.depth].clear()
}

func (c *ruleCache) active() *cacheFrame { return c.frames[c.depth-1] }

// find is the index of ref's entry in f, or -1.
func (f *cacheFrame) find(h uint64, ref ast.Ref) int32 {
	i, ok := f.first[h]
	if !ok {
		return -1
	}
	for i >= 0 {
		if f.entries[i].ref.Equal(ref) {
			return i
		}
		i = f.entries[i].next
	}
	return -1
}

// Get is ref's value: (value, false) when cached, (nil, true) when ref was
// recorded undefined, (nil, false) when nothing is known of it.
func (c *ruleCache) Get(ref ast.Ref) (*ast.Term, bool) {
	f := c.active()
	i := f.find(refHash(ref), ref)
	if i < 0 {
		return nil, false
	}
	e := &f.entries[i]
	if e.undefined {
		return nil, true
	}
	return e.value, false
}

// Put records ref's value, or that ref is undefined when value is nil.
func (c *ruleCache) Put(ref ast.Ref, value *ast.Term) {
	f := c.active()
	h := refHash(ref)
	i := f.find(h, ref)
	if i < 0 {
		start := len(c.terms)
		c.terms = append(c.terms, ref...)
		next, ok := f.first[h]
		if !ok {
			next = -1
		}
		i = int32(len(f.entries))
		f.entries = append(f.entries, ruleEntry{ref: c.terms[start:len(c.terms):len(c.terms)], next: next})
		f.first[h] = i
	}
	e := &f.entries[i]
	if value != nil {
		e.value = value
	} else {
		e.undefined = true
	}
}

// Keys are the references of the active frame that have a value.
func (c *ruleCache) Keys() []ast.Ref {
	var keys []ast.Ref
	for _, e := range c.active().entries {
		if e.value != nil {
			keys = append(keys, e.ref)
		}
	}
	return keys
}

func refHash(ref ast.Ref) uint64 {
	h := uint64(len(ref))
	for _, t := range ref {
		h = h*1099511628211 ^ uint64(t.Hash())
	}
	return h
}

// dataCache is OPA's cache of the base documents an evaluation read from
// the store (topdown.BaseCache), kept for reuse like ruleCache: OPA's
// builds a trie of maps for each evaluation. An evaluation reads few
// documents (the surfaces of the rule sets it consults), so a list serves.
// It answers as OPA's does: a reference under a cached document is found
// in the shortest cached one above it, and caching a document forgets
// what was cached below it.
type dataCache struct {
	entries []dataEntry
	terms   []*ast.Term // the references' terms, copied
}

type dataEntry struct {
	ref   ast.Ref
	value ast.Value
}

var _ topdown.BaseCache = (*dataCache)(nil)

// Get is the value at ref found in the cached documents, or nil.
func (c *dataCache) Get(ref ast.Ref) ast.Value {
	var above *dataEntry
	for i := range c.entries {
		e := &c.entries[i]
		if len(e.ref) <= len(ref) && ref.HasPrefix(e.ref) && (above == nil || len(e.ref) < len(above.ref)) {
			above = e
		}
	}
	if above == nil {
		return nil
	}
	v, err := above.value.Find(ref[len(above.ref):])
	if err != nil {
		return nil
	}
	return v
}

// Put caches the document at ref, forgetting those cached below it.
func (c *dataCache) Put(ref ast.Ref, value ast.Value) {
	kept := c.entries[:0]
	for _, e := range c.entries {
		if !e.ref.HasPrefix(ref) {
			kept = append(kept, e)
		}
	}
	clear(c.entries[len(kept):])
	start := len(c.terms)
	c.terms = append(c.terms, ref...)
	c.entries = append(kept, dataEntry{ref: c.terms[start:len(c.terms):len(c.terms)], value: value})
}

func (c *dataCache) reset() {
	clear(c.entries)
	c.entries = c.entries[:0]
	clear(c.terms)
	c.terms = c.terms[:0]
}
