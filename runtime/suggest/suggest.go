package suggest

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"path"
	"slices"
	"strings"

	"github.com/regate/regate/bashfacts/argmodel"
	"github.com/regate/regate/compiler"
	"github.com/regate/regate/compiler/action"
	"github.com/regate/regate/facts"
	"github.com/regate/regate/runtime"
)

// Options tune Suggest.
type Options struct {
	// MinApprovals is how many approvals a group needs (default 2).
	MinApprovals int
	// Engine builds the engine a compiled policy is decided with (the
	// working directory and file system the calls were made in).
	Engine func(context.Context, *compiler.Output) (*runtime.Engine, error)
	// Compile are the compiler's options (the home directory).
	Compile []compiler.Option
	// Sessions are the patterns people approved for a whole session
	// (regate approve), by session: a pattern approved in MinApprovals
	// sessions is a candidate as it was written, before any grouping.
	Sessions map[string][]compiler.Approval
}

// A Suggestion is one rule to add to the policy, with its evidence and the
// calls of the evidence whose decision it changes.
type Suggestion struct {
	Surface   string   `json:"surface"`
	Pattern   string   `json:"pattern"`
	Action    string   `json:"action"`
	Approvals int      `json:"approvals"`
	Sessions  []string `json:"sessions"`
	First     string   `json:"first,omitempty"`
	Last      string   `json:"last,omitempty"`
	Changes   []Change `json:"changes"`
}

// A Change is a call whose decision a suggestion changes.
type Change struct {
	Call   facts.Call `json:"call"`
	Before Outcome    `json:"before"`
	After  Outcome    `json:"after"`
}

// A Result is what Suggest found: the suggestions, and the policy with all
// of them added.
type Result struct {
	Suggestions []Suggestion
	Policy      []byte
}

// Suggest proposes rules for the policy in (its Policy source is the file
// the rules go into) from the evidence, as the package documentation
// describes. The policy must compile without errors.
func Suggest(ctx context.Context, in compiler.Input, evidence []Record, o Options) (Result, error) {
	if o.MinApprovals <= 0 {
		o.MinApprovals = 2
	}
	if in.Policy == nil {
		return Result{}, fmt.Errorf("suggest: there is no policy file to add rules to")
	}
	before, e, err := decideAll(ctx, in, evidence, o)
	if err != nil {
		return Result{}, err
	}
	guarded := guardedCalls(evidence, before)
	approvals := approvedAsks(evidence, before)
	out, err := compile(in, o)
	if err != nil {
		return Result{}, err
	}
	values := guardedValues(e, evidence, guarded)
	res := Result{Policy: in.Policy.Data}
	current := before // the decisions under the policy with the suggestions so far
	covered := make([]bool, len(approvals))
	for pass := -1; pass < 3; pass++ {
		var candidates []group
		if pass < 0 {
			candidates = sessionGroups(o.Sessions)
		} else {
			candidates = groups(approvals, covered, pass)
		}
		for _, g := range candidates {
			if len(g.members) < o.MinApprovals || matchesAny(out, g.surface, g.pattern, values[g.surface]) {
				continue
			}
			s := newSuggestion(g, approvals)
			trial := in
			src, err := Apply(res.Policy, []Suggestion{s})
			if err != nil {
				return Result{}, err
			}
			trial.Policy = &compiler.Source{Name: in.Policy.Name, Data: src}
			after, _, err := decideAll(ctx, trial, evidence, o)
			if err != nil {
				continue // the policy with the rule does not compile: not a suggestion
			}
			// Against the decisions so far: a guarded call no earlier
			// suggestion loosened is loosened by this one exactly when it is
			// looser than now.
			changes, loosened := compare(evidence, current, after, guarded)
			if loosened || !sparesAPrompt(changes) {
				continue
			}
			s.Changes = changes
			res.Suggestions = append(res.Suggestions, s)
			res.Policy, current = src, after
			// The approvals the rule now allows need no other rule.
			for i, a := range approvals {
				covered[i] = covered[i] || (a.surface == g.surface && out.Matches(a.surface, g.pattern, a.value))
			}
		}
	}
	return res, nil
}

// approval is one approved ask, with the check it was decided on.
type approval struct {
	rec     Record
	surface string
	value   string
}

func approvedAsks(evidence []Record, now []Outcome) []approval {
	var out []approval
	for i, r := range evidence {
		d := now[i]
		if !r.Answered || !r.Approved || r.Decision.Action != "ask" || d.Action != "ask" {
			continue
		}
		switch d.Layer {
		case "policy", "agent", "fallback":
		default:
			continue // a floor's or a hard guard's ask is not the policy's to lift
		}
		out = append(out, approval{rec: r, surface: d.Surface, value: d.Value})
	}
	return out
}

// guardedCalls are the calls no suggestion may loosen or match: denied
// then or now, rejected by a person, or decided by a floor or a hard guard.
func guardedCalls(evidence []Record, now []Outcome) map[int]bool {
	out := map[int]bool{}
	for i, r := range evidence {
		d := now[i]
		if r.Decision.Action == "deny" || d.Action == "deny" || (r.Answered && !r.Approved) ||
			isFloor(r.Decision.Layer) || isFloor(d.Layer) {
			out[i] = true
		}
	}
	return out
}

