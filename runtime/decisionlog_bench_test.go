package runtime_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/regate/regate/facts"
	"github.com/regate/regate/runtime"
)

// nestedInput is a tool input holding a JSON array nested depth deep, as a
// host decodes it from the wire: 2×depth bytes of JSON.
func nestedInput(tb testing.TB, depth int) map[string]any {
	tb.Helper()
	var in map[string]any
	src := `{"args": ` + strings.Repeat("[", depth) + strings.Repeat("]", depth) + `}`
	if err := json.Unmarshal([]byte(src), &in); err != nil {
		tb.Fatal(err)
	}
	return in
}

// BenchmarkDecisionLogNested logs a call whose input is a 20 KB array
// nested 9,990 deep (encoding/json's own limit is 10,000).
func BenchmarkDecisionLogNested(b *testing.B) {
	benchLog(b, facts.Call{Tool: "mcp", Input: nestedInput(b, 9990)})
}

// BenchmarkDecisionLogFlat logs a call of the same size, flat: 20 KB of
// short strings in one array, the baseline of the nested one.
func BenchmarkDecisionLogFlat(b *testing.B) {
	args := make([]any, 2000)
	for i := range args {
		args[i] = "abcdefgh"
	}
	benchLog(b, facts.Call{Tool: "mcp", Input: map[string]any{"args": args}})
}

func benchLog(b *testing.B, call facts.Call) {
	l, err := runtime.OpenDecisionLog(b.TempDir(), 1000)
	if err != nil {
		b.Fatal(err)
	}
	defer l.Close()
	d := runtime.Decision{Action: "ask", Matched: "*", Layer: "policy"}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := l.Log(call, d, "rev"); err != nil {
			b.Fatal(err)
		}
	}
}
