package ask_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/regate/regate/compiler"
	"github.com/regate/regate/facts"
	"github.com/regate/regate/runtime"
	"github.com/regate/regate/runtime/ask"
)

func keys(p ask.Prompt) string {
	var ks []string
	for _, l := range p.Lines {
		ks = append(ks, l.Key)
	}
	return strings.Join(ks, ",")
}

func TestBuildPrompt(t *testing.T) {
	bash := ask.Ask{
		Call:     facts.Call{Tool: "bash", Input: map[string]any{"command": "cd x && make deploy"}},
		Decision: runtime.Decision{Action: "ask", Surface: "bash", Value: "make deploy", Matched: "*"},
	}
	p := ask.BuildPrompt(bash, "/repo", 24, 400)
	if got := keys(p); got != "agent,tool,rule,command,from,cwd" {
		t.Errorf("a bash ask: %s (no surface line: the tool line states it)", got)
	}
	path := ask.Ask{
		Call:      facts.Call{Tool: "read", Input: map[string]any{"path": "/etc/shadow", "token": "t0ps3cret"}, Agent: "helper"},
		Decision:  runtime.Decision{Action: "ask", Surface: "path", Value: "/etc/shadow", Matched: "/etc/*"},
		Forwarded: "child-1",
	}
	p = ask.BuildPrompt(path, "/repo", 24, 400)
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
	p = ask.BuildPrompt(long, "/repo", 3, 50)
	if got := keys(p); !strings.HasPrefix(got, "agent,tool,rule,command,…") || !p.Elided {
		t.Errorf("under 3 rows: %s (elided %v)", got, p.Elided)
	}
	for _, l := range p.Lines {
		if len([]rune(l.Value)) > 50 {
			t.Errorf("a field over the width: %q", l.Value)
		}
	}
}

// A secret under a sensitive key never reaches the review log, the debug
// log or the decision log; all are owner-only in an owner-only folder, and
// a file an earlier version left wider is tightened.
func TestLogsNeverShowSecrets(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "logs")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ask.ReviewLogFile), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	knobs := compiler.DefaultKnobs()
	knobs.DebugLog = true
	knobs.ReviewLogFieldMaxWidth = 40
	logs, err := ask.OpenAskLogs(dir, knobs, nil)
	if err != nil {
		t.Fatal(err)
	}
	decisions, err := runtime.OpenDecisionLog(dir, 1000)
	if err != nil {
		t.Fatal(err)
	}
	long := strings.Repeat("y", 100)
	call := facts.Call{Tool: "mcp", Input: map[string]any{"tool": "deploy", "note": long,
		"env": map[string]any{"PASSWORD": "hunter2", "Cookie": "c=1", "Authorization": "Bearer " + long}}}
	d := runtime.Decision{Action: "ask", Surface: "mcp", Value: "deploy", Matched: "*"}
	if err := logs.Answered(ask.Ask{Call: call, Decision: d}, ask.Verdict{Action: "defer", By: "auto-review"}, map[string]any{"outcome": "reject", "api_key": "k-123"}); err != nil {
		t.Fatal(err)
	}
	if _, err := decisions.Log(call, d, "rev"); err != nil {
		t.Fatal(err)
	}
	logs.Close()
	decisions.Close()
	for _, name := range []string{ask.ReviewLogFile, ask.DebugLogFile, runtime.DecisionLogFile} {
		path := filepath.Join(dir, name)
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, secret := range []string{"hunter2", "c=1", "k-123", "Bearer"} {
			if strings.Contains(string(b), secret) {
				t.Errorf("%s shows %q:\n%s", name, secret, b)
			}
		}
		if !strings.Contains(string(b), runtime.Redacted) {
			t.Errorf("%s masks nothing:\n%s", name, b)
		}
		if st, _ := os.Stat(path); st.Mode().Perm() != 0o600 {
			t.Errorf("%s: mode %v", name, st.Mode().Perm())
		}
		// The review log is bounded by reviewLogFieldMaxWidth; the opt-in
		// debug log is left whole.
		if bounded := !strings.Contains(string(b), long); bounded != (name == ask.ReviewLogFile) {
			t.Errorf("%s: bounded %v", name, bounded)
		}
	}
	if st, _ := os.Stat(dir); st.Mode().Perm() != 0o700 {
		t.Errorf("the log folder: mode %v", st.Mode().Perm())
	}
}

// TestLogsOff: a policy that turns the review log off (and leaves the
// debug log off) writes no file.
func TestLogsOff(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "logs")
	knobs := compiler.DefaultKnobs()
	knobs.PermissionReviewLog = false
	logs, err := ask.OpenAskLogs(dir, knobs, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := logs.Answered(ask.Ask{Call: facts.Call{Tool: "bash"}}, ask.Verdict{Action: "deny"}, nil); err != nil {
		t.Fatal(err)
	}
	logs.Close()
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("files written with both logs off: %v", entries)
	}
}
