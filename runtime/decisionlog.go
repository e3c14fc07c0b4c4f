package runtime

import (
	"crypto/rand"
	"encoding/hex"
	"time"

	"github.com/regate/regate/facts"
)

// DecisionLogFile is the file a DecisionLog writes in its folder.
const DecisionLogFile = "decisions.jsonl"

// DecisionLog writes one event per decision in OPA's decision-log shape
// (logs.EventV1: decision id, path, input, result, revision, timestamp,
// masked): the input is the tool call. Each event is one line of a Log:
// masked, bounded, and written whole or not at all.
//
// The event is decisionEvent, the fields of logs.EventV1 regate fills, and
// a test decodes every line with logs.EventV1 itself. Importing the logs
// plugin for its type would link 147 more packages (an OCI client,
// Prometheus) whose init costs every `regate hook` process about 8 ms.
type DecisionLog struct {
	file *Log
}

// OpenDecisionLog opens (or creates) dir/decisions.jsonl for appending.
func OpenDecisionLog(dir string, maxWidth int) (*DecisionLog, error) {
	l, err := OpenLog(dir, DecisionLogFile, maxWidth)
	if err != nil {
		return nil, err
	}
	return &DecisionLog{file: l}, nil
}

// Close closes the file.
func (l *DecisionLog) Close() error { return l.file.Close() }

// Log writes the event of one decision and returns its decision id. An
// error means the event is not in the log; the decision must then be
// treated as a fault (the host blocks).
func (l *DecisionLog) Log(call facts.Call, d Decision, revision string) (string, error) {
	return l.log(call, &d, revision, false)
}

// LogAbandoned writes the event of a call whose answer nobody received:
// the client left, or the request's deadline passed, before the decision
// was sent ("abandoned": true). d is the decision when one was reached,
// nil when none was (the event then has no result).
func (l *DecisionLog) LogAbandoned(call facts.Call, d *Decision, revision string) (string, error) {
	return l.log(call, d, revision, true)
}

func (l *DecisionLog) log(call facts.Call, d *Decision, revision string, abandoned bool) (string, error) {
	// The result is cleaned first: should the input spend the entry's
	// budget, the decision is still written whole.
	e := newEntry(l.file.maxWidth)
	var result any
	if d != nil {
		result = e.clean(*d, "/result")
	}
	input := e.clean(map[string]any{"tool": call.Tool, "input": call.Input, "agent": call.Agent}, "/input")
	id, err := NewDecisionID()
	if err != nil {
		return "", err
	}
	ev := decisionEvent{
		Labels:     map[string]string{"app": "regate"},
		DecisionID: id,
		Revision:   revision,
		Bundles:    map[string]bundleInfo{"regate": {Revision: revision}},
		Path:       "regate/lib/permission/decision",
		Input:      input,
		Result:     result,
		Masked:     e.masked,
		Timestamp:  l.file.now().UTC(),
		Abandoned:  abandoned,
	}
	return id, l.file.writeLine(ev)
}

// decisionEvent is the part of OPA's logs.EventV1 regate writes, with its
// JSON names.
type decisionEvent struct {
	Labels     map[string]string     `json:"labels"`
	DecisionID string                `json:"decision_id"`
	Revision   string                `json:"revision,omitempty"`
	Bundles    map[string]bundleInfo `json:"bundles,omitempty"`
	Path       string                `json:"path,omitempty"`
	Input      any                   `json:"input,omitempty"`
	Result     any                   `json:"result,omitempty"`
	Masked     []string              `json:"masked,omitempty"`
	Timestamp  time.Time             `json:"timestamp"`
	// Abandoned is regate's own: the host never received this decision.
	Abandoned bool `json:"abandoned,omitempty"`
}

type bundleInfo struct {
	Revision string `json:"revision,omitempty"`
}

// NewDecisionID returns a random version 4 UUID, as OPA's decision ids are.
func NewDecisionID() (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b[:])
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:], nil
}
