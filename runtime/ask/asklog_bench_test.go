package ask_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/regate/regate/runtime"
	"github.com/regate/regate/runtime/ask"
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

// BenchmarkReviewLogNested writes a review line whose call holds a 20 KB
// array nested 9,990 deep (runtime's BenchmarkDecisionLogNested logs the
// same input as a decision).
func BenchmarkReviewLogNested(b *testing.B) {
	l, err := runtime.OpenLog(b.TempDir(), ask.ReviewLogFile, 1000)
	if err != nil {
		b.Fatal(err)
	}
	defer l.Close()
	ev := ask.ReviewEvent{Call: map[string]any{"tool": "mcp", "input": nestedInput(b, 9990)}, Decision: runtime.Decision{Action: "ask"}}
	b.ReportAllocs()
	for b.Loop() {
		if err := l.Write(ev); err != nil {
			b.Fatal(err)
		}
	}
}
