package compiler

import (
	"encoding/binary"
	"slices"
	"strings"
)

// Pattern intersection for the precedence lint (lint.go): is there a value
// that some patterns match and others do not, and if so, which?
//
// A pattern has two wildcards, "*" (any run, "/" included) and "?" (one
// character), so it is a small automaton whose states are the positions in
// the pattern; a set of positions is one state of its subset automaton. The
// search runs every pattern's automaton in lock step over one candidate
// value (the standard product construction) and explores the product
// breadth first, so the value it returns is a shortest one. Two characters
// that no pattern names behave alike in every automaton, so the alphabet is
// the characters the patterns name plus one fresh character.
//
// A call can show a rule several spellings of one value: a path is matched
// as written, absolute and relative to the working directory, an MCP call as
// "server:tool", "server_tool" and "server". So the value sought is a tuple
// of variables read one after another (the working directory, then the
// relative path), and each pattern is run over a template that spells the
// tuple ([cwd "/" rel], [rel]). Variables are read in order, so every
// automaton only ever moves forward.

// A segment of a template: a variable of the tuple, or literal text.
type segment struct {
	variable int // the variable's index, or -1 for literal text
	lit      string
}

// template spells a value from the tuple's variables.
type template []segment

func variable(i int) segment   { return segment{variable: i} }
func literal(s string) segment { return segment{variable: -1, lit: s} }
func plainValue() template     { return template{variable(0)} }

// render spells the template with the variables' values.
func (t template) render(vals []string) string {
	var b strings.Builder
	for _, s := range t {
		if s.variable < 0 {
			b.WriteString(s.lit)
		} else {
			b.WriteString(vals[s.variable])
		}
	}
	return b.String()
}

// A constraint asks that the pattern match the value its template spells
// (or, negated, that it not match).
type constraint struct {
	pattern string // expanded and collapsed: as the matcher matches it
	tmpl    template
	negate  bool
}

// searchOutcome is what a search found out.
type searchOutcome int

const (
	searchEmpty     searchOutcome = iota // no tuple meets every constraint
	searchFound                          // a tuple meets every constraint: the witness
	searchTooCostly                      // the budget ran out first: unknown
)

// Search limits: a search stops, undecided, after maxSearchStates product
// states (fewer for long patterns: the states it keeps hold at most
// maxSearchWords position words), or when the budget shared by one
// compilation's lint runs out.
const (
	maxSearchStates      = 4096
	maxSearchWords       = 1 << 20
	maxSearchConstraints = 256
)

// budget counts the work the lint may still do, in automaton steps.
type budget struct{ left int }

func (b *budget) spend(n int) bool {
	b.left -= n
	return b.left >= 0
}

// glob is one pattern's automaton: positions 0..len(p), where position i
// means "p[:i] is matched". A set of positions is a bit set, so one step of
// the subset automaton is a few word operations: the positions whose
// character accepts r move one on, and a star's position stays.
type glob struct {
	n     int
	words int
	star  []uint64          // positions holding "*"
	any   []uint64          // positions holding "?"
	lit   map[rune][]uint64 // positions holding each literal character
}

func newGlob(pattern string) *glob {
	p := []rune(pattern)
	g := &glob{n: len(p), words: (len(p) + 1 + 63) / 64, lit: map[rune][]uint64{}}
	g.star, g.any = make([]uint64, g.words), make([]uint64, g.words)
	for i, r := range p {
		bit, w := uint64(1)<<(i%64), i/64
		switch r {
		case '*':
			g.star[w] |= bit
		case '?':
			g.any[w] |= bit
		default:
			if g.lit[r] == nil {
				g.lit[r] = make([]uint64, g.words)
			}
			g.lit[r][w] |= bit
		}
	}
	return g
}

// accepting returns the positions where r moves on: "?" and r itself.
func (g *glob) accepting(r rune) []uint64 {
	m := slices.Clone(g.any)
	for w, l := range g.lit[r] {
		m[w] |= l
	}
	return m
}

// start writes the initial positions to s.
func (g *glob) start(s []uint64) {
	clear(s)
	s[0] = 1
	g.close(s)
}

// close adds, for every star position in s, the position after it: a star
// matches the empty run (patterns are collapsed, so stars never follow one
// another and one pass does it).
func (g *glob) close(s []uint64) {
	var carry uint64
	for w := range s {
		t := s[w] & g.star[w]
		s[w] |= t<<1 | carry
		carry = t >> 63
	}
}

// step writes to dst the positions reached from src on a character whose
// accepting positions are m.
func (g *glob) step(dst, src, m []uint64) {
	var carry uint64
	for w := range src {
		t := src[w] & m[w]
		dst[w] = t<<1 | carry | src[w]&g.star[w]
		carry = t >> 63
	}
	g.close(dst)
}

