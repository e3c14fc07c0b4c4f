package coverage

import (
	"cmp"
	"context"
	"slices"
	"strconv"
	"strings"

	"github.com/regate/regate/compiler"
	"github.com/regate/regate/facts"
	"github.com/regate/regate/runtime"
)

// An Observation is one decision as coverage reads it.
type Observation struct {
	// Layer, Pos and Surface are the decision's: the layer that decided, the
	// position of the rule that decided ("-" for none of the user's) and
	// the surface of the check it decided on.
	Layer, Pos, Surface string
	// Agent is the active agent, "" for none.
	Agent string
	// Values are the spellings of the decided check (its forms), or its
	// value alone when only that is known (a decision log).
	Values []string
}

// FromDecision is the observation of a decision the runtime made, with the
// spellings of the check it decided on when in (the call's facts) holds
// it.
func FromDecision(d runtime.Decision, in *facts.Input) Observation {
	o := Observation{Layer: d.Layer, Pos: d.Pos, Surface: d.Surface, Values: []string{d.Value}}
	if in == nil {
		return o
	}
	o.Agent = in.Agent
	for _, c := range in.Checks {
		if c.Surface == d.Surface && c.Value == d.Value && (d.At == "" || c.At == d.At) {
			for _, f := range c.Forms {
				o.Values = append(o.Values, f...)
			}
			break
		}
	}
	return o
}

// A Rule is one rule of the policy with its use.
type Rule struct {
	compiler.RuleRecord
	// Decided is how many calls the rule decided; Shadowed how many it
	// matched that a more specific rule of its layer and surface decided.
	Decided  int `json:"decided"`
	Shadowed int `json:"shadowed"`
	// Line is the rule's line in its file, File the file.
	File string `json:"file"`
	Line int    `json:"line"`
	col  int
}

// Use is the rule's state in one word: "dead" (it can never decide),
// "used" (it decided a call), "shadowed" (it only matched calls a more
// specific rule decided) or "unused".
func (r Rule) Use() string {
	switch {
	case r.NeverDecides:
		return "dead"
	case r.Decided > 0:
		return "used"
	case r.Shadowed > 0:
		return "shadowed"
	}
	return "unused"
}

// A Report is the coverage of a policy by a set of decisions.
type Report struct {
	// Rules are every rule, in file order (file, line, column).
	Rules []Rule `json:"rules"`
	// Decisions is how many observations were counted; Unattributed how
	// many of them no written rule decided, by layer.
	Decisions    int            `json:"decisions"`
	Unattributed map[string]int `json:"unattributed"`
}

// A Counter counts observations against one compiled policy. It is not
// safe for concurrent use.
type Counter struct {
	out   *compiler.Output
	rules []Rule
	byPos map[string]int
	// bySet lists the rules of each (layer, agent, surface), the only ones
	// a decision of that set can shadow.
	bySet map[[3]string][]int
	rep   Report
}

// New returns a counter for the compiled policy out.
func New(out *compiler.Output) (*Counter, error) {
	audit, err := out.Export()
	if err != nil {
		return nil, err
	}
	c := &Counter{out: out, byPos: map[string]int{}, bySet: map[[3]string][]int{}, rep: Report{Unattributed: map[string]int{}}}
	for _, rec := range audit.Rules {
		r := Rule{RuleRecord: rec}
		r.File, r.Line, r.col = splitPos(rec.Pos)
		c.rules = append(c.rules, r)
	}
	slices.SortStableFunc(c.rules, func(a, b Rule) int {
		return cmp.Or(strings.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line), cmp.Compare(a.col, b.col))
	})
	for i, r := range c.rules {
		if r.Pos != "" && r.Pos != "-" {
			c.byPos[r.Pos] = i
		}
		k := [3]string{r.Layer, r.Agent, r.Surface}
		c.bySet[k] = append(c.bySet[k], i)
	}
	return c, nil
}

// Add counts one observation.
func (c *Counter) Add(o Observation) {
	c.rep.Decisions++
	i, ok := c.byPos[o.Pos]
	if !ok {
		c.rep.Unattributed[o.Layer]++
		return
	}
	won := &c.rules[i]
	won.Decided++
	if won.Surface == "*" {
		return // a layer's universal fallback: nothing of its surface is less specific
	}
	for _, j := range c.bySet[[3]string{won.Layer, won.Agent, won.Surface}] {
		r := &c.rules[j]
		if r.Rank >= won.Rank {
			continue // the winner itself, or a rule more specific than it
		}
		for _, v := range o.Values {
			if c.out.Matches(r.Surface, r.Pattern, v) {
				r.Shadowed++
				break
			}
		}
	}
}

// Decide decides the calls with e and counts each decision, with the
// spellings of the check it was decided on. A call regate could not decide
// is an error: a count that left it out would be wrong without saying so.
func (c *Counter) Decide(ctx context.Context, e *runtime.Engine, calls []facts.Call) error {
	for _, call := range calls {
		in := e.Facts(call)
		d, err := e.DecideFacts(ctx, in)
		if err != nil {
			return err
		}
		c.Add(FromDecision(d, in))
	}
	return nil
}

// Report returns the counts so far.
func (c *Counter) Report() Report {
	rep := c.rep
	rep.Rules = slices.Clone(c.rules)
	rep.Unattributed = make(map[string]int, len(c.rep.Unattributed))
	for k, v := range c.rep.Unattributed {
		rep.Unattributed[k] = v
	}
	return rep
}

// splitPos splits "file:line:col", the file possibly holding colons.
func splitPos(pos string) (string, int, int) {
	colRev, rest, ok := strings.Cut(reverse(pos), ":")
	if !ok {
		return pos, 0, 0
	}
	lineRev, fileRev, ok := strings.Cut(rest, ":")
	if !ok {
		return pos, 0, 0
	}
	line, err1 := strconv.Atoi(reverse(lineRev))
	col, err2 := strconv.Atoi(reverse(colRev))
	if err1 != nil || err2 != nil {
		return pos, 0, 0
	}
	return reverse(fileRev), line, col
}

func reverse(s string) string {
	b := []byte(s)
	slices.Reverse(b)
	return string(b)
}
