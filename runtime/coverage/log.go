package coverage

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
)

// maxLogLine bounds one decision-log line; the runtime's log writes far
// shorter ones (runtime.DecisionLog bounds its entries).
const maxLogLine = 16 << 20

// logLine is what coverage reads of one decision-log line (runtime's
// DecisionLog, OPA's decision-log shape).
type logLine struct {
	Path  string `json:"path"`
	Input struct {
		Agent string `json:"agent"`
	} `json:"input"`
	Result *struct {
		Layer   string `json:"layer"`
		Pos     string `json:"pos"`
		Surface string `json:"surface"`
		Value   string `json:"value"`
	} `json:"result"`
}

// ReadLog reads a decision log (JSON Lines, as regate writes it to
// decisions.jsonl) and hands each decision to add, in order. name
// positions the errors: a line that is not a decision is an error naming
// its file and line, never skipped in silence, since coverage that left a
// decision out would be wrong without saying so. Blank lines are allowed.
func ReadLog(r io.Reader, name string, add func(Observation)) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxLogLine)
	for line := 1; sc.Scan(); line++ {
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		var l logLine
		if err := json.Unmarshal(b, &l); err != nil {
			return fmt.Errorf("%s:%d:1: not a decision-log line: %v", name, line, err)
		}
		if l.Result == nil || l.Result.Layer == "" {
			return fmt.Errorf("%s:%d:1: the line has no decision (no result with a layer)", name, line)
		}
		if l.Path != "" && l.Path != "regate/lib/permission/decision" {
			return fmt.Errorf("%s:%d:1: the line is a decision of %s, not a permission decision", name, line, l.Path)
		}
		add(Observation{Layer: l.Result.Layer, Pos: l.Result.Pos, Surface: l.Result.Surface, Agent: l.Input.Agent,
			Values: []string{l.Result.Value}})
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}
