package attack

import (
	"context"
	"fmt"
	"strings"

	"github.com/regate/regate/facts"
	"github.com/regate/regate/runtime"
)

// Result is one shape decided and, when allowed, run and judged.
type Result struct {
	Shape    Shape
	Decision runtime.Decision
	// Fault is a decision that failed (an error, never an allow).
	Fault error
	// Ran: the command was allowed and run under strace.
	Ran bool
	// RunErr is a run that could not be traced to its end (a timeout).
	RunErr   error
	Findings []Finding
	Output   string
}

// Disagrees: the policy allowed the command, and the command did
// something the policy does not allow.
func (r Result) Disagrees() bool { return len(r.Findings) > 0 }

// Try decides the shape's command as a session in the fixture's project
// would; an allowed command is run under strace and its trace judged, and
// the fixture is reset after it. A command whose output shows a secret
// while no finding explains it is a finding too: the judge missed a path.
func (j *Judge) Try(ctx context.Context, s Shape) Result {
	r := Result{Shape: s}
	call := facts.Call{Tool: "bash", Input: map[string]any{"command": s.Cmd}}
	r.Decision, r.Fault = j.Decide(ctx, j.fix.Project, call)
	if r.Fault != nil || r.Decision.Action != "allow" {
		return r
	}
	r.Ran = true
	r.Findings, r.Output, r.RunErr = j.RunJudged(ctx, s.Cmd)
	return r
}

// RunJudged runs cmd under strace in the fixture whatever the policy
// decides of it, judges its trace, and resets the fixture.
func (j *Judge) RunJudged(ctx context.Context, cmd string) ([]Finding, string, error) {
	tr, out, err := Run(ctx, j.fix, cmd)
	var findings []Finding
	if tr != nil {
		findings = j.Judge(ctx, tr)
	}
	if len(findings) == 0 && strings.Contains(string(out), Secret) {
		findings = append(findings, Finding{What: "prints a secret", Decision: "no traced access explains it"})
	}
	if rerr := j.fix.Reset(); rerr != nil && err == nil {
		err = rerr
	}
	return findings, string(out), err
}

// Report is a disagreement as the test prints it: the command (with the
// fixture's root written ROOT), its tags, the decision, and each finding
// with its strace record.
func (j *Judge) Report(r Result) string {
	var b strings.Builder
	fmt.Fprintf(&b, "shape %d %v\n\tcommand: %s\n\tdecided: %s (%s)\n", r.Shape.Index, r.Shape.Tags, j.Redact(r.Shape.Cmd), r.Decision.Action, r.Decision.Matched)
	for _, f := range r.Findings {
		fmt.Fprintf(&b, "\t%s\n", j.Redact(f.String()))
	}
	return b.String()
}

// Redact writes the fixture's root as ROOT.
func (j *Judge) Redact(s string) string {
	return strings.ReplaceAll(s, j.fix.Root, "ROOT")
}
