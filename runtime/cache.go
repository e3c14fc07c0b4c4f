package runtime

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"
	"sync"
	"unsafe"

	"github.com/regate/regate/bashfacts"
	"github.com/regate/regate/facts"
)

// DefaultCacheSize is how many decisions an engine remembers by default,
// and how many decompositions of bash commands.
const DefaultCacheSize = 4096

// DefaultCacheBytes bounds each of an engine's two caches by the size of
// what it holds (keys and values, estimated from their strings), whatever
// the number of entries: a cached decision's key is its whole input
// document, so a few calls with long commands could otherwise hold far
// more than 4096 short ones. An entry above a sixteenth of it (512 KiB)
// is not kept at all. In regate serve one engine, and so one pair of
// caches, serves every session.
const DefaultCacheBytes = 8 << 20

// entryOverhead is what an entry costs besides its strings: the map slot,
// the string headers, the ring's slot.
const entryOverhead = 96

// boundedCache is a concurrency-safe map of at most max entries holding at
// most maxBytes (as size estimates them); when either is full the oldest
// entries go first. It holds decisions by their exact input (see documentKey)
// and bash facts by their command text.
type boundedCache[V any] struct {
	mu       sync.Mutex
	max      int
	maxBytes int
	size     func(key string, v V) int
	m        map[string]cacheEntry[V]
	// order is a ring of the keys, oldest at head.
	order   []string
	head, n int
	bytes   int
}

type cacheEntry[V any] struct {
	v    V
	size int
}

// newBoundedCache returns a cache of max entries and maxBytes, or nil (no
// cache) when max is not positive. A nil cache finds nothing and keeps
// nothing. Nothing is allocated ahead: an engine that decides a few calls
// holds a few entries.
func newBoundedCache[V any](max, maxBytes int, size func(string, V) int) *boundedCache[V] {
	if max <= 0 || maxBytes <= 0 {
		return nil
	}
	return &boundedCache[V]{max: max, maxBytes: maxBytes, size: size, m: map[string]cacheEntry[V]{}}
}

func (c *boundedCache[V]) get(key string) (V, bool) {
	if c == nil {
		var zero V
		return zero, false
	}
	c.mu.Lock()
	e, ok := c.m[key]
	c.mu.Unlock()
	return e.v, ok
}

func (c *boundedCache[V]) put(key string, v V) {
	if c == nil {
		return
	}
	size := entryOverhead + len(key) + c.size(key, v)
	if size > c.maxBytes/16 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.m[key]; ok {
		return
	}
	for c.n > 0 && (c.n == c.max || c.bytes+size > c.maxBytes) {
		c.evictOldest()
	}
	if c.n == len(c.order) { // the ring is full but below max: it grows
		if c.head != 0 {
			c.order = append(c.order[c.head:len(c.order):len(c.order)], c.order[:c.head]...)
			c.head = 0
		}
		c.order = append(c.order, "")
	}
	c.order[(c.head+c.n)%len(c.order)] = key
	c.n++
	c.bytes += size
	c.m[key] = cacheEntry[V]{v, size}
}

func (c *boundedCache[V]) evictOldest() {
	k := c.order[c.head]
	c.order[c.head] = ""
	c.bytes -= c.m[k].size
	delete(c.m, k)
	c.head = (c.head + 1) % len(c.order)
	c.n--
}

