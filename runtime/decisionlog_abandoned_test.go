package runtime_test

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/open-policy-agent/opa/v1/plugins/logs"

	"github.com/regate/regate/facts"
	"github.com/regate/regate/runtime"
)

// TestLogAbandoned: an event of a call nobody received an answer to says
// so, with the decision when one was reached and without a result when
// none was; it still decodes as OPA's event. An answered call's event has
// no "abandoned" member at all.
func TestLogAbandoned(t *testing.T) {
	dir := t.TempDir()
	l, err := runtime.OpenDecisionLog(dir, 0)
	if err != nil {
		t.Fatal(err)
	}
	call := facts.Call{Tool: "bash", Input: map[string]any{"command": "make"}}
	d := runtime.Decision{Action: "ask", Surface: "bash", Value: "make"}
	if _, err := l.Log(call, d, "rev"); err != nil {
		t.Fatal(err)
	}
	if _, err := l.LogAbandoned(call, &d, "rev"); err != nil {
		t.Fatal(err)
	}
	if _, err := l.LogAbandoned(call, nil, "rev"); err != nil {
		t.Fatal(err)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(filepath.Join(dir, runtime.DecisionLogFile))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	type want struct {
		abandoned any
		result    bool
	}
	wants := []want{{nil, true}, {true, true}, {true, false}}
	sc := bufio.NewScanner(f)
	i := 0
	for ; sc.Scan(); i++ {
		var ev map[string]any
		var opa logs.EventV1
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(sc.Bytes(), &opa); err != nil || opa.DecisionID == "" {
			t.Errorf("event %d does not decode as OPA's: %v", i, err)
		}
		if i >= len(wants) {
			break
		}
		_, hasResult := ev["result"]
		if ev["abandoned"] != wants[i].abandoned || hasResult != wants[i].result {
			t.Errorf("event %d: abandoned %v, result %v; want %v, %v", i, ev["abandoned"], hasResult, wants[i].abandoned, wants[i].result)
		}
	}
	if i != len(wants) {
		t.Fatalf("%d events, want %d", i, len(wants))
	}
}
