package suggest_test

import (
	"context"
	"strings"
	"testing"

	"github.com/regate/regate/compiler"
	"github.com/regate/regate/facts"
	"github.com/regate/regate/runtime/suggest"
)

func cmd(c string) facts.Call { return facts.Call{Tool: "bash", Input: map[string]any{"command": c}} }

// evidence decides the calls under policy and answers each ask as answers
// says (a command missing from answers is not asked about).
func evidence(t *testing.T, policy string, calls []string, approve map[string]bool) []suggest.Record {
	t.Helper()
	ctx := context.Background()
	out, err := compiler.Compile(compiler.Input{Policy: &compiler.Source{Name: "p.jsonc", Data: []byte(policy)}}, home)
	if err != nil {
		t.Fatal(err)
	}
	e, err := newEngine(ctx, out)
	if err != nil {
		t.Fatal(err)
	}
	var recs []suggest.Record
	for i, c := range calls {
		d, err := e.Decide(ctx, cmd(c))
		if err != nil {
			t.Fatal(err)
		}
		r := suggest.Record{Call: cmd(c), Decision: suggest.OutcomeOf(d), Session: []string{"s1", "s2"}[i%2]}
		if d.Action == "ask" {
			r.Answered, r.Approved = true, approve[c]
		}
		recs = append(recs, r)
	}
	return recs
}

func run(t *testing.T, policy string, recs []suggest.Record) suggest.Result {
	t.Helper()
	res, err := suggest.Suggest(context.Background(), compiler.Input{Policy: &compiler.Source{Name: "p.jsonc", Data: []byte(policy)}},
		recs, suggest.Options{Engine: newEngine, Compile: []compiler.Option{home}})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func patterns(res suggest.Result) string {
	var ps []string
	for _, s := range res.Suggestions {
		ps = append(ps, s.Surface+" "+s.Pattern)
	}
	return strings.Join(ps, ", ")
}

// TestNeverWiderThanApproved: the literal part is what the approvals share.
func TestNeverWiderThanApproved(t *testing.T) {
	policy := `{"permission": {"*": "ask"}}`
	calls := []string{"git checkout -b a", "git checkout -b b", "make build", "make build", "pnpm lint"}
	res := run(t, policy, evidence(t, policy, calls, map[string]bool{"git checkout -b a": true, "git checkout -b b": true, "make build": true, "pnpm lint": true}))
	if got, want := patterns(res), `bash git checkout -b *, bash make build`; got != want {
		t.Errorf("suggested %q; want %q (one approval of pnpm lint is not enough)", got, want)
	}
	s := res.Suggestions[0]
	if s.Approvals != 2 || strings.Join(s.Sessions, ",") != "s1,s2" || len(s.Changes) != 2 {
		t.Errorf("evidence %+v", s)
	}
}

// TestNeverCoversWhatWasRejectedOrDenied: a pattern that would match a call
// a person rejected, or one the policy denies, is not suggested, however
// many approvals stand behind it.
func TestNeverCoversWhatWasRejectedOrDenied(t *testing.T) {
	policy := `{"permission": {"*": "ask", "bash": {"rm -rf *": "deny"}}}`
	calls := []string{"git push origin a", "git push origin b", "git push origin main", "rm build", "rm dist", "rm -rf build"}
	approve := map[string]bool{"git push origin a": true, "git push origin b": true, "rm build": true, "rm dist": true}
	if got := patterns(run(t, policy, evidence(t, policy, calls, approve))); got != "" {
		t.Errorf("suggested %q: each matches a rejected or denied call", got)
	}
}

// TestFloorsAreNotEvidence: approving an ask a floor raised (a wrapper
// that runs another command) is no evidence for a rule.
func TestFloorsAreNotEvidence(t *testing.T) {
	policy := `{"permission": {"*": "ask", "bash": {"xargs *": "allow"}}}`
	calls := []string{"xargs rm", "xargs ls"}
	recs := evidence(t, policy, calls, map[string]bool{"xargs rm": true, "xargs ls": true})
	for _, r := range recs {
		if r.Decision.Layer != "floor" {
			t.Fatalf("%v decided by %s, not a floor: the test needs another wrapper", r.Call, r.Decision.Layer)
		}
	}
	if got := patterns(run(t, policy, recs)); got != "" {
		t.Errorf("suggested %q from floored asks", got)
	}
}

// TestSessionApprovals: a pattern people approved for whole sessions
// (regate approve) in two sessions is suggested as they wrote it, and one
// that matches a rejected call is not.
func TestSessionApprovals(t *testing.T) {
	policy := `{"permission": {"*": "ask"}}`
	recs := evidence(t, policy, []string{"make deploy staging", "make deploy prod"}, map[string]bool{"make deploy staging": true})
	res, err := suggest.Suggest(context.Background(), compiler.Input{Policy: &compiler.Source{Name: "p.jsonc", Data: []byte(policy)}},
		recs, suggest.Options{Engine: newEngine, Compile: []compiler.Option{home}, Sessions: map[string][]compiler.Approval{
			"s1": {{Surface: "bash", Pattern: "make deploy staging"}, {Surface: "bash", Pattern: "make deploy *"}},
			"s2": {{Surface: "bash", Pattern: "make deploy staging"}, {Surface: "bash", Pattern: "make deploy *"}},
			"s3": {{Surface: "bash", Pattern: "pnpm lint"}},
		}})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := patterns(res), "bash make deploy staging"; got != want {
		t.Errorf("suggested %q; want %q (make deploy * matches the rejected make deploy prod; pnpm lint has one session)", got, want)
	}
	if s := res.Suggestions[0]; s.Approvals != 2 || strings.Join(s.Sessions, ",") != "s1,s2" {
		t.Errorf("evidence %+v", s)
	}
}

// TestPathOperandsByFolder: a command's last word that its program's
// argument model reads as a path inside the project is generalised to its
// folder, and nothing outside the project is.
func TestPathOperandsByFolder(t *testing.T) {
	policy := `{"permission": {"*": "ask"}}`
	calls := []string{"git add src/a.go", "git add src/b.go", "git add ../other/x.go", "git add ../other/y.go"}
	approve := map[string]bool{}
	for _, c := range calls {
		approve[c] = true
	}
	if got, want := patterns(run(t, policy, evidence(t, policy, calls, approve))), "bash git add src/*, bash git add *"; got != want {
		t.Errorf("suggested %q; want %q (the folder for the project's files; ../other is outside it, so only the subcommand)", got, want)
	}
}
