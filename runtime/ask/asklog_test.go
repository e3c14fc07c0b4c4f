package ask_test

import (
	"encoding/json"
	"testing"

	"github.com/regate/regate/runtime"
	"github.com/regate/regate/runtime/ask"
)

// TestReviewEventsEncodeAsTheType: a log walks a review event as the plain
// values LogValue gives; they must encode as encoding/json encodes the
// type, so that skipping the encoder changes no line.
func TestReviewEventsEncodeAsTheType(t *testing.T) {
	calls := []map[string]any{
		{"tool": "", "input": nil, "agent": ""},
		{"tool": "bash", "input": map[string]any{"command": "ls"}, "agent": ""},
		{"tool": "mcp", "input": map[string]any{}, "agent": "review"},
	}
	var events []ask.ReviewEvent
	for _, c := range calls {
		events = append(events,
			ask.ReviewEvent{Call: c, Decision: runtime.Decision{Action: "ask"}, Verdict: ask.Verdict{}},
			ask.ReviewEvent{Call: nil, Review: map[string]any{"attempts": 2}},
			ask.ReviewEvent{Call: c, Decision: runtime.Decision{Action: "ask", Surface: "bash"},
				Verdict: ask.Verdict{Action: "deny", Reason: "no", By: "terminal"}, Review: "x"})
	}
	for _, ev := range events {
		if _, ok := any(ev).(runtime.LogValuer); !ok {
			t.Fatal("a review event is not a runtime.LogValuer: the log would encode its input whole")
		}
		// As the log wrote it before it walked it: encoded, decoded and
		// encoded again (in key order).
		b, err := json.Marshal(ev)
		if err != nil {
			t.Fatal(err)
		}
		var plain any
		if err := json.Unmarshal(b, &plain); err != nil {
			t.Fatal(err)
		}
		want, _ := json.Marshal(plain)
		got, err := json.Marshal(runtime.Masked(ev))
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Errorf("logged as %s; encoding/json writes %s", got, want)
		}
	}
}
