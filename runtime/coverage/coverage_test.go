package coverage_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/regate/regate/compiler"
	"github.com/regate/regate/facts"
	"github.com/regate/regate/runtime"
	"github.com/regate/regate/runtime/coverage"
)

const policy = `{
  "permission": {
    "*": "ask",
    "bash": {
      "git *": "allow",
      "git status": "allow",
      "git push *": "deny",
      "git push --force*": "deny",
      "rm *": "ask"
    },
    "path": {"*": "allow", "*.env": "deny", "*.env.example": "allow"}
  }
}`

var calls = []facts.Call{
	{Tool: "bash", Input: map[string]any{"command": "git status"}},
	{Tool: "bash", Input: map[string]any{"command": "git log"}},
	{Tool: "bash", Input: map[string]any{"command": "git push origin"}},
	{Tool: "bash", Input: map[string]any{"command": "git push origin"}},
	{Tool: "bash", Input: map[string]any{"command": "make"}},
	{Tool: "read", Input: map[string]any{"path": ".env"}},
	{Tool: "read", Input: map[string]any{"path": "src/a.go"}},
	{Tool: "nonesuch", Input: map[string]any{}, Registered: []string{"bash", "read"}},
}

func compile(t *testing.T) *compiler.Output {
	t.Helper()
	out, err := compiler.Compile(compiler.Input{Policy: &compiler.Source{Name: "policy.jsonc", Data: []byte(policy)}}, compiler.WithHome("/home/u"))
	if err != nil || len(out.Diagnostics) > 0 {
		t.Fatal(err, out.Diagnostics)
	}
	return out
}

// decided is a counter that counted the decisions of calls under out.
func decided(t *testing.T, out *compiler.Output) *coverage.Counter {
	t.Helper()
	e, err := runtime.New(context.Background(), out, runtime.WithCwd("/home/u/repo"), runtime.WithFS(facts.MapFS{}), runtime.WithCacheSize(0))
	if err != nil {
		t.Fatal(err)
	}
	c, err := coverage.New(out)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Decide(context.Background(), e, calls); err != nil {
		t.Fatal(err)
	}
	return c
}

func byPattern(rep coverage.Report, surface string) map[string]coverage.Rule {
	m := map[string]coverage.Rule{}
	for _, r := range rep.Rules {
		if r.Surface == surface {
			m[r.Pattern] = r
		}
	}
	return m
}

// TestCounts: each decision counts for the rule that decided it; a less
// specific rule that matched too is shadowed on that call; rules in file
// order; decisions of no written rule apart, by layer.
func TestCounts(t *testing.T) {
	c := decided(t, compile(t))
	rep := c.Report()
	bash := byPattern(rep, "bash")
	for pattern, want := range map[string][3]any{
		"git status":        {1, 0, "used"},
		"git *":             {1, 3, "used"}, // matched git status and both pushes, lost each time
		"git push *":        {2, 0, "used"},
		"git push --force*": {0, 0, "unused"},
		"rm *":              {0, 0, "unused"},
	} {
		r := bash[pattern]
		if r.Decided != want[0] || r.Shadowed != want[1] || r.Use() != want[2] {
			t.Errorf("%s: decided %d shadowed %d %s; want %v", pattern, r.Decided, r.Shadowed, r.Use(), want)
		}
	}
	path := byPattern(rep, "path")
	// src/a.go: the path's allow loses to the read tool's own ask (the "*"
	// fallback), so path "*" decides nothing; .env: "*.env" decides, and
	// path "*" matched it too.
	if path["*.env"].Decided != 1 || path["*"].Decided != 0 || path["*"].Shadowed != 1 {
		t.Errorf("path rules: %+v", path)
	}
	if rep.Decisions != len(calls) || rep.Unattributed["registry"] != 1 {
		t.Errorf("decisions %d, unattributed %v", rep.Decisions, rep.Unattributed)
	}
	for i := 1; i < len(rep.Rules); i++ {
		a, b := rep.Rules[i-1], rep.Rules[i]
		if a.File == b.File && a.Line > b.Line {
			t.Errorf("rules out of file order: %s before %s", a.Pos, b.Pos)
		}
	}
}