// len reports how many entries the cache holds and their estimated bytes.
func (c *boundedCache[V]) len() (int, int) {
	if c == nil {
		return 0, 0
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n, c.bytes
}

// The decision cache remembers decisions by the exact input they were made
// from. The key is the whole input document (every check with every form,
// the tool, agent, registry flag and floor) and the stamp of the session's
// approvals, compared byte for byte, never by hash alone: two calls share a
// decision only when Rego would see the same input and the same data,
// whichever session they come from. Facts are still extracted for every
// call, so a change on disk (a new symlink, a file that now exists) changes
// the key. A policy change is a new Engine and a new cache.
type decisionCache = boundedCache[Decision]

func newDecisionCache(max, maxBytes int) *decisionCache {
	return newBoundedCache(max, maxBytes, decisionSize)
}

// decisionSize estimates the bytes a cached decision holds.
func decisionSize(_ string, d Decision) int {
	return int(unsafe.Sizeof(d)) + len(d.Action) + len(d.Matched) + len(d.Layer) + len(d.Surface) + len(d.Value) +
		len(d.Origin) + len(d.At) + len(d.Reason) + len(d.Pos) + len(d.Message) + len(d.Floor)
}

type extracted struct {
	facts *bashfacts.Facts
	err   error
}

// extractedSize estimates the bytes a cached decomposition holds: its
// units and tokens with their own strings (shared strings such as origins
// are counted as if they were not, which errs on the side of less held).
func extractedSize(_ string, e extracted) int {
	if e.facts == nil {
		return 64
	}
	n := int(unsafe.Sizeof(*e.facts)) + 8*len(e.facts.FDs)
	for i := range e.facts.Units {
		u := &e.facts.Units[i]
		n += int(unsafe.Sizeof(*u)) + len(u.Text) + len(u.Origin) + len(u.Program) + len(u.Runs) + len(u.Strict) +
			len(u.Prefix) + len(u.PrefixStrict)
		for _, s := range u.Spellings {
			n += 16 + len(s)
		}
	}
	for i := range e.facts.Tokens {
		t := &e.facts.Tokens[i]
		n += int(unsafe.Sizeof(*t)) + len(t.Value) + len(t.Dir.Path) + len(t.Glob) + len(t.Writes) + len(t.Unknown)
	}
	return n
}

// cachedExtract is bashfacts.Extract remembered by command text, in a cache
// of max entries and maxBytes (nil, the plain function, when max is not
// positive): Extract is a pure function of the text, and its result is
// only read.
func cachedExtract(max, maxBytes int) func(string) (*bashfacts.Facts, error) {
	c := newBoundedCache(max, maxBytes, extractedSize)
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

// documentKey is the decision cache's key: the session's approval stamp
// (Session.current) and the input document as JSON, the very document
// `regate facts` prints and a stock OPA server evaluates: facts.Input's
// JSON members are the Rego input's, so every member the facts make is in
// the key whatever its name, and nothing can be left out of it as a
// hand-kept field list once left out the strict-mode facts
// (TestDocumentKeyCoversTheDocument changes every field by reflection).
// The stamp stands for the document's session member, which is built from
// the approvals of that stamp; JSON strings are quoted and escaped, so two
// documents never share a key. Keys are compared byte for byte, never by
// hash alone.
//
// The key is encoded from the facts rather than from the AST document the
// query evaluates because building that document costs about a hundred
// allocations, which a cached decision spares (docs/performance.md).
// The working directory is not in it and need not be: the document already
// holds every path as the working directory made it (absolute and
// relative forms), so two calls from different folders with the same
// document are decided alike. The members facts' Index derives from the
// others are left out (unindexed).
func documentKey(in *facts.Input, stamp string) (string, error) {
	b := keyBuffers.Get().(*bytes.Buffer)
	defer keyBuffers.Put(b)
	b.Reset()
	b.WriteString(strconv.Itoa(len(stamp)))
	b.WriteByte(':')
	b.WriteString(stamp)
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(unindexed(in)); err != nil {
		return "", err
	}
	return b.String(), nil
}

// unindexed is in without the members facts' Index derives from the others
// (keys, any_keys, plain): they add nothing to a key, and a cached
// decision need not compute them. in is left as it is.
func unindexed(in *facts.Input) *facts.Input {
	if !slices.ContainsFunc(in.Checks, func(c facts.Check) bool { return c.Keys != nil || c.AnyKeys != nil || c.Plain }) {
		return in
	}
	cp := *in
	cp.Checks = slices.Clone(in.Checks)
	for i := range cp.Checks {
		c := &cp.Checks[i]
		c.Keys, c.AnyKeys, c.Plain = nil, nil, false
	}
	return &cp
}

// keyBuffers are documentKey's scratch buffers.
var keyBuffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// A stringMember and a flagMember are members of a check's object in the
// input document, under their Rego names; "" and false are left out.
type stringMember struct{ key, value string }
type flagMember struct {
	key string
	on  bool
}

// How many string and flag members checkMembers lists: the input
// document's builder sizes its scratch array by them.
const checkStrings, checkFlags = 9, 6

// checkMembers lists a check's members beside surface, value and forms,
// the list the input document (inputValue) is built from. Fixed-size arrays keep it free of
// allocations on the hot path.
func checkMembers(c *facts.Check) ([checkStrings]stringMember, [checkFlags]flagMember) {
	return [checkStrings]stringMember{
			{"origin", c.Origin}, {"error", c.Error}, {"wrapper", c.Wrapper}, {"reason", c.Reason}, {"at", c.At},
			{"strict", c.Strict}, {"malformed", c.Malformed}, {"within", c.Within}, {"role", c.Role},
		}, [checkFlags]flagMember{
			{"unparseable", c.Unparseable}, {"bare", c.Bare}, {"strict_only", c.StrictOnly}, {"spec_only", c.SpecOnly},
			{"plain", c.Plain}, {"changes", c.Changes},
		}
}