func (g *glob) accepts(s []uint64) bool { return s[g.n/64]&(1<<(g.n%64)) != 0 }

func empty(s []uint64) bool {
	for _, w := range s {
		if w != 0 {
			return false
		}
	}
	return true
}

// matchGlob reports whether pattern (expanded, collapsed) matches v.
func matchGlob(pattern, v string) bool {
	g := newGlob(pattern)
	s, next := make([]uint64, g.words), make([]uint64, g.words)
	g.start(s)
	for _, r := range v {
		g.step(next, s, g.accepting(r))
		if s, next = next, s; empty(s) {
			return false
		}
	}
	return g.accepts(s)
}

// product is the search's state space. State k is phase[k] (the variable
// being read), seg[k*C:] (the template segment each of the C constraints
// reads) and pos[k*W:] (their positions, W words in all); parent and r
// rebuild the witness (r < 0 marks the end of a variable).
type product struct {
	cons     []constraint
	alphabet []rune
	globs    []*glob
	off      []int // each constraint's first word within a state
	words    int
	masks    [][][]uint64 // [constraint][symbol]: accepting positions
	symbol   map[rune]int
	phase    []int
	seg      []uint8
	pos      []uint64
	parent   []int
	r        []rune
	seen     map[string]int
	key      []byte
	zeros    []uint64 // a state's worth of empty positions, to append
	segs0    []uint8
}

// findTuple searches for values of vars variables that meet every
// constraint, spending from b. It returns the values when it finds them.
//
// When some constraints are negated, the search first runs over the
// positive ones alone and tries the first few values it meets against the
// rest: the rules a value must avoid are more specific ones, which a
// shortest value rarely meets, and that product is far smaller. Only when
// those values fail does the whole product get searched.
func findTuple(vars int, cons []constraint, b *budget) ([]string, searchOutcome) {
	if len(cons) > maxSearchConstraints {
		return nil, searchTooCostly
	}
	alphabet := searchAlphabet(cons)
	var positive []constraint
	for _, c := range cons {
		if !c.negate {
			positive = append(positive, c)
		}
	}
	if len(positive) < len(cons) {
		meetsAll := func(vals []string) bool {
			for _, c := range cons {
				if matchGlob(c.pattern, c.tmpl.render(vals)) == c.negate {
					return false
				}
			}
			return true
		}
		vals, out := newProduct(positive, alphabet).search(vars, b, meetsAll)
		if out != searchGaveUp {
			return vals, out
		}
	}
	return newProduct(cons, alphabet).search(vars, b, nil)
}

// searchGaveUp: the values tried against the negated constraints all failed.
const searchGaveUp searchOutcome = -1

// maxTried is how many values the first search tries.
const maxTried = 8

func newProduct(cons []constraint, alphabet []rune) *product {
	p := &product{cons: cons, symbol: map[rune]int{}, seen: map[string]int{}}
	for k, r := range alphabet {
		p.symbol[r] = k
	}
	for _, c := range cons {
		g := newGlob(c.pattern)
		p.globs = append(p.globs, g)
		p.off = append(p.off, p.words)
		p.words += g.words
		ms := make([][]uint64, len(alphabet))
		for k, r := range alphabet {
			ms[k] = g.accepting(r)
		}
		p.masks = append(p.masks, ms)
	}
	p.alphabet = alphabet
	p.zeros, p.segs0 = make([]uint64, p.words), make([]uint8, len(cons))
	return p
}

// search explores the product breadth first. With try set, a value that
// meets the constraints must also pass try; after maxTried that do not,
// the search gives up (searchGaveUp). When no value meets the constraints
// (searchEmpty), none passes try either.
func (p *product) search(vars int, b *budget, try func([]string) bool) ([]string, searchOutcome) {
	cons, alphabet := p.cons, p.alphabet
	maxStates := min(maxSearchStates, maxSearchWords/(p.words+1))
	cost := (p.words + len(cons)) * (len(alphabet) + 1)
	tried := 0

	p.push(-1, 0, 0)
	for i := range cons {
		p.globs[i].start(p.at(0, i))
		p.advance(0, i, false)
	}
	if p.dead(0) {
		return nil, searchEmpty
	}
	p.remember(0)
	for head := 0; head < len(p.phase); head++ {
		if p.phase[head] == vars { // dead() already held the rest
			vals := p.witness(head, vars)
			if try == nil || try(vals) {
				return vals, searchFound
			}
			if tried++; tried == maxTried {
				return nil, searchGaveUp
			}
			continue
		}
		if !b.spend(cost) {
			return nil, searchTooCostly
		}
		// Each character of the current variable, then its end.
		for k := 0; k <= len(alphabet); k++ {
			r, phase := rune(-1), p.phase[head]
			if k < len(alphabet) {
				r = alphabet[k]
			}
			next := p.push(head, phase, r)
			for i := range cons {
				src, dst := p.at(head, i), p.at(next, i)
				seg := p.seg[head*len(cons)+i]
				p.seg[next*len(cons)+i] = seg
				reads := int(seg) < len(cons[i].tmpl) && cons[i].tmpl[seg].variable == phase
				switch {
				case !reads:
					copy(dst, src)
				case k < len(alphabet):
					p.globs[i].step(dst, src, p.masks[i][k])
				default:
					copy(dst, src)
					p.advance(next, i, true)
				}
			}
			if k == len(alphabet) {
				p.phase[next]++
			}
			if p.dead(next) || !p.remember(next) {
				p.pop()
				continue
			}
			if len(p.phase) > maxStates {
				return nil, searchTooCostly
			}
		}
	}
	if tried > 0 {
		return nil, searchGaveUp // values met the positives; others may pass try
	}
	return nil, searchEmpty
}

