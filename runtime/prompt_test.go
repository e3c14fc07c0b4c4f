package runtime_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/regate/regate/facts"
	"github.com/regate/regate/runtime"
)

func keys(p runtime.Prompt) string {
	var ks []string
	for _, l := range p.Lines {
		ks = append(ks, l.Key)
	}
	return strings.Join(ks, ",")
}

func TestBuildPrompt(t *testing.T) {
	bash := runtime.Ask{
		Call:     facts.Call{Tool: "bash", Input: map[string]any{"command": "cd x && make deploy"}},
		Decision: runtime.Decision{Action: "ask", Surface: "bash", Value: "make deploy", Matched: "*"},
	}
	p := runtime.BuildPrompt(bash, "/repo", 24, 400)
	if got := keys(p); got != "agent,tool,rule,command,from,cwd" {
		t.Errorf("a bash ask: %s (no surface line: the tool line states it)", got)
	}
	path := runtime.Ask{
		Call:      facts.Call{Tool: "read", Input: map[string]any{"path": "/etc/shadow", "token": "t0ps3cret"}, Agent: "helper"},
		Decision:  runtime.Decision{Action: "ask", Surface: "path", Value: "/etc/shadow", Matched: "/etc/*"},
		Forwarded: "child-1",
	}
	p = runtime.BuildPrompt(path, "/repo", 24, 400)
	if got := keys(p); got != "agent,session,tool,rule,path,cwd,input" {
		t.Errorf("a forwarded path ask: %s", got)
	}
	for _, l := range p.Lines {
		if strings.Contains(l.Value, "t0ps3cret") {
			t.Errorf("the prompt shows a sensitive value: %+v", l)
		}
	}
	// Facts are never dropped, evidence is; a long field is shortened.
	long := bash
	long.Decision.Value = strings.Repeat("x", 1000)
	p = runtime.BuildPrompt(long, "/repo", 3, 50)
	if got := keys(p); !strings.HasPrefix(got, "agent,tool,rule,command,…") || !p.Elided {
		t.Errorf("under 3 rows: %s (elided %v)", got, p.Elided)
	}
	for _, l := range p.Lines {
		if len([]rune(l.Value)) > 50 {
			t.Errorf("a field over the width: %q", l.Value)
		}
	}
}

// A secret under a sensitive key never reaches the review log or the
// decision log, and both are owner-only.
func TestLogsNeverShowSecrets(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "logs")
	review, err := runtime.OpenLog(dir, runtime.ReviewLogFile, 1000)
	if err != nil {
		t.Fatal(err)
	}
	decisions, err := runtime.OpenDecisionLog(dir, 1000)
	if err != nil {
		t.Fatal(err)
	}
	call := facts.Call{Tool: "mcp", Input: map[string]any{"tool": "deploy", "env": map[string]any{"PASSWORD": "hunter2", "Cookie": "c=1"}}}
	d := runtime.Decision{Action: "ask", Surface: "mcp", Value: "deploy", Matched: "*"}
	if err := runtime.LogReview(review, runtime.Ask{Call: call, Decision: d}, runtime.Verdict{Action: "defer", By: "auto-review"}, map[string]any{"outcome": "reject", "api_key": "k-123"}); err != nil {
		t.Fatal(err)
	}
	if _, err := decisions.Log(call, d, "rev"); err != nil {
		t.Fatal(err)
	}
	review.Close()
	decisions.Close()
	for _, name := range []string{runtime.ReviewLogFile, runtime.DecisionLogFile} {
		path := filepath.Join(dir, name)
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, secret := range []string{"hunter2", "c=1", "k-123"} {
			if strings.Contains(string(b), secret) {
				t.Errorf("%s shows %q:\n%s", name, secret, b)
			}
		}
		if st, _ := os.Stat(path); st.Mode().Perm() != 0o600 {
			t.Errorf("%s: mode %v", name, st.Mode().Perm())
		}
	}
	if st, _ := os.Stat(dir); st.Mode().Perm() != 0o700 {
		t.Errorf("the log folder: mode %v", st.Mode().Perm())
	}
}
