package sessiontrace

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"github.com/regate/regate/compiler/action"
	"github.com/regate/regate/runtime"
	"github.com/regate/regate/runtime/ask"
)

// Logs decides the trace with e, as a session would, and returns its calls
// (JSON Lines, as regate decide and diff read them) and the review log the
// session leaves: one line per ask, answered as the trace says, in
// runtime/ask's ReviewEvent shape, at a made-up but steady time.
func Logs(ctx context.Context, e *runtime.Engine, trace []Entry) (calls, reviews []byte, err error) {
	var c, r bytes.Buffer
	cenc, renc := json.NewEncoder(&c), json.NewEncoder(&r)
	cenc.SetEscapeHTML(false)
	renc.SetEscapeHTML(false)
	for i, entry := range trace {
		if err := cenc.Encode(entry.Call); err != nil {
			return nil, nil, err
		}
		d, err := e.Decide(ctx, entry.Call)
		if err != nil {
			return nil, nil, err
		}
		if d.Action != action.Ask {
			continue
		}
		v := ask.Verdict{Action: "allow", Reason: "approved once by the user", By: "terminal"}
		if entry.Answer != "approve" {
			v = ask.Verdict{Action: "deny", Reason: "rejected by the user", By: "terminal"}
		}
		ev := ask.ReviewEvent{
			Call:     map[string]any{"tool": entry.Call.Tool, "input": entry.Call.Input},
			Decision: d, Verdict: v, Session: entry.Session,
			Time: fmt.Sprintf("2026-12-01T%02d:%02d:%02dZ", 8+i/300, (i/5)%60, i%60),
		}
		if err := renc.Encode(ev); err != nil {
			return nil, nil, err
		}
	}
	return c.Bytes(), r.Bytes(), nil
}
