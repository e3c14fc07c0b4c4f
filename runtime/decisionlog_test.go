package runtime_test

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/plugins/logs"

	"github.com/regate/regate/compiler"
	"github.com/regate/regate/facts"
	"github.com/regate/regate/runtime"
)

func TestDecisionLog(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "logs")
	if err := os.MkdirAll(dir, 0o755); err != nil { // an earlier, looser folder is tightened
		t.Fatal(err)
	}
	l, err := runtime.OpenDecisionLog(dir, 20)
	if err != nil {
		t.Fatal(err)
	}
	out, err := compiler.Compile(compiler.Input{Policy: &compiler.Source{Name: "p.jsonc", Data: []byte(`{"permission": {"*": "ask", "mcp": {"*": "deny"}}}`)}})
	if err != nil {
		t.Fatal(err)
	}
	eng, err := runtime.New(context.Background(), out, runtime.WithDecisionLog(l))
	if err != nil {
		t.Fatal(err)
	}
	call := facts.Call{Tool: "mcp", Input: map[string]any{
		"tool":    "deploy",
		"headers": map[string]any{"Authorization": "Bearer abc123", "X-Trace": strings.Repeat("x", 100)},
		"args":    []any{map[string]any{"api_key": "k", "Token": 7}},
	}}
	if _, err := eng.Decide(context.Background(), call); err != nil {
		t.Fatal(err)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]os.FileMode{dir: 0o700, filepath.Join(dir, runtime.DecisionLogFile): 0o600} {
		if st, err := os.Stat(path); err != nil || st.Mode().Perm() != want {
			t.Errorf("%s: mode %v, %v; want %v", path, st.Mode().Perm(), err, want)
		}
	}
	b, err := os.ReadFile(filepath.Join(dir, runtime.DecisionLogFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, secret := range []string{"abc123", `"k"`, strings.Repeat("x", 20)} {
		if strings.Contains(string(b), secret) {
			t.Errorf("the log shows %q:\n%s", secret, b)
		}
	}
	sc := bufio.NewScanner(strings.NewReader(string(b)))
	n := 0
	for sc.Scan() {
		n++
		var ev logs.EventV1
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			t.Fatal(err)
		}
		if ev.DecisionID == "" || ev.Revision != out.Hash || ev.Bundles["regate"].Revision != out.Hash ||
			ev.Labels["app"] != "regate" || ev.Path != "regate/lib/permission/decision" || ev.Timestamp.IsZero() || ev.Input == nil {
			t.Errorf("event %+v", ev)
		}
		if len(ev.Masked) != 3 {
			t.Errorf("masked %v; want the three sensitive keys", ev.Masked)
		}
		res, _ := (*ev.Result).(map[string]any)
		if res["action"] != "deny" {
			t.Errorf("result %v", res)
		}
	}
	if n != 1 {
		t.Fatalf("%d events; want 1", n)
	}
}

// nest is value inside n arrays.
func nest(n int, value any) any {
	for range n {
		value = []any{value}
	}
	return value
}