// push appends a state, its constraints' parts to be filled in.
func (p *product) push(parent, phase int, r rune) int {
	p.phase = append(p.phase, phase)
	p.parent = append(p.parent, parent)
	p.r = append(p.r, r)
	p.seg = append(p.seg, p.segs0...)
	p.pos = append(p.pos, p.zeros...)
	return len(p.phase) - 1
}

// pop drops the last state.
func (p *product) pop() {
	n := len(p.phase) - 1
	p.phase, p.parent, p.r = p.phase[:n], p.parent[:n], p.r[:n]
	p.seg, p.pos = p.seg[:n*len(p.cons)], p.pos[:n*p.words]
}

// at is constraint i's positions in state k.
func (p *product) at(k, i int) []uint64 {
	base := k*p.words + p.off[i]
	return p.pos[base : base+p.globs[i].words]
}

// advance moves constraint i of state k past literal segments, and past the
// end of the variable just read when done is set.
func (p *product) advance(k, i int, done bool) {
	t := p.cons[i].tmpl
	seg := int(p.seg[k*len(p.cons)+i])
	if done {
		seg++
	}
	s := p.at(k, i)
	tmp := make([]uint64, len(s))
	for seg < len(t) && t[seg].variable < 0 {
		for _, r := range t[seg].lit {
			p.globs[i].step(tmp, s, p.masks[i][p.symbol[r]])
			copy(s, tmp)
		}
		seg++
	}
	p.seg[k*len(p.cons)+i] = uint8(seg)
}

// dead: in state k a pattern that must match no longer can, or one that
// must not match has matched its finished value.
func (p *product) dead(k int) bool {
	for i, c := range p.cons {
		s := p.at(k, i)
		finished := int(p.seg[k*len(p.cons)+i]) == len(c.tmpl)
		accepts := p.globs[i].accepts(s)
		if !c.negate && (empty(s) || finished && !accepts) || c.negate && finished && accepts {
			return true
		}
	}
	return false
}

// remember records state k, false when an equal state is known.
func (p *product) remember(k int) bool {
	p.key = append(p.key[:0], byte(p.phase[k]))
	p.key = append(p.key, p.seg[k*len(p.cons):(k+1)*len(p.cons)]...)
	for _, w := range p.pos[k*p.words : (k+1)*p.words] {
		p.key = binary.LittleEndian.AppendUint64(p.key, w)
	}
	if _, ok := p.seen[string(p.key)]; ok {
		return false
	}
	p.seen[string(p.key)] = k
	return true
}

// witness rebuilds the variables' values along the path to state k.
func (p *product) witness(k, vars int) []string {
	var path []rune
	for ; p.parent[k] >= 0; k = p.parent[k] {
		path = append(path, p.r[k])
	}
	slices.Reverse(path)
	vals := make([]string, vars)
	v := 0
	for _, r := range path {
		if r < 0 {
			v++
			continue
		}
		vals[v] += string(r)
	}
	return vals
}

// searchAlphabet is one character no pattern or template names (the
// stand-in for every such character, tried first so that wildcards read as
// plain letters), then every character they name.
func searchAlphabet(cons []constraint) []rune {
	named := map[rune]bool{}
	for _, c := range cons {
		for _, r := range c.pattern {
			if r != '*' && r != '?' {
				named[r] = true
			}
		}
		for _, s := range c.tmpl {
			for _, r := range s.lit {
				named[r] = true
			}
		}
	}
	fresh := rune(0)
	for _, r := range "xyzabcdefghijklmnopqrstuvw0123456789" {
		if !named[r] {
			fresh = r
			break
		}
	}
	for r := rune(0x100); fresh == 0; r++ {
		if !named[r] {
			fresh = r
		}
	}
	out := []rune{fresh}
	for r := range named {
		out = append(out, r)
	}
	slices.Sort(out[1:])
	return out
}
