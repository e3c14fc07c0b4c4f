package ask

import (
	"errors"
	"time"

	"github.com/regate/regate/compiler"
	"github.com/regate/regate/runtime"
)

// The ask path's log files, in the log folder.
const (
	ReviewLogFile = "permission-review.jsonl"
	DebugLogFile  = "debug.jsonl"
)

// AskLogs are the ask path's logs as the policy's knobs set them up: the
// review log (permissionReviewLog, on by default, every value bounded by
// reviewLogFieldMaxWidth) and the debug log (debugLog, opt-in, left
// unbounded because it exists to be read in full). Both mask values under
// sensitive keys and are owner-only. A log the policy turns off is nil,
// and a nil *Log writes nothing.
type AskLogs struct {
	Review, Debug *runtime.Log
}

// OpenAskLogs opens the logs k enables under dir. With a key (such as
// runtime.LogKey of the state folder's key file), every line carries a MAC
// for its file's name, so that regate suggest takes from the review log
// only the answers the host wrote (docs/self-protection.md); nil: unsigned.
func OpenAskLogs(dir string, k compiler.Knobs, key []byte) (AskLogs, error) {
	var logs AskLogs
	var err error
	if k.PermissionReviewLog {
		if logs.Review, err = runtime.OpenLog(dir, ReviewLogFile, k.ReviewLogFieldMaxWidth); err != nil {
			return AskLogs{}, err
		}
		if key != nil {
			logs.Review.SignWith(key, ReviewLogFile)
		}
	}
	if k.DebugLog {
		if logs.Debug, err = runtime.OpenLog(dir, DebugLogFile, 0); err != nil {
			logs.Close()
			return AskLogs{}, err
		}
		if key != nil {
			logs.Debug.SignWith(key, DebugLogFile)
		}
	}
	return logs, nil
}

// Close closes both logs.
func (l AskLogs) Close() error {
	return errors.Join(l.Review.Close(), l.Debug.Close())
}

// Answered records an ask's answer: a review line, and with the debug log
// on, the whole ask with its prompt facts.
func (l AskLogs) Answered(ask Ask, v Verdict, review any) error {
	err := LogReview(l.Review, ask, v, review)
	if l.Debug != nil {
		err = errors.Join(err, l.Debug.Write(map[string]any{
			"event": "ask", "call": ask.Call, "decision": ask.Decision, "session": ask.Session,
			"forwarded": ask.Forwarded, "runs": ask.Runs, "verdict": v, "review": review,
			"prompt": BuildPrompt(ask, "", 0, 0),
		}))
	}
	return err
}

// ReviewEvent is one line of the review log: the ask, where it went and
// how it was answered.
type ReviewEvent struct {
	Call     map[string]any   `json:"call"`
	Decision runtime.Decision `json:"decision"`
	Verdict  Verdict          `json:"verdict"`
	Review   any              `json:"review,omitempty"` // the reviewer's outcome, attempts, usage
	// Session is the session that asked, Time when it was answered (RFC
	// 3339, UTC): regate suggest's evidence names both.
	Session string `json:"session,omitempty"`
	Time    string `json:"time,omitempty"`
}

// LogValue is the event as encoding/json writes it, in plain values, so
// that the log walks the call's input instead of encoding it whole
// (runtime.LogValuer).
func (ev ReviewEvent) LogValue() any {
	m := map[string]any{"call": ev.Call, "decision": ev.Decision, "verdict": ev.Verdict}
	if ev.Session != "" {
		m["session"] = ev.Session
	}
	if ev.Time != "" {
		m["time"] = ev.Time
	}
	if ev.Call == nil {
		m["call"] = nil
	}
	if ev.Review != nil {
		m["review"] = ev.Review
	}
	return m
}

// LogReview writes an ask's answer to the review log (masked and bounded
// as every log line is).
func LogReview(l *runtime.Log, ask Ask, v Verdict, review any) error {
	return l.Write(ReviewEvent{
		Call:     map[string]any{"tool": ask.Call.Tool, "input": ask.Call.Input, "agent": ask.Call.Agent},
		Decision: ask.Decision, Verdict: v, Review: review,
		Session: ask.Session, Time: time.Now().UTC().Format(time.RFC3339),
	})
}