// TestLogEntryBounds: an entry is held to runtime.MaxLogDepth and
// runtime.MaxLogEntryBytes whatever its input, a value given as a struct
// as much as one given as plain JSON, and masking still finds its keys.
func TestLogEntryBounds(t *testing.T) {
	if !strings.Contains(runtime.TooDeep, " "+strconv.Itoa(runtime.MaxLogDepth)+"]") ||
		!strings.Contains(runtime.OverBudget, " "+strconv.Itoa(runtime.MaxLogEntryBytes)+" ") {
		t.Fatalf("the markers %q and %q do not name the limits", runtime.TooDeep, runtime.OverBudget)
	}
	type wrapped struct{ V any } // "V" is one level below the root
	big := make([]any, 3000)
	for i := range big {
		big[i] = strings.Repeat("b", 1000)
	}
	for _, tc := range []struct {
		name     string
		maxWidth int
		v        any
		want     []string // in the line
		not      []string // not in the line
		maxLen   int
	}{
		{name: "at the depth limit", v: nest(runtime.MaxLogDepth, "leaf"), want: []string{`"leaf"`}, not: []string{runtime.TooDeep}},
		{name: "past the depth limit", v: nest(runtime.MaxLogDepth+1, "leaf"), want: []string{runtime.TooDeep}, not: []string{"leaf"}},
		{name: "at the depth limit, a struct", v: wrapped{nest(runtime.MaxLogDepth-1, "leaf")}, want: []string{`"leaf"`}, not: []string{runtime.TooDeep}},
		{name: "past the depth limit, a struct", v: wrapped{nest(runtime.MaxLogDepth, "leaf")}, want: []string{runtime.TooDeep}, not: []string{"leaf"}},
		{name: "nested 9,990 deep", v: map[string]any{"args": nest(9990, "leaf")}, want: []string{runtime.TooDeep}, maxLen: 1000},
		{name: "nested 20,000 deep, a struct", v: wrapped{nest(20000, "leaf")}, want: []string{runtime.TooDeep}, maxLen: 1000},
		{name: "a secret below the depth limit", v: map[string]any{"a": []any{map[string]any{"b/c": map[string]any{"Token": "s3cr3t"}}}},
			want: []string{runtime.Redacted}, not: []string{"s3cr3t"}},
		{name: "3 MB of bounded strings", maxWidth: 1000, v: map[string]any{"args": big},
			want: []string{runtime.OverBudget}, maxLen: runtime.MaxLogEntryBytes + 2000},
		{name: "a 3 MB string in an unbounded log", v: wrapped{strings.Repeat("s", 3<<20)},
			want: []string{"…" + runtime.OverBudget}, maxLen: runtime.MaxLogEntryBytes + 2000},
		{name: "100,000 keys", v: manyKeys(100_000), want: []string{runtime.OverBudget}, maxLen: runtime.MaxLogEntryBytes + 2000},
		{name: "under the budget", maxWidth: 1000, v: map[string]any{"args": big[:900]}, not: []string{runtime.OverBudget}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			l, err := runtime.OpenLog(dir, "log.jsonl", tc.maxWidth)
			if err != nil {
				t.Fatal(err)
			}
			if err := l.Write(tc.v); err != nil {
				t.Fatal(err)
			}
			l.Close()
			b, err := os.ReadFile(filepath.Join(dir, "log.jsonl"))
			if err != nil {
				t.Fatal(err)
			}
			if !json.Valid(b) {
				t.Fatalf("not JSON: %.200s", b)
			}
			for _, s := range tc.want {
				if !strings.Contains(string(b), s) {
					t.Errorf("the line lacks %q: %.300s", s, b)
				}
			}
			for _, s := range tc.not {
				if strings.Contains(string(b), s) {
					t.Errorf("the line holds %q: %.300s", s, b)
				}
			}
			if tc.maxLen > 0 && len(b) > tc.maxLen {
				t.Errorf("the line is %d bytes; want at most %d", len(b), tc.maxLen)
			}
		})
	}
}

func manyKeys(n int) map[string]any {
	m := make(map[string]any, n)
	for i := range n {
		m["key"+strconv.Itoa(i)] = i
	}
	return m
}

// TestDecisionLogKeepsTheResult: an input that spends the entry's budget
// leaves the decision whole, and masked pointers name nested keys exactly.
func TestDecisionLogKeepsTheResult(t *testing.T) {
	dir := t.TempDir()
	l, err := runtime.OpenDecisionLog(dir, 0)
	if err != nil {
		t.Fatal(err)
	}
	call := facts.Call{Tool: "mcp", Input: map[string]any{
		"a":    []any{map[string]any{"b/c": map[string]any{"token": "s3cr3t"}}},
		"zzz":  strings.Repeat("z", 2*runtime.MaxLogEntryBytes),
		"deep": nest(500, "leaf"),
	}}
	d := runtime.Decision{Action: "deny", Matched: "mcp", Layer: "policy", Value: strings.Repeat("v", 1000)}
	if _, err := l.Log(call, d, "rev"); err != nil {
		t.Fatal(err)
	}
	l.Close()
	b, err := os.ReadFile(filepath.Join(dir, runtime.DecisionLogFile))
	if err != nil {
		t.Fatal(err)
	}
	var ev logs.EventV1
	if err := json.Unmarshal(b, &ev); err != nil {
		t.Fatal(err)
	}
	res, _ := (*ev.Result).(map[string]any)
	if res["action"] != "deny" || res["value"] != d.Value {
		t.Errorf("result %.200v", res)
	}
	if len(ev.Masked) != 1 || ev.Masked[0] != "/input/input/a/0/b~1c/token" {
		t.Errorf("masked %v", ev.Masked)
	}
	if len(b) > runtime.MaxLogEntryBytes+2000 || !strings.Contains(string(b), runtime.OverBudget) || !strings.Contains(string(b), runtime.TooDeep) {
		t.Errorf("the event is %d bytes: %.300s", len(b), b)
	}
}
