package runtime

import (
	"encoding/binary"
	"sync"

	"github.com/regate/regate/facts"
)

// DefaultCacheSize is how many decisions an engine remembers by default.
const DefaultCacheSize = 4096

// decisionCache remembers decisions by the exact input they were made from.
// The key is the whole input document (every check with every form, the
// tool, agent, registry flag and floor) and the session's approval
// revision, compared byte for byte, never by hash alone: two calls share a
// decision only when Rego would see the same input and the same data. Facts
// are still extracted for every call, so a change on disk (a new symlink, a
// file that now exists) changes the key. A policy change is a new Engine and
// a new cache. The cache is bounded; the oldest entry goes first.
type decisionCache struct {
	mu    sync.Mutex
	max   int
	m     map[string]Decision
	order []string
	next  int
}

func newDecisionCache(max int) *decisionCache {
	if max <= 0 {
		return nil
	}
	return &decisionCache{max: max, m: make(map[string]Decision, max), order: make([]string, 0, max)}
}

func (c *decisionCache) get(key string) (Decision, bool) {
	if c == nil {
		return Decision{}, false
	}
	c.mu.Lock()
	d, ok := c.m[key]
	c.mu.Unlock()
	return d, ok
}

func (c *decisionCache) put(key string, d Decision) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.m[key]; ok {
		return
	}
	if len(c.order) < c.max {
		c.order = append(c.order, key)
	} else {
		delete(c.m, c.order[c.next])
		c.order[c.next] = key
		c.next = (c.next + 1) % c.max
	}
	c.m[key] = d
}

// inputKey encodes everything the decision depends on besides the compiled
// policy: the input document and the approval revision. Strings are length
// prefixed, so no two inputs share a key.
func inputKey(in *facts.Input, revision uint64) string {
	b := make([]byte, 0, 256)
	b = binary.AppendUvarint(b, revision)
	str := func(s string) {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	flag := func(on bool) {
		if on {
			b = append(b, 1)
		} else {
			b = append(b, 0)
		}
	}
	str(in.Tool)
	flag(in.Unregistered)
	str(in.Agent)
	str(in.Floor)
	b = binary.AppendUvarint(b, uint64(len(in.Checks)))
	for _, c := range in.Checks {
		str(c.Surface)
		str(c.Value)
		str(c.Origin)
		str(c.Error)
		str(c.Wrapper)
		str(c.Reason)
		str(c.At)
		flag(c.Unparseable)
		flag(c.Bare)
		b = binary.AppendUvarint(b, uint64(len(c.Forms)))
		for _, f := range c.Forms {
			b = binary.AppendUvarint(b, uint64(len(f)))
			for _, v := range f {
				str(v)
			}
		}
	}
	return string(b)
}
