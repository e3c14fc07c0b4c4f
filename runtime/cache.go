package runtime

import (
	"encoding/binary"
	"sync"

	"github.com/regate/regate/bashfacts"
	"github.com/regate/regate/facts"
)

// DefaultCacheSize is how many decisions an engine remembers by default.
const DefaultCacheSize = 4096

// boundedCache is a concurrency-safe map of at most max entries; when it is
// full the oldest entry goes first. It holds decisions by their exact input
// (see inputKey) and bash facts by their command text.
type boundedCache[V any] struct {
	mu    sync.Mutex
	max   int
	m     map[string]V
	order []string
	next  int
}

// newBoundedCache returns a cache of max entries, or nil (no cache) when
// max is not positive. A nil cache finds nothing and keeps nothing.
func newBoundedCache[V any](max int) *boundedCache[V] {
	if max <= 0 {
		return nil
	}
	return &boundedCache[V]{max: max, m: make(map[string]V, max), order: make([]string, 0, max)}
}

func (c *boundedCache[V]) get(key string) (V, bool) {
	if c == nil {
		var zero V
		return zero, false
	}
	c.mu.Lock()
	v, ok := c.m[key]
	c.mu.Unlock()
	return v, ok
}

func (c *boundedCache[V]) put(key string, v V) {
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
	c.m[key] = v
}

// The decision cache remembers decisions by the exact input they were made
// from. The key is the whole input document (every check with every form,
// the tool, agent, registry flag and floor) and the session's approval
// revision, compared byte for byte, never by hash alone: two calls share a
// decision only when Rego would see the same input and the same data. Facts
// are still extracted for every call, so a change on disk (a new symlink, a
// file that now exists) changes the key. A policy change is a new Engine and
// a new cache.
type decisionCache = boundedCache[Decision]

func newDecisionCache(max int) *decisionCache { return newBoundedCache[Decision](max) }

type extracted struct {
	facts *bashfacts.Facts
	err   error
}

// cachedExtract is bashfacts.Extract remembered by command text, in a cache
// of max entries (nil, the plain function, when max is not positive):
// Extract is a pure function of the text, and its result is only read.
func cachedExtract(max int) func(string) (*bashfacts.Facts, error) {
	c := newBoundedCache[extracted](max)
	if c == nil {
		return nil
	}
	return func(src string) (*bashfacts.Facts, error) {
		if e, ok := c.get(src); ok {
			return e.facts, e.err
		}
		f, err := bashfacts.Extract(src)
		c.put(src, extracted{f, err})
		return f, err
	}
}

// inputKey encodes everything the decision depends on besides the compiled
// policy: the input document and the approval revision. Strings are length
// prefixed, so no two inputs share a key. A check's members come from
// checkMembers, the list inputValue builds the document from, so a member
// Rego sees cannot be left out of the key (TestInputKeyCoversTheDocument).
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
	for i := range in.Checks {
		c := &in.Checks[i]
		str(c.Surface)
		str(c.Value)
		strs, flags := checkMembers(c)
		for _, f := range strs {
			str(f.value)
		}
		for _, f := range flags {
			flag(f.on)
		}
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

// A stringMember and a flagMember are members of a check's object in the
// input document, under their Rego names; "" and false are left out.
type stringMember struct{ key, value string }
type flagMember struct {
	key string
	on  bool
}

// How many string and flag members checkMembers lists: the input
// document's builder sizes its scratch array by them.
const checkStrings, checkFlags = 9, 4

// checkMembers lists a check's members beside surface, value and forms: the
// one list both the input document (inputValue) and the decision cache's
// key (inputKey) are built from. Fixed-size arrays keep it free of
// allocations on the hot path.
func checkMembers(c *facts.Check) ([checkStrings]stringMember, [checkFlags]flagMember) {
	return [checkStrings]stringMember{
			{"origin", c.Origin}, {"error", c.Error}, {"wrapper", c.Wrapper}, {"reason", c.Reason}, {"at", c.At},
			{"strict", c.Strict}, {"malformed", c.Malformed}, {"within", c.Within}, {"role", c.Role},
		}, [checkFlags]flagMember{
			{"unparseable", c.Unparseable}, {"bare", c.Bare}, {"strict_only", c.StrictOnly}, {"spec_only", c.SpecOnly},
		}
}
