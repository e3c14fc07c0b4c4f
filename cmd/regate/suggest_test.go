package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/regate/regate/internal/testkit/sessiontrace"
	"github.com/regate/regate/policies"
)

// TestSuggestOnTheRecordedSession runs the loop of docs/suggest.md with the
// CLI on the recorded session (testdata/trace): regate suggest --write
// over its review log into a copy of the default policy, then regate diff
// of the two policies over its calls. The prompts fall by at least half,
// and no call the default policy denies, and no ask the session's person
// rejected, is among the calls whose decision changes.
func TestSuggestOnTheRecordedSession(t *testing.T) {
	if testing.Short() {
		t.Skip("decides the 3,000 calls of the recorded session many times")
	}
	dir := t.TempDir()
	before, after := filepath.Join(dir, "default.jsonc"), filepath.Join(dir, "policy.jsonc")
	for _, p := range []string{before, after} {
		if err := os.WriteFile(p, policies.Default(), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	env := []string{"--cwd", "/home/u/repo", "--home", "/home/u"}
	runRegate(t, append([]string{"suggest", "--policy", after, "--review", "../../testdata/trace/review.jsonl", "--write"}, env...)...)

	trace := readSession(t)
	decisions := func(policy string) []string {
		out := runRegate(t, append([]string{"decide", "--policy", policy, "--calls", "../../testdata/trace/calls.jsonl", "--format", "json"}, env...)...)
		var actions []string
		for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
			var d struct {
				Decision struct{ Action string } `json:"decision"`
			}
			if err := json.Unmarshal([]byte(line), &d); err != nil {
				t.Fatal(err)
			}
			actions = append(actions, d.Decision.Action)
		}
		if len(actions) != len(trace) {
			t.Fatalf("%d decisions for %d calls", len(actions), len(trace))
		}
		return actions
	}
	was, now := decisions(before), decisions(after)
	asks := func(as []string) int { return strings.Count(strings.Join(as, " "), "ask") }
	t.Logf("prompts %d -> %d", asks(was), asks(now))
	if asks(now)*2 > asks(was) {
		t.Errorf("prompts %d -> %d: not cut by half", asks(was), asks(now))
	}

	diff := runRegate(t, append([]string{"diff", before, after, "--calls", "../../testdata/trace/calls.jsonl"}, env...)...)
	// canonical is a call's JSON with its keys sorted, whichever side wrote it.
	canonical := func(b []byte) string {
		var v any
		if err := json.Unmarshal(b, &v); err != nil {
			t.Fatal(err)
		}
		out, _ := json.Marshal(v)
		return string(out)
	}
	guarded, approved := map[string]bool{}, map[string]bool{}
	for i, e := range trace {
		if was[i] == "ask" && e.Answer == "approve" {
			b, _ := json.Marshal(e.Call)
			approved[canonical(b)] = true
		}
		if was[i] == "deny" || (was[i] == "ask" && e.Answer == "reject") {
			b, _ := json.Marshal(e.Call)
			guarded[canonical(b)] = true
		}
	}
	if len(guarded) == 0 {
		t.Fatal("the recorded session has no denied or rejected call: the check below would prove nothing")
	}
	changed, spared := 0, 0
	for _, line := range strings.Split(strings.TrimSpace(diff), "\n") {
		var c struct {
			Call json.RawMessage `json:"call"`
		}
		if json.Unmarshal([]byte(line), &c) != nil || c.Call == nil {
			continue // the count line
		}
		changed++
		if approved[canonical(c.Call)] {
			spared++
		}
		if guarded[canonical(c.Call)] {
			t.Errorf("a denied or rejected call changes: %s", line)
		}
	}
	if changed == 0 || spared == 0 {
		t.Errorf("diff lists %d changed calls, %d of them asks people approved", changed, spared)
	}
}

func readSession(t *testing.T) []sessiontrace.Entry {
	t.Helper()
	trace, err := sessiontrace.ReadFile("../../testdata/trace/session.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	return trace
}
