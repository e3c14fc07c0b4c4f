package runtime

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/regate/regate/facts"
	"github.com/regate/regate/internal/printable"
)

// Limits on one log entry. A tool input is the host's to shape, so an entry
// is bounded whatever it holds: a value nested deeper than MaxLogDepth is
// written as TooDeep, and once an entry holds MaxLogEntryBytes of keys and
// values, the rest is cut and marked OverBudget. Writing an entry then
// costs a small multiple of what it writes, never of how its input nests
// (a 20 KB array nested 10,000 deep used to cost 107 MB: every level built
// the JSON pointer of its path afresh).
const (
	MaxLogDepth      = 64
	MaxLogEntryBytes = 1 << 20
)

// The markers that replace what an entry leaves out (their numbers are
// the limits above; a test holds them equal).
const (
	TooDeep    = "[truncated: nested deeper than 64]"
	OverBudget = "[truncated: the entry is over 1048576 bytes]"
)

// sensitiveKeys are the key names whose values are masked before anything
// is written, matched case-insensitively (the spec's "Log file
// sensitivity").
var sensitiveKeys = map[string]bool{
	"authorization": true, "token": true, "secret": true, "password": true, "credential": true,
	"cookie": true, "api_key": true, "private_key": true,
}

// Redacted replaces a masked value.
const Redacted = "[redacted]"

// entry cleans the values of one log entry: it masks values under sensitive
// keys (recording their JSON pointers), bounds every string to maxWidth
// runes, and holds the entry to MaxLogDepth and MaxLogEntryBytes. One entry
// is one budget, shared by every value cleaned through it.
type entry struct {
	maxWidth int
	left     int       // bytes of the budget not yet spent
	root     string    // the JSON pointer of the value being cleaned
	path     []segment // where the walk is below root
	masked   []string
}

// segment is one step of a path: a key, or an index when key is unset.
type segment struct {
	key   string
	index int
	isKey bool
}

func newEntry(maxWidth int) *entry {
	return &entry{maxWidth: maxWidth, left: MaxLogEntryBytes}
}

// clean returns v cleaned; root is v's JSON pointer in the entry. A value
// that is not plain JSON (a struct, a typed slice) is converted first.
func (e *entry) clean(v any, root string) any {
	e.root, e.path = root, e.path[:0]
	return e.value(v)
}

func (e *entry) value(v any) any {
	if len(e.path) > MaxLogDepth {
		return TooDeep
	}
	if e.left <= 0 {
		return OverBudget
	}
	switch v := v.(type) {
	case nil, bool, float64, json.Number:
		e.left -= 8
		return v
	case string:
		return e.str(v)
	case map[string]any:
		out := make(map[string]any, min(len(v), e.left))
		for _, k := range slices.Sorted(maps.Keys(v)) {
			if e.left <= 0 {
				out[k] = OverBudget // what follows is left out
				break
			}
			e.left -= len(k) + 4
			if sensitiveKeys[strings.ToLower(k)] {
				out[k] = Redacted
				e.masked = append(e.masked, e.pointer(segment{key: k, isKey: true}))
				continue
			}
			e.path = append(e.path, segment{key: k, isKey: true})
			out[k] = e.value(v[k])
			e.path = e.path[:len(e.path)-1]
		}
		return out
	case []any:
		out := make([]any, 0, min(len(v), e.left))
		for i, x := range v {
			if e.left <= 0 {
				out = append(out, OverBudget)
				break
			}
			e.left--
			e.path = append(e.path, segment{index: i})
			out = append(out, e.value(x))
			e.path = e.path[:len(e.path)-1]
		}
		return out
	case facts.Call:
		return e.value(callValue(v))
	case LogValuer:
		return e.value(v.LogValue())
	}
	// Anything else is encoded and decoded token by token: a deep value
	// costs its size, not its depth squared. The log's own types are walked
	// above instead, so that a call's input is never encoded whole.
	b, err := json.Marshal(v)
	if err != nil {
		e.left -= len(err.Error())
		return "[unencodable: " + err.Error() + "]"
	}
	return e.value(decodeBounded(b, MaxLogDepth+1-len(e.path)))
}

// A LogValuer is a log entry type that gives its JSON as plain values
// (maps, slices, strings…), the same JSON encoding/json would write, so
// that a Log walks them instead of encoding the entry whole (package ask's
// review events, whose call input can nest deep).
type LogValuer interface{ LogValue() any }

