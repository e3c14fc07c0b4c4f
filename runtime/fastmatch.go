package runtime

import (
	"sync"
	"unicode/utf8"

	"github.com/gobwas/glob"
	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/open-policy-agent/opa/v1/types"
)

// matchBuiltin is regate_match_best, the Go twin of regate.lib.match.best:
// the most specific rule of a compiled matcher that matches any of the
// values, or undefined. It reads the same indexes the pure-Rego library
// reads (exact, prefix, suffix and glob buckets probed once per distinct key
// length) with the same string semantics (lengths and substrings in runes,
// globs compiled by the same gobwas/glob as OPA's glob.match, without
// delimiters). It is attached to the engine's own rego instance, never to
// OPA's global registry.
func matchBuiltin(globs *globCache) func(*rego.Rego) {
	decl := &rego.Function{
		Name: "regate_match_best",
		Decl: types.NewFunction(types.Args(types.A, types.A), types.A),
	}
	return rego.Function2(decl, func(_ rego.BuiltinContext, mt, vt *ast.Term) (*ast.Term, error) {
		m, ok := mt.Value.(ast.Object)
		if !ok {
			return nil, nil
		}
		values, ok := vt.Value.(*ast.Array)
		if !ok {
			return nil, nil
		}
		rules, ok := field(m, "rules").(*ast.Array)
		if !ok {
			return nil, nil
		}
		best := -1
		var err error
		values.Foreach(func(t *ast.Term) {
			if s, ok := t.Value.(ast.String); ok && err == nil {
				var k int
				k, err = matchRanks(m, rules, string(s), globs)
				best = max(best, k)
			}
		})
		if err != nil {
			return nil, err // an unusable glob fails the decision closed
		}
		if best < 0 || best >= rules.Len() {
			return nil, nil
		}
		return rules.Elem(best), nil
	})
}

var keyTerms = map[string]*ast.Term{}

func init() {
	for _, k := range []string{"rules", "exact", "prefix", "prefix_lens", "suffix", "suffix_lens", "glob", "glob_lens", "glob_bare"} {
		keyTerms[k] = ast.StringTerm(k)
	}
}

func field(o ast.Object, key string) ast.Value {
	if t := o.Get(keyTerms[key]); t != nil {
		return t.Value
	}
	return nil
}

// matchRanks returns the highest rank of a rule of m that matches v, or -1.
func matchRanks(m ast.Object, rules *ast.Array, v string, globs *globCache) (int, error) {
	best := -1
	var globErr error
	take := func(idx ast.Value, key string, test func(rank int) bool) {
		o, ok := idx.(ast.Object)
		if !ok {
			return
		}
		t := o.Get(ast.StringTerm(key))
		if t == nil {
			return
		}
		if ranks, ok := t.Value.(*ast.Array); ok {
			ranks.Foreach(func(r *ast.Term) {
				if n, ok := r.Value.(ast.Number); ok {
					if k, ok := n.Int(); ok && k > best && (test == nil || test(k)) {
						best = k
					}
				}
			})
		}
	}
	lens := func(name string, each func(n int)) {
		if arr, ok := field(m, name).(*ast.Array); ok {
			arr.Foreach(func(t *ast.Term) {
				if n, ok := t.Value.(ast.Number); ok {
					if k, ok := n.Int(); ok {
						each(k)
					}
				}
			})
		}
	}
	runes := utf8.RuneCountInString(v)
	take(field(m, "exact"), v, nil)
	lens("prefix_lens", func(n int) { take(field(m, "prefix"), runePrefix(v, n), nil) })
	lens("suffix_lens", func(n int) {
		if n <= runes {
			take(field(m, "suffix"), runeSuffix(v, runes-n), nil)
		}
	})
	lens("glob_lens", func(n int) {
		take(field(m, "glob"), runePrefix(v, n), func(rank int) bool {
			r, ok := rules.Elem(rank).Value.(ast.Object)
			if !ok {
				return false
			}
			for _, key := range [...]string{"glob", "glob_bare"} {
				if g, ok := field(r, key).(ast.String); ok {
					hit, err := globs.match(string(g), v)
					if err != nil {
						globErr = err
					}
					if hit {
						return true
					}
				}
			}
			return false
		})
	})
	return best, globErr
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
