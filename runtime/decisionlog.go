package runtime

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/regate/regate/facts"
)

// DecisionLogFile is the file a DecisionLog writes in its folder.
const DecisionLogFile = "decisions.jsonl"

// sensitiveKeys are the key names whose values are masked before anything
// is written, matched case-insensitively (the spec's "Log file
// sensitivity").
var sensitiveKeys = map[string]bool{
	"authorization": true, "token": true, "secret": true, "password": true, "credential": true,
	"cookie": true, "api_key": true, "private_key": true,
}

// Redacted replaces a masked value.
const Redacted = "[redacted]"

// Log is a JSON Lines file only its owner can read (0600 in a 0700
// folder, both tightened when an earlier run left them looser), whose
// every value under a sensitive key is masked and every string bounded
// (the spec's "Log file sensitivity"). It is safe for concurrent use.
type Log struct {
	mu       sync.Mutex
	f        *os.File
	maxWidth int
	now      func() time.Time
}

// OpenLog opens (or creates) dir/name for appending. maxWidth bounds every
// string value in runes; 0 leaves values whole.
func OpenLog(dir, name string, maxWidth int) (*Log, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("runtime: log: %w", err)
	}
	if err := os.Chmod(dir, 0o700); err != nil {
		return nil, fmt.Errorf("runtime: log: %w", err)
	}
	f, err := os.OpenFile(filepath.Join(dir, name), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		return nil, fmt.Errorf("runtime: log: %w", err)
	}
	if err := f.Chmod(0o600); err != nil {
		f.Close()
		return nil, fmt.Errorf("runtime: log: %w", err)
	}
	return &Log{f: f, maxWidth: maxWidth, now: time.Now}, nil
}

// Close closes the file. A nil Log (a log the policy turned off) has
// nothing to close.
func (l *Log) Close() error {
	if l == nil {
		return nil
	}
	return l.f.Close()
}

// Write writes v (any JSON value) as one line, masked and bounded. A nil
// Log writes nothing.
func (l *Log) Write(v any) error {
	if l == nil {
		return nil
	}
	var masked []string
	var plain any
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, &plain); err != nil {
		return err
	}
	return l.writeLine(l.clean(plain, "", &masked))
}

func (l *Log) writeLine(v any) error {
	line, err := json.Marshal(v)
	if err != nil {
		return err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	_, err = l.f.Write(append(line, '\n'))
	return err
}

// DecisionLog writes one event per decision in OPA's decision-log shape
// (logs.EventV1: decision id, path, input, result, revision, timestamp,
// masked): the input is the tool call.
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

// Log writes the event of one decision and returns its decision id.
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
	var masked []string
	input := l.file.clean(map[string]any{"tool": call.Tool, "input": call.Input, "agent": call.Agent}, "/input", &masked)
	var result any
	if d != nil {
		b, err := json.Marshal(d)
		if err != nil {
			return "", err
		}
		if err := json.Unmarshal(b, &result); err != nil {
			return "", err
		}
		result = l.file.clean(result, "/result", &masked)
	}
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
		Masked:     masked,
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

// clean masks values under sensitive keys (recording their JSON pointers)
// and bounds every string.
func (l *Log) clean(v any, path string, masked *[]string) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, x := range v {
			p := path + "/" + strings.NewReplacer("~", "~0", "/", "~1").Replace(k)
			if sensitiveKeys[strings.ToLower(k)] {
				out[k] = Redacted
				*masked = append(*masked, p)
				continue
			}
			out[k] = l.clean(x, p, masked)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = l.clean(x, fmt.Sprintf("%s/%d", path, i), masked)
		}
		return out
	case string:
		return bound(v, l.maxWidth)
	}
	return v
}

// bound shortens s to max runes, the last of them an ellipsis.
func bound(s string, max int) string {
	if max <= 0 || utf8.RuneCountInString(s) <= max {
		return s
	}
	runes := []rune(s)
	return string(runes[:max-1]) + "…"
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
