package suggest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/regate/regate/facts"
)

// maxLine bounds one log line; regate's logs bound their entries far below.
const maxLine = 16 << 20

// A Record is one call of the evidence: its call, the decision it got
// then, and, for an ask, its answer.
type Record struct {
	Call     facts.Call
	Decision Outcome
	// Answered is set for an ask of the review log; Approved when the answer
	// was allow.
	Answered, Approved bool
	Session, Time      string
}

// An Outcome is what a decision says of a call, as the logs keep it.
type Outcome struct {
	Action  string `json:"action"`
	Matched string `json:"matched"`
	Layer   string `json:"layer"`
	Surface string `json:"surface"`
	Value   string `json:"value"`
	Pos     string `json:"pos"`
}

// Verify checks one line of a log, such as its MAC (runtime.VerifyLine),
// and returns the line as it was before it was signed; false when the
// line is not one the log's writer wrote.
type Verify func(line []byte) ([]byte, bool)

// ReadReviews reads a review log (permission-review.jsonl). With verify, a
// line that does not verify is left out and listed in unverified, as
// name:line (docs/self-protection.md): an approval an agent appended is
// not evidence. A line that is not an answered ask is an error naming its
// file and line.
func ReadReviews(r io.Reader, name string, verify Verify) (out []Record, unverified []string, err error) {
	err = eachLine(r, name, func(line int, b []byte) error {
		if verify != nil {
			var ok bool
			if b, ok = verify(b); !ok {
				unverified = append(unverified, fmt.Sprintf("%s:%d", name, line))
				return nil
			}
		}
		var l struct {
			Call     *facts.Call `json:"call"`
			Decision *Outcome    `json:"decision"`
			Verdict  *struct {
				Action string `json:"action"`
			} `json:"verdict"`
			Session string `json:"session"`
			Time    string `json:"time"`
		}
		if err := json.Unmarshal(b, &l); err != nil {
			return fmt.Errorf("not a review-log line: %v", err)
		}
		if l.Call == nil || l.Decision == nil || l.Verdict == nil {
			return fmt.Errorf("the line is not an answered ask (call, decision and verdict)")
		}
		out = append(out, Record{Call: *l.Call, Decision: *l.Decision, Answered: true,
			Approved: l.Verdict.Action == "allow", Session: l.Session, Time: l.Time})
		return nil
	})
	return out, unverified, err
}

// ReadDecisions reads a decision log (decisions.jsonl): each call with the
// decision it got.
func ReadDecisions(r io.Reader, name string) ([]Record, error) {
	var out []Record
	err := eachLine(r, name, func(_ int, b []byte) error {
		var l struct {
			Input  *facts.Call `json:"input"`
			Result *Outcome    `json:"result"`
			Time   string      `json:"timestamp"`
		}
		if err := json.Unmarshal(b, &l); err != nil {
			return fmt.Errorf("not a decision-log line: %v", err)
		}
		if l.Input == nil || l.Result == nil || l.Result.Action == "" {
			return fmt.Errorf("the line has no call and decision")
		}
		out = append(out, Record{Call: *l.Input, Decision: *l.Result, Time: l.Time})
		return nil
	})
	return out, err
}

func eachLine(r io.Reader, name string, f func(int, []byte) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxLine)
	for line := 1; sc.Scan(); line++ {
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		if err := f(line, b); err != nil {
			return fmt.Errorf("%s:%d:1: %w", name, line, err)
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}