func isFloor(layer string) bool {
	return layer == "floor" || layer == "hard-guard" || layer == "self-guard" || layer == "facts"
}

type group struct {
	surface, pattern string
	members          []int
	sessions         []string // for a session approval's group: the sessions
}

// sessionGroups are the patterns of session approvals, each with the
// sessions that approved it (members counts them).
func sessionGroups(sessions map[string][]compiler.Approval) []group {
	byKey := map[compiler.Approval]*group{}
	var order []*group
	for _, id := range slices.Sorted(maps.Keys(sessions)) {
		for _, a := range sessions[id] {
			if a.Pattern == "" || a.Pattern == "*" {
				continue // a wide approval is a session's decision, never a rule's
			}
			g := byKey[a]
			if g == nil {
				g = &group{surface: a.Surface, pattern: a.Pattern}
				byKey[a] = g
				order = append(order, g)
			}
			if !slices.Contains(g.sessions, id) {
				g.sessions = append(g.sessions, id)
				g.members = append(g.members, len(g.members))
			}
		}
	}
	slices.SortStableFunc(order, func(a, b *group) int { return cmp.Compare(len(b.members), len(a.members)) })
	out := make([]group, len(order))
	for i, g := range order {
		out[i] = *g
	}
	return out
}

// groups cuts the uncovered approvals into groups by their value, as
// generalise does in the pass.
func groups(approvals []approval, covered []bool, pass int) []group {
	byKey := map[[2]string]*group{}
	var order []*group
	for i, a := range approvals {
		if covered[i] {
			continue
		}
		p, ok := generalise(a.surface, a.value, pass)
		if !ok {
			continue
		}
		k := [2]string{a.surface, p}
		g := byKey[k]
		if g == nil {
			g = &group{surface: a.surface, pattern: p}
			byKey[k] = g
			order = append(order, g)
		}
		g.members = append(g.members, i)
	}
	for _, g := range order {
		if pass == 1 && g.surface == "bash" && strings.HasSuffix(g.pattern, " *") {
			g.pattern = commonCommand(approvals, g.members)
		}
	}
	slices.SortStableFunc(order, func(a, b *group) int {
		return cmp.Or(cmp.Compare(len(b.members), len(a.members)), strings.Compare(a.surface, b.surface), strings.Compare(a.pattern, b.pattern))
	})
	out := make([]group, len(order))
	for i, g := range order {
		out[i] = *g
	}
	return out
}

// pathOperandFolder is "PROGRAM ARGS FOLDER/*" for a command whose last
// word its program's argument model reads as a path (a file read, written,
// edited, listed) inside the project: relative, in a folder, with no ".."
// and nothing bash would expand. Every other word stays as it is.
func pathOperandFolder(value string) (string, bool) {
	words := strings.Fields(value)
	if strings.Join(words, " ") != value || len(words) < 2 {
		return "", false
	}
	last := words[len(words)-1]
	if strings.ContainsAny(last, "$`~\\'\"{}[]") || strings.HasPrefix(last, "/") || strings.HasPrefix(last, "-") {
		return "", false
	}
	dir := path.Dir(last)
	if dir == "." || path.Clean(last) != last || strings.HasPrefix(dir, "..") || strings.Contains(last, "/../") {
		return "", false
	}
	args := make([]argmodel.Arg, len(words)-1)
	for i, w := range words[1:] {
		args[i] = argmodel.Arg{Text: w}
	}
	res := argmodel.Parse(path.Base(words[0]), args)
	if !res.Known || res.Problem != "" || len(res.Words) != len(args) || !argmodel.PathRole(res.Words[len(args)-1].Role) {
		return "", false
	}
	return strings.Join(words[:len(words)-1], " ") + " " + dir + "/*", true
}

// commonCommand is the pattern of a group of approved commands: the words
// all of them begin with, then " *" unless every one is exactly those
// words. It is never wider than the approvals: "git checkout -b x" and
// "git checkout -b y" give "git checkout -b *", not "git checkout *".
func commonCommand(approvals []approval, members []int) string {
	common := strings.Fields(approvals[members[0]].value)
	same := true
	for _, m := range members[1:] {
		words := strings.Fields(approvals[m].value)
		n := 0
		for n < len(common) && n < len(words) && common[n] == words[n] {
			n++
		}
		if n != len(common) || n != len(words) {
			same = false
		}
		common = common[:n]
	}
	prefix := strings.Join(common, " ")
	if same {
		return prefix
	}
	return prefix + " *"
}

