package conformance_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/regate/regate/internal/testkit/conformance"
	"github.com/regate/regate/runtime"
)

// Metamorphic properties of decisions, over the conformance corpus with
// mutations of each case's policy (docs/testing.md). Each property reports
// its smallest counterexample: the one with the shortest policy and call.

// ordered is a JSON object with its keys in order; values are ordered,
// []any, string, float64, bool or nil.
type ordered []member

type member struct {
	key string
	val any
}

func decodeOrdered(raw []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	return decodeValue(dec)
}

func decodeValue(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		if t == '{' {
			var o ordered
			for dec.More() {
				k, err := dec.Token()
				if err != nil {
					return nil, err
				}
				v, err := decodeValue(dec)
				if err != nil {
					return nil, err
				}
				o = append(o, member{k.(string), v})
			}
			_, err := dec.Token()
			return o, err
		}
		var a []any
		for dec.More() {
			v, err := decodeValue(dec)
			if err != nil {
				return nil, err
			}
			a = append(a, v)
		}
		_, err := dec.Token()
		return a, err
	}
	return tok, nil
}

func encodeOrdered(v any) []byte {
	var b bytes.Buffer
	var enc func(v any)
	enc = func(v any) {
		switch t := v.(type) {
		case ordered:
			b.WriteByte('{')
			for i, m := range t {
				if i > 0 {
					b.WriteByte(',')
				}
				k, _ := json.Marshal(m.key)
				b.Write(k)
				b.WriteByte(':')
				enc(m.val)
			}
			b.WriteByte('}')
		case []any:
			b.WriteByte('[')
			for i, x := range t {
				if i > 0 {
					b.WriteByte(',')
				}
				enc(x)
			}
			b.WriteByte(']')
		default:
			x, _ := json.Marshal(t)
			b.Write(x)
		}
	}
	enc(v)
	return b.Bytes()
}

func (o ordered) get(k string) (any, bool) {
	for _, m := range o {
		if m.key == k {
			return m.val, true
		}
	}
	return nil, false
}

// set replaces k's value in place, or appends k.
func (o ordered) set(k string, v any) ordered {
	for i, m := range o {
		if m.key == k {
			o[i].val = v
			return o
		}
	}
	return append(o, member{k, v})
}

func (o ordered) without(k string) ordered {
	var out ordered
	for _, m := range o {
		if m.key != k {
			out = append(out, m)
		}
	}
	return out
}

// actionOf is a rule value's action: "allow", {"action": "allow", …}.
func actionOf(v any) string {
	switch t := v.(type) {
	case string:
		return t
	case ordered:
		a, _ := t.get("action")
		s, _ := a.(string)
		return s
	}
	return ""
}

// withRule returns doc (a policy or hard-guards document) with pattern →
// action added to the surface's map in permission ("" surface: the
// top-level "*").
func withRule(doc any, surface, pattern, action string) any {
	root, _ := doc.(ordered)
	root = append(ordered(nil), root...)
	permAny, _ := root.get("permission")
	perm, _ := permAny.(ordered)
	perm = append(ordered(nil), perm...)
	if surface == "" {
		perm = perm.set("*", action)
	} else {
		cur, _ := perm.get(surface)
		m, isMap := cur.(ordered)
		if !isMap {
			m = nil
			if s, ok := cur.(string); ok {
				m = ordered{{"*", s}}
			}
		}
		m = append(ordered(nil), m...).set(pattern, action)
		perm = perm.set(surface, m)
	}
	return root.set("permission", perm)
}

// allowRules lists the allow rules of a document: (surface, pattern),
// surface "" and pattern "" for a top-level key.
func allowRules(doc any) [][2]string {
	root, _ := doc.(ordered)
	permAny, _ := root.get("permission")
	perm, _ := permAny.(ordered)
	var out [][2]string
	for _, m := range perm {
		if inner, ok := m.val.(ordered); ok && actionOf(m.val) == "" {
			for _, r := range inner {
				if actionOf(r.val) == "allow" {
					out = append(out, [2]string{m.key, r.key})
				}
			}
		} else if actionOf(m.val) == "allow" {
			out = append(out, [2]string{"", m.key})
		}
	}
	return out
}

func withoutRule(doc any, surface, pattern string) any {
	root, _ := doc.(ordered)
	permAny, _ := root.get("permission")
	perm, _ := permAny.(ordered)
	if surface == "" {
		perm = perm.without(pattern)
	} else {
		inner, _ := perm.get(surface)
		m, _ := inner.(ordered)
		perm = append(ordered(nil), perm...).set(surface, m.without(pattern))
	}
	return append(ordered(nil), root...).set("permission", perm)
}

