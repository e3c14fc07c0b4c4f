package runtime_test

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
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