// TestDeadRules: a rule the compiler proves never decides is dead, whatever
// the calls.
func TestDeadRules(t *testing.T) {
	out, err := compiler.Compile(compiler.Input{Policy: &compiler.Source{Name: "p.jsonc", Data: []byte(
		`{"permission": {"bash": {"git *": "allow"}}}`)}, HardGuards: &compiler.Source{Name: "hg.jsonc", Data: []byte(
		`{"permission": {"bash": {"git *": "deny"}}}`)}})
	if err != nil || len(out.Diagnostics) > 0 {
		t.Fatal(err, out.Diagnostics)
	}
	c, err := coverage.New(out)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, r := range c.Report().Rules {
		found = found || r.Layer == "policy"
		if r.Layer == "policy" && r.Pattern == "git *" && r.Use() != "dead" {
			t.Errorf("git * under a hard guard's git *: %s", r.Use())
		}
	}
	if !found {
		t.Fatal("no policy rule in the report")
	}
}

// TestLogAgreesWithDecisions: coverage over a decision log written while
// deciding the calls counts, rule by rule, what coverage over the same
// decisions counts, and every line of the log is counted once: for the rule
// whose position it names, or apart.
func TestLogAgreesWithDecisions(t *testing.T) {
	out := compile(t)
	dir := t.TempDir()
	log, err := runtime.OpenDecisionLog(dir, 0)
	if err != nil {
		t.Fatal(err)
	}
	e, err := runtime.New(context.Background(), out, runtime.WithCwd("/home/u/repo"), runtime.WithFS(facts.MapFS{}), runtime.WithDecisionLog(log))
	if err != nil {
		t.Fatal(err)
	}
	direct, _ := coverage.New(out)
	for _, call := range calls {
		in := e.Facts(call)
		d, err := e.Decide(context.Background(), call)
		if err != nil {
			t.Fatal(err)
		}
		direct.Add(coverage.FromDecision(d, in))
	}
	if err := log.Close(); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(filepath.Join(dir, runtime.DecisionLogFile))
	if err != nil {
		t.Fatal(err)
	}
	fromLog, _ := coverage.New(out)
	if err := coverage.ReadLog(bytes.NewReader(raw), "decisions.jsonl", fromLog.Add); err != nil {
		t.Fatal(err)
	}
	a, b := direct.Report(), fromLog.Report()
	lines := strings.Count(strings.TrimSpace(string(raw)), "\n") + 1
	if lines != len(calls) || b.Decisions != lines {
		t.Fatalf("%d log lines, %d decisions read, %d calls", lines, b.Decisions, len(calls))
	}
	counted := 0
	for i := range a.Rules {
		if a.Rules[i].Decided != b.Rules[i].Decided {
			t.Errorf("%s %s: %d decided directly, %d from the log", a.Rules[i].Pos, a.Rules[i].Pattern, a.Rules[i].Decided, b.Rules[i].Decided)
		}
		counted += b.Rules[i].Decided
	}
	for _, n := range b.Unattributed {
		counted += n
	}
	if counted != lines {
		t.Errorf("%d lines counted, %d lines in the log", counted, lines)
	}
}

// TestReadLogRefusesWhatIsNotADecision: a bad line is an error with its file
// and line, never skipped.
func TestReadLogRefusesWhatIsNotADecision(t *testing.T) {
	for _, c := range []struct{ log, want string }{
		{"{\"result\":{\"layer\":\"policy\",\"pos\":\"p:1:1\"}}\nnot json\n", "d.jsonl:2:1: not a decision-log line"},
		{"\n{\"result\":{}}\n", "d.jsonl:2:1: the line has no decision"},
		{`{"path":"regate/lib/ceiling/decision","result":{"layer":"x"}}`, "d.jsonl:1:1: the line is a decision of regate/lib/ceiling/decision"},
	} {
		err := coverage.ReadLog(strings.NewReader(c.log), "d.jsonl", func(coverage.Observation) {})
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%q: %v; want %q", c.log, err, c.want)
		}
	}
}