// Masked returns v as a Log that leaves values whole writes it: values
// under sensitive keys masked, the whole held to MaxLogDepth and
// MaxLogEntryBytes. A permission prompt's input preview is masked so.
func Masked(v any) any { return newEntry(0).clean(v, "") }

// callValue is a call as plain values, as encoding/json writes facts.Call.
func callValue(c facts.Call) map[string]any {
	m := map[string]any{"tool": c.Tool, "input": c.Input}
	if c.Input == nil {
		m["input"] = nil
	}
	if len(c.Registered) > 0 {
		reg := make([]any, len(c.Registered))
		for i, r := range c.Registered {
			reg[i] = r
		}
		m["registered"] = reg
	}
	if c.Agent != "" {
		m["agent"] = c.Agent
	}
	return m
}

// str bounds s to maxWidth runes, and to what is left of the budget.
func (e *entry) str(s string) string {
	s = printable.Shorten(s, e.maxWidth)
	if len(s) > e.left {
		cut := e.left
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "…" + OverBudget
	}
	e.left -= len(s) + 2
	return s
}

// pointer is the JSON pointer of the current path followed by last, built
// only for a masked value.
func (e *entry) pointer(last segment) string {
	var b strings.Builder
	b.WriteString(e.root)
	for _, s := range append(e.path, last) {
		b.WriteByte('/')
		if s.isKey {
			b.WriteString(pointerEscaper.Replace(s.key))
		} else {
			b.WriteString(strconv.Itoa(s.index))
		}
	}
	return b.String()
}

var pointerEscaper = strings.NewReplacer("~", "~0", "/", "~1")

// decodeBounded decodes JSON into plain values as json.Unmarshal does,
// numbers as json.Number, without building anything nested deeper than
// depth (TooDeep stands in) or past MaxLogEntryBytes of strings and keys
// (OverBudget stands in, and the rest is not read). It reads tokens, so no
// depth is too deep for it; the input comes from json.Marshal, so a syntax
// error is a fault of the encoder and stands in as a marker too.
func decodeBounded(b []byte, depth int) any {
	d := &boundedDecoder{dec: json.NewDecoder(bytes.NewReader(b)), left: MaxLogEntryBytes}
	d.dec.UseNumber()
	v, _ := d.value(depth)
	return v
}

type boundedDecoder struct {
	dec  *json.Decoder
	left int
}

// errStop ends a decode that has spent its budget.
var errStop = errors.New("stop")

func (d *boundedDecoder) value(depth int) (any, error) {
	tok, err := d.dec.Token()
	if err != nil {
		return "[undecodable: " + err.Error() + "]", err
	}
	delim, ok := tok.(json.Delim)
	if !ok {
		d.left -= 8 // as entry.value counts a scalar
		if s, ok := tok.(string); ok {
			d.left -= len(s)
		}
		return tok, nil
	}
	if depth <= 0 {
		return TooDeep, d.skip(1)
	}
	if delim == '[' {
		out := []any{}
		for d.dec.More() {
			if d.left <= 0 {
				return append(out, OverBudget), errStop
			}
			d.left--
			v, err := d.value(depth - 1)
			out = append(out, v)
			if err != nil {
				return out, err
			}
		}
		_, err := d.dec.Token()
		return out, err
	}
	out := map[string]any{}
	for d.dec.More() {
		tok, err := d.dec.Token()
		if err != nil {
			return out, err
		}
		k, _ := tok.(string)
		if d.left <= 0 {
			out[k] = OverBudget
			return out, errStop
		}
		d.left -= len(k) + 4
		v, err := d.value(depth - 1)
		out[k] = v
		if err != nil {
			return out, err
		}
	}
	_, err = d.dec.Token()
	return out, err
}

// skip reads past the rest of a value whose opening delimiter was read,
// open levels deep.
func (d *boundedDecoder) skip(open int) error {
	for open > 0 {
		tok, err := d.dec.Token()
		if err == io.EOF {
			return io.ErrUnexpectedEOF
		}
		if err != nil {
			return err
		}
		if delim, ok := tok.(json.Delim); ok {
			if delim == '[' || delim == '{' {
				open++
			} else {
				open--
			}
		}
	}
	return nil
}
