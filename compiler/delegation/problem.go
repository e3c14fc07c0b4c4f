package delegation

import (
	"fmt"
	"strings"

	"github.com/regate/regate/compiler"
)

// A Problem is one thing SubsetProblems could not prove, or one way a
// Narrow request widens its parent.
type Problem struct {
	// Field is the spec's name of the field, a call-budget bound with a
	// dot: "rate_limits", "amplification_budget.max_sessions".
	Field string
	// Entry is the offending pattern, role or value, if any.
	Entry string
	// Msg says what is wrong, for people; it names Field and quotes Entry.
	Msg string
	// Pos is where the child (or, for a parent's entry, the parent) wrote
	// the entry, or else the field, or else, for a field it leaves out, its
	// object: set whenever the policy came from a file.
	Pos compiler.Pos
}

func (p Problem) String() string {
	if p.Pos.File != "" {
		return p.Pos.String() + ": " + p.Msg
	}
	return p.Msg
}

// WidensError is Narrow's refusal: the request would admit more than the
// parent.
type WidensError struct {
	Problems []Problem
}

func (e *WidensError) Error() string {
	msgs := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		msgs[i] = p.String()
	}
	return "narrow: the request widens the policy: " + strings.Join(msgs, "; ")
}

// problems collects Problems, positioned from the policy that wrote them.
type problems struct {
	list []Problem
}

func (ps *problems) add(at *Policy, field, entry, format string, args ...any) {
	p := Problem{Field: field, Entry: entry, Msg: fmt.Sprintf(format, args...)}
	if at != nil {
		p.Pos = at.position(field, entry)
	}
	ps.list = append(ps.list, p)
}

// position is where at wrote field's entry, else the field (a call-budget
// bound, else the budget), else the policy object itself: a problem about
// a field the policy leaves out points at the object. The zero Pos when at
// did not come from a file.
func (at *Policy) position(field, entry string) compiler.Pos {
	keys := []string{field}
	if entry != "" {
		keys = []string{field + "/" + entry, field}
	}
	if top, _, ok := strings.Cut(field, "."); ok {
		keys = append(keys, top)
	}
	for _, k := range append(keys, "") {
		if pos, ok := at.pos[k]; ok {
			return pos
		}
	}
	return compiler.Pos{}
}