// reversed reverses the order of every object's keys.
func reversed(v any) any {
	switch t := v.(type) {
	case ordered:
		out := make(ordered, len(t))
		for i, m := range t {
			out[len(t)-1-i] = member{m.key, reversed(m.val)}
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, x := range t {
			out[i] = reversed(x)
		}
		return out
	}
	return v
}

// specificity is R1's measures of a pattern, most significant first:
// wildcard-free, literal characters, fewer wildcards, length.
func specificity(p, home string) [4]int {
	if p == "~" || strings.HasPrefix(p, "~/") {
		p = home + p[1:]
	}
	for strings.Contains(p, "**") {
		p = strings.ReplaceAll(p, "**", "*")
	}
	stars := strings.Count(p, "*")
	wild := stars + strings.Count(p, "?")
	exact := 0
	if wild == 0 {
		exact = 1
	}
	return [4]int{exact, len(p) - wild, -stars, len(p)}
}

type mutant struct {
	name   string
	policy []byte
	guards []byte
}

type counterexample struct {
	id, mutation, detail string
	size                 int
}

// property collects the counterexamples of one property; cases run in
// parallel, so it takes a lock.
type property struct {
	mu       sync.Mutex
	failures []counterexample
}

func (p *property) fail(c *conformance.PermissionCase, m mutant, format string, args ...any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.failures = append(p.failures, counterexample{c.ID, m.name, fmt.Sprintf(format, args...), len(m.policy) + len(m.guards) + len(fmt.Sprint(c.Call))})
}

func (p *property) report(t *testing.T, name string) {
	t.Helper()
	if len(p.failures) == 0 {
		return
	}
	sort.Slice(p.failures, func(i, j int) bool {
		a, b := p.failures[i], p.failures[j]
		return a.size < b.size || a.size == b.size && a.id+a.mutation < b.id+b.mutation
	})
	f := p.failures[0]
	t.Errorf("%s: %d counterexamples; the smallest: case %s, %s: %s", name, len(p.failures), f.id, f.mutation, f.detail)
}

// TestMetamorphic checks, for every permission case with a policy, and a
// few random mutations of it:
//   - adding a deny rule never loosens any decision;
//   - adding an ask rule never turns a decision into allow (it may turn a
//     deny into ask: the most specific rule wins, R1);
//   - adding a hard guard never loosens;
//   - removing an allow rule never loosens;
//   - reversing the order of every key changes nothing unless the rules
//     that decided tie on every other measure of R1 (then the later
//     declaration decides, so the decision may change);
//   - yoloMode never turns a deny into anything else, and leaves no ask but
//     a fault's;
//
// Cases run as parallel subtests, each with its own random stream.
func TestMetamorphic(t *testing.T) {
	if raceEnabled {
		t.Skip("single-goroutine properties; run without -race")
	}
	t.Parallel()
	cases, err := conformance.PermissionCases(filepath.Join(corpus, "permission.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	var propsMu sync.Mutex
	props := map[string]*property{}
	prop := func(name string) *property {
		propsMu.Lock()
		defer propsMu.Unlock()
		if props[name] == nil {
			props[name] = &property{}
		}
		return props[name]
	}
	// decide decides the case's call under mutant m.
	decide := func(pool *runtime.Pool, c *conformance.PermissionCase, m mutant) (runtime.Decision, bool) {
		mc := *c
		mc.Policy, mc.HardGuards = m.policy, m.guards
		e, call, err := mc.Engine(ctx, pool)
		if err != nil {
			prop("engine").fail(c, m, "%v", err)
			return runtime.Decision{}, false
		}
		d, err := e.Decide(ctx, call)
		if err != nil {
			prop("decide").fail(c, m, "%v", err)
			return runtime.Decision{}, false
		}
		return d, true
	}
	var mutants atomic.Int64
	t.Run("cases", func(t *testing.T) {
		for i, c := range cases {
			if len(c.Policy) == 0 || c.Policy[0] != '{' {
				continue
			}
			doc, err := decodeOrdered(c.Policy)
			if err != nil {
				continue
			}
			t.Run(c.ID, func(t *testing.T) {
				t.Parallel()
				// Each case draws from its own stream, so the mutants do not
				// depend on the order the parallel cases run in; its own pool
				// shares the one policy its mutants have in common.
				rng := rand.New(rand.NewPCG(1, uint64(i)))
				pool := runtime.NewPool()
				mutants.Add(metamorphicCase(ctx, c, doc, pool, rng, func(c *conformance.PermissionCase, m mutant) (runtime.Decision, bool) {
					return decide(pool, c, m)
				}, prop))
			})
		}
	})
	names := make([]string, 0, len(props))
	for n := range props {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		props[n].report(t, n)
	}
	t.Logf("%d mutants of %d cases", mutants.Load(), len(cases))
}

// metamorphicCase decides the mutants of one case and returns how many.
func metamorphicCase(ctx context.Context, c *conformance.PermissionCase, doc any, pool *runtime.Pool, rng *rand.Rand,
	decide func(*conformance.PermissionCase, mutant) (runtime.Decision, bool), prop func(string) *property) int64 {
	base := mutant{"as written", c.Policy, c.HardGuards}
	before, ok := decide(c, base)
	if !ok {
		return 0
	}
	e, call, err := c.Engine(ctx, pool)
	if err != nil {
		return 0
	}
	// Patterns worth adding: each check's value, its first word + " *",
	// "*", and a random existing pattern.
	var targets [][2]string
	for _, ch := range e.Facts(call).Checks {
		targets = append(targets, [2]string{ch.Surface, ch.Value}, [2]string{ch.Surface, "*"})
		if w, _, ok := strings.Cut(ch.Value, " "); ok {
			targets = append(targets, [2]string{ch.Surface, w + " *"})
		}
	}
	if len(targets) == 0 {
		return 0
	}
	var mutants int64
	pick := func() [2]string { return targets[rng.IntN(len(targets))] }
	check := func(name string, m mutant, ok func(before, after runtime.Decision) bool) {
		mutants++
		after, decided := decide(c, m)
		if !decided {
			return
		}
		if !ok(before, after) {
			prop(name).fail(c, m, "%s (%s) became %s (%s); policy %s, hard guards %s", before.Action, before.Matched, after.Action, after.Matched, m.policy, m.guards)
		}
	}
	notLooser := func(b, a runtime.Decision) bool { return !b.Action.Stricter(a.Action) }
	tg := pick()
	check("adding a deny never loosens", mutant{fmt.Sprintf("add %s %q: deny", tg[0], tg[1]), encodeOrdered(withRule(doc, tg[0], tg[1], "deny")), c.HardGuards}, notLooser)
	if root, ok := doc.(ordered); ok {
		if yolo, _ := root.get("yoloMode"); yolo != true { // yolo approves the asks it adds
			tg = pick()
			check("adding an ask never allows", mutant{fmt.Sprintf("add %s %q: ask", tg[0], tg[1]), encodeOrdered(withRule(doc, tg[0], tg[1], "ask")), c.HardGuards},
				func(b, a runtime.Decision) bool { return a.Action != "allow" || b.Action == "allow" })
		}
	}
	tg = pick()
	guards, err := decodeOrdered(c.HardGuards)
	if len(c.HardGuards) == 0 || err != nil {
		guards = ordered{}
	}
	check("adding a hard guard never loosens", mutant{fmt.Sprintf("hard guard %s %q", tg[0], tg[1]), c.Policy, encodeOrdered(withRule(guards, tg[0], tg[1], "deny"))}, notLooser)
	if allows := allowRules(doc); len(allows) > 0 {
		r := allows[rng.IntN(len(allows))]
		check("removing an allow never loosens", mutant{fmt.Sprintf("remove %s %q", r[0], r[1]), encodeOrdered(withoutRule(doc, r[0], r[1])), c.HardGuards}, notLooser)
	}
	check("key order changes nothing but ties", mutant{"keys reversed", encodeOrdered(reversed(doc)), c.HardGuards}, func(b, a runtime.Decision) bool {
		if a.Action == b.Action && a.Matched == b.Matched {
			return true
		}
		home := c.Env.Home
		if home == "" {
			home = "/home/u"
		}
		return a.Layer == b.Layer && specificity(a.Matched, home) == specificity(b.Matched, home)
	})
	if root, ok := doc.(ordered); ok {
		check("yolo never turns a deny", mutant{"yoloMode", encodeOrdered(append(ordered(nil), root...).set("yoloMode", true)), c.HardGuards}, func(b, a runtime.Decision) bool {
			return (b.Action != "deny" || a.Action == "deny") && (a.Action != "ask" || a.Layer == "floor")
		})
	}
	return mutants
}
