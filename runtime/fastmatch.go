package runtime

import (
	"sync"
	"unicode/utf8"

	"github.com/gobwas/glob"
	"github.com/open-policy-agent/opa/v1/ast"
)

// bestRule is regate.lib.match.best: the most specific rule of matcher mt
// matching one of values, or nil (undefined) when none does or mt is not a
// matcher. It reads the same indexes the pure-Rego library reads (exact,
// prefix, suffix and glob buckets probed once per distinct key length) with
// the same string semantics (lengths and substrings in runes, globs compiled
// by the same gobwas/glob as OPA's glob.match, without delimiters).
func bestRule(mt *ast.Term, values *ast.Array, fs *fastState) (*ast.Term, error) {
	if mt == nil {
		return nil, nil
	}
	n := fs.natives.get(mt.Value)
	if n == nil {
		return nil, nil
	}
	best := -1
	for i := 0; i < values.Len(); i++ {
		if s, ok := values.Elem(i).Value.(ast.String); ok {
			k, err := n.best(string(s), fs.globs)
			if err != nil {
				return nil, err // an unusable glob fails the decision closed
			}
			best = max(best, k)
		}
	}
	if best < 0 || best >= n.rules.Len() {
		return nil, nil
	}
	return n.rules.Elem(best), nil
}

// fastState is what the builtins of one prepared query share: compiled
// globs and decoded matchers.
type fastState struct {
	globs   *globCache
	natives *nativeCache
}

func newFastState() *fastState { return &fastState{globs: &globCache{}, natives: &nativeCache{}} }

// terms are the keys and constant values the builtins read and write,
// built once (and never changed) so that a lookup or an outcome allocates
// no key.
var terms = func() map[string]*ast.Term {
	m := map[string]*ast.Term{}
	for _, k := range []string{
		"rules", "exact", "prefix", "prefix_lens", "suffix", "suffix_lens", "glob", "glob_lens", "glob_bare",
		"surface", "forms", "bare", "error", "wrapper", "unparseable", "reason", "pattern", "pos", "action",
		"catch_all", "outcomes", "top", "rule", "layer", "i", "session", "agent", "policy", "agent_fallback",
		"policy_fallback", "allow", "ask", "deny", "floor", "facts", "fallback", "-", "",
		"<unresolved-path>", "<unparseable-bash-command>", "malformed", "<malformed-input>", "<opaque-bash-wrapper>", "<indirection-bash-wrapper>",
		// the input document's keys and common values
		"tool", "unregistered", "checks", "value", "origin", "at", "approvals", "hardguards", "surfaces",
		"floors", "yolo", "matched", "hard-guard", "registry", "decisionFloor", "<unregistered-tool>",
		"opaque", "indirection", "strict", "strict_only", "<strict-floor>",
		// the surfaces of the built-in tools
		"bash", "path", "read", "write", "edit", "mcp", "skill", "task", "find", "grep", "ls", "glob", "list",
	} {
		m[k] = ast.StringTerm(k)
	}
	return m
}()

// term is the prebuilt term of s, or a new one.
func term(s string) *ast.Term {
	if t, ok := terms[s]; ok {
		return t
	}
	return ast.StringTerm(s)
}

func field(o ast.Object, key string) ast.Value {
	if t := o.Get(term(key)); t != nil {
		return t.Value
	}
	return nil
}

// runePrefix is Rego's substring(v, 0, n): the first n runes, or all of v.
func runePrefix(v string, n int) string {
	i := 0
	for k := 0; k < n; k++ {
		if i >= len(v) {
			return v
		}
		_, size := utf8.DecodeRuneInString(v[i:])
		i += size
	}
	return v[:i]
}

// runeSuffix is Rego's substring(v, from, -1) for a rune offset.
func runeSuffix(v string, from int) string {
	return v[len(runePrefix(v, from)):]
}

// globCache holds compiled globs for one engine, bounded so that a policy
// with many general patterns cannot grow it without limit.
type globCache struct {
	mu sync.RWMutex
	m  map[string]*glob.Pattern
}

const globCacheSize = 4096

func (c *globCache) match(pattern, v string) (bool, error) {
	c.mu.RLock()
	g, ok := c.m[pattern]
	c.mu.RUnlock()
	if !ok {
		var err error
		if g, err = glob.Compile(pattern); err != nil {
			return false, err
		}
		c.mu.Lock()
		if c.m == nil || len(c.m) >= globCacheSize {
			c.m = map[string]*glob.Pattern{}
		}
		c.m[pattern] = g
		c.mu.Unlock()
	}
	return g.Match(v), nil
}
