package runtime

import (
	"sync"
	"unicode/utf8"

	"github.com/open-policy-agent/opa/v1/ast"
)

// nativeMatcher is a compiled matcher (compiler/matcher.go) decoded once
// into Go maps, so that a lookup allocates nothing. The matchers live in the
// store, or in the session's compiled approvals, as AST values that do not
// change, so each is decoded once and found again by identity.
type nativeMatcher struct {
	rules      *ast.Array
	exact      map[string][]int
	prefix     map[string][]int
	prefixLens []int
	suffix     map[string][]int
	suffixLens []int
	glob       map[string][]int
	globLens   []int
	globs      [][]string // per rank: glob, glob_bare
}

// nativeCache maps a matcher's AST value to its decoding. It is bounded: a
// policy has a few dozen matchers; anything past the bound starts afresh.
type nativeCache struct {
	mu sync.RWMutex
	m  map[ast.Value]*nativeMatcher
}

const nativeCacheSize = 4096

func (c *nativeCache) get(v ast.Value) *nativeMatcher {
	c.mu.RLock()
	n, ok := c.m[v]
	c.mu.RUnlock()
	if ok {
		return n
	}
	obj, ok := v.(ast.Object)
	if !ok {
		return nil
	}
	n = decodeMatcher(obj)
	if n == nil {
		return nil
	}
	c.mu.Lock()
	if c.m == nil || len(c.m) >= nativeCacheSize {
		c.m = map[ast.Value]*nativeMatcher{}
	}
	c.m[v] = n
	c.mu.Unlock()
	return n
}

func decodeMatcher(m ast.Object) *nativeMatcher {
	rules, ok := field(m, "rules").(*ast.Array)
	if !ok {
		return nil
	}
	n := &nativeMatcher{
		rules:  rules,
		exact:  decodeIndex(field(m, "exact")),
		prefix: decodeIndex(field(m, "prefix")),
		suffix: decodeIndex(field(m, "suffix")),
		glob:   decodeIndex(field(m, "glob")),
		globs:  make([][]string, rules.Len()),
	}
	n.prefixLens = decodeInts(field(m, "prefix_lens"))
	n.suffixLens = decodeInts(field(m, "suffix_lens"))
	n.globLens = decodeInts(field(m, "glob_lens"))
	for k := 0; k < rules.Len(); k++ {
		if r, ok := rules.Elem(k).Value.(ast.Object); ok {
			for _, key := range [...]string{"glob", "glob_bare"} {
				if g, ok := field(r, key).(ast.String); ok {
					n.globs[k] = append(n.globs[k], string(g))
				}
			}
		}
	}
	return n
}

func decodeIndex(v ast.Value) map[string][]int {
	out := map[string][]int{}
	if o, ok := v.(ast.Object); ok {
		o.Foreach(func(k, ranks *ast.Term) {
			if s, ok := k.Value.(ast.String); ok {
				out[string(s)] = decodeInts(ranks.Value)
			}
		})
	}
	return out
}

func decodeInts(v ast.Value) []int {
	arr, ok := v.(*ast.Array)
	if !ok {
		return nil
	}
	out := make([]int, 0, arr.Len())
	arr.Foreach(func(t *ast.Term) {
		if n, ok := t.Value.(ast.Number); ok {
			if k, ok := n.Int(); ok {
				out = append(out, k)
			}
		}
	})
	return out
}

// best is the highest rank matching v, or -1; the same walk as
// regate.lib.match, with Rego's rune-based substrings.
func (n *nativeMatcher) best(v string, globs *globCache) (int, error) {
	top := -1
	take := func(ranks []int) {
		for _, k := range ranks {
			top = max(top, k)
		}
	}
	take(n.exact[v])
	runes := utf8.RuneCountInString(v)
	for _, l := range n.prefixLens {
		take(n.prefix[runePrefix(v, l)])
	}
	for _, l := range n.suffixLens {
		if l <= runes {
			take(n.suffix[runeSuffix(v, runes-l)])
		}
	}
	for _, l := range n.globLens {
		for _, k := range n.glob[runePrefix(v, l)] {
			if k <= top || k >= len(n.globs) {
				continue
			}
			for _, g := range n.globs[k] {
				hit, err := globs.match(g, v)
				if err != nil {
					return top, err
				}
				if hit {
					top = k
					break
				}
			}
		}
	}
	return top, nil
}