// generalise is the pattern an approved value is grouped under in a pass:
// 0, a command's last operand, a path inside the project, by its folder
// (the program's argument model says which words are paths); 1, a command
// by its program and subcommand, a path by its folder, an MCP target by its
// server, anything else by its value; 2, a command by its program.
func generalise(surface, value string, pass int) (string, bool) {
	if strings.ContainsAny(value, "*?") {
		return "", false // a value with a wildcard cannot be a literal part
	}
	if pass == 0 {
		if surface != "bash" {
			return "", false
		}
		return pathOperandFolder(value)
	}
	pass--
	switch {
	case surface == "bash":
		words := strings.Fields(value)
		if strings.Join(words, " ") != value || len(words) == 0 {
			return "", false // odd spacing: the literal part would not be what was approved
		}
		switch {
		case pass == 0 && len(words) == 1:
			return value, true
		case pass == 0:
			return words[0] + " " + words[1] + " *", true
		case len(words) >= 2:
			return words[0] + " *", true
		}
		return "", false
	case pass == 1:
		return "", false
	case surface == "mcp":
		if server, _, ok := strings.Cut(value, ":"); ok && server != "" {
			return server + ":*", true
		}
		return value, true
	case strings.Contains(value, "/"):
		if dir := path.Dir(value); dir != "." && dir != "/" && !strings.HasPrefix(dir, "..") {
			return dir + "/*", true
		}
	}
	return value, true
}

// guardedValues are, by surface, every spelling of every check of the
// guarded calls, as the engine's facts give them.
func guardedValues(e *runtime.Engine, evidence []Record, guarded map[int]bool) map[string][]string {
	out := map[string][]string{}
	for i := range evidence {
		if !guarded[i] {
			continue
		}
		for _, c := range e.Facts(evidence[i].Call).Checks {
			out[c.Surface] = append(out[c.Surface], c.Value)
			for _, f := range c.Forms {
				out[c.Surface] = append(out[c.Surface], f...)
			}
		}
	}
	return out
}

// matchesAny: the pattern matches one of the values.
func matchesAny(out *compiler.Output, surface, pattern string, values []string) bool {
	for _, v := range values {
		if out.Matches(surface, pattern, v) {
			return true
		}
	}
	return false
}

// newSuggestion is the suggestion of a group, with its evidence: the
// approvals of its members, or for a session approval's group, its
// sessions.
func newSuggestion(g group, approvals []approval) Suggestion {
	if g.sessions != nil {
		return Suggestion{Surface: g.surface, Pattern: g.pattern, Action: "allow", Approvals: len(g.sessions), Sessions: g.sessions}
	}
	s := Suggestion{Surface: g.surface, Pattern: g.pattern, Action: "allow", Approvals: len(g.members), Sessions: []string{}}
	for _, m := range g.members {
		r := approvals[m].rec
		if r.Session != "" && !slices.Contains(s.Sessions, r.Session) {
			s.Sessions = append(s.Sessions, r.Session)
		}
		if r.Time != "" && (s.First == "" || r.Time < s.First) {
			s.First = r.Time
		}
		if r.Time > s.Last {
			s.Last = r.Time
		}
	}
	slices.Sort(s.Sessions)
	return s
}

func compile(in compiler.Input, o Options) (*compiler.Output, error) {
	out, err := compiler.Compile(in, o.Compile...)
	if err != nil {
		return nil, err
	}
	if fatal := out.Diagnostics.Fatal(); len(fatal) > 0 {
		return nil, fmt.Errorf("suggest: the policy does not compile: %v", fatal[0])
	}
	return out, nil
}

// decideAll decides every call of the evidence under the policy in.
func decideAll(ctx context.Context, in compiler.Input, evidence []Record, o Options) ([]Outcome, *runtime.Engine, error) {
	out, err := compile(in, o)
	if err != nil {
		return nil, nil, err
	}
	e, err := o.Engine(ctx, out)
	if err != nil {
		return nil, nil, err
	}
	res := make([]Outcome, len(evidence))
	for i, r := range evidence {
		d, err := e.Decide(ctx, r.Call)
		if err != nil {
			return nil, nil, err
		}
		res[i] = OutcomeOf(d)
	}
	return res, e, nil
}

// OutcomeOf is what the logs keep of a decision.
func OutcomeOf(d runtime.Decision) Outcome {
	return Outcome{Action: string(d.Action), Matched: d.Matched, Layer: d.Layer, Surface: d.Surface, Value: d.Value, Pos: d.Pos}
}

// compare lists the calls whose decision changed, and whether a guarded
// call got looser.
func compare(evidence []Record, before, after []Outcome, guarded map[int]bool) ([]Change, bool) {
	var changes []Change
	loosened := false
	for i := range evidence {
		b, a := before[i], after[i]
		if b.Action == a.Action && b.Matched == a.Matched && b.Layer == a.Layer {
			continue // the same rule decides, perhaps written elsewhere now
		}
		if guarded[i] && action.Action(b.Action).Stricter(action.Action(a.Action)) {
			loosened = true
		}
		changes = append(changes, Change{Call: evidence[i].Call, Before: b, After: a})
	}
	return changes, loosened
}

// sparesAPrompt: some ask became an allow.
func sparesAPrompt(changes []Change) bool {
	for _, c := range changes {
		if c.Before.Action == "ask" && c.After.Action == "allow" {
			return true
		}
	}
	return false
}
