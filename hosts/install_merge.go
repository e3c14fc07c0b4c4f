package hosts

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/tailscale/hujson"
)

// mergeHooks puts group into the settings' hooks.EVENT list for every event,
// after removing regate's earlier entries. The file is edited in place with
// JSON Patch operations on its hujson tree rather than decoded and encoded
// again, so the user's key order, layout and (jsonc) comments stay as they
// were. A document that is not an object, or whose hooks are not shaped as
// the host reads them, is refused rather than overwritten.
func mergeHooks(settings []byte, events []string, group object, jsonc bool) ([]byte, error) {
	if len(bytes.TrimSpace(settings)) == 0 {
		hooks := object{}
		for _, ev := range events {
			hooks = append(hooks, field{ev, []any{group}})
		}
		return marshalIndent(object{{"hooks", hooks}}, "")
	}
	tree, err := hujson.Parse(settings)
	if err != nil {
		return nil, fmt.Errorf("hosts: the settings are not JSON, so regate leaves them alone: %w", err)
	}
	if !jsonc && !tree.IsStandard() {
		return nil, fmt.Errorf("hosts: the settings hold comments or trailing commas, which this host does not read; regate leaves them alone")
	}
	plain := tree.Clone()
	plain.Standardize()
	var doc any
	if err := json.Unmarshal(plain.Pack(), &doc); err != nil {
		return nil, fmt.Errorf("hosts: the settings are not JSON, so regate leaves them alone: %w", err)
	}
	root, ok := doc.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("hosts: the settings are not a JSON object, so regate leaves them alone")
	}
	var ops []patchOp
	var added []insertion
	rawHooks, present := root["hooks"]
	hooks, ok := rawHooks.(map[string]any)
	switch {
	case !present:
		all := object{}
		for _, ev := range events {
			all = append(all, field{ev, []any{group}})
		}
		ops = append(ops, patchOp{Op: "add", Path: "/hooks", Value: indented(all, 1)})
		added = append(added, insertion{parent: "", member: "hooks", depth: 1})
	case !ok:
		return nil, fmt.Errorf("hosts: the settings' \"hooks\" is not an object, so regate leaves them alone")
	default:
		for _, ev := range events {
			evOps, at, err := eventOps(ev, hooks, group)
			if err != nil {
				return nil, err
			}
			ops = append(ops, evOps...)
			added = append(added, at)
		}
	}
	if err := tree.Patch(jsonPatch(ops)); err != nil {
		return nil, fmt.Errorf("hosts: cannot edit the settings: %w", err)
	}
	for _, at := range added {
		at.settle(&tree)
	}
	out := tree.Pack()
	if !bytes.HasSuffix(out, []byte("\n")) {
		out = append(out, '\n')
	}
	return out, nil
}

// eventOps are the operations that leave exactly one regate group, last, in
// hooks[event]. A group that holds regate's entry beside the user's own
// hooks keeps the user's.
func eventOps(event string, hooks map[string]any, group object) ([]patchOp, insertion, error) {
	path := "/hooks/" + pointerEscape(event)
	raw, present := hooks[event]
	if !present {
		return []patchOp{{Op: "add", Path: path, Value: indented([]any{group}, 2)}}, insertion{parent: "/hooks", member: event, depth: 2}, nil
	}
	list, ok := raw.([]any)
	if !ok {
		return nil, insertion{}, fmt.Errorf("hosts: the settings' hooks.%s is not a list, so regate leaves them alone", event)
	}
	var ops []patchOp
	// Remove from the end so that earlier indexes stay valid.
	for i := len(list) - 1; i >= 0; i-- {
		g, _ := list[i].(map[string]any)
		handlers, _ := g["hooks"].([]any)
		var ours []int
		for j, h := range handlers {
			if m, _ := h.(map[string]any); m != nil && IsRegateHandler(m) {
				ours = append(ours, j)
			}
		}
		switch {
		case len(ours) == 0:
		case len(ours) == len(handlers):
			ops = append(ops, patchOp{Op: "remove", Path: fmt.Sprintf("%s/%d", path, i)})
		default:
			for k := len(ours) - 1; k >= 0; k-- {
				ops = append(ops, patchOp{Op: "remove", Path: fmt.Sprintf("%s/%d/hooks/%d", path, i, ours[k])})
			}
		}
	}
	return append(ops, patchOp{Op: "add", Path: path + "/-", Value: indented(group, 3)}), insertion{parent: path, depth: 3}, nil
}

// An insertion is where the patch added a value: a member of the object at
// parent, or (no member) the last element of the array at parent.
type insertion struct {
	parent, member string
	depth          int
}

// settle puts an inserted value on a line of its own at its depth, and the
// closing bracket after it on the next line: hujson's Patch carries over
// comments but no line breaks.
func (at insertion) settle(tree *hujson.Value) {
	parent := tree.Find(at.parent)
	if parent == nil {
		return
	}
	lead := hujson.Extra("\n" + strings.Repeat("  ", at.depth))
	closing := hujson.Extra("\n" + strings.Repeat("  ", at.depth-1))
	switch comp := parent.Value.(type) {
	case *hujson.Array:
		if n := len(comp.Elements); n > 0 {
			comp.Elements[n-1].BeforeExtra = endLine(comp.Elements[n-1].BeforeExtra, lead)
		}
		comp.AfterExtra = endLine(comp.AfterExtra, closing)
	case *hujson.Object:
		for i := range comp.Members {
			m := &comp.Members[i]
			if name, ok := m.Name.Value.(hujson.Literal); !ok || name.String() != at.member {
				continue
			}
			m.Name.BeforeExtra = endLine(m.Name.BeforeExtra, lead)
			if len(m.Value.BeforeExtra) == 0 {
				m.Value.BeforeExtra = hujson.Extra(" ")
			}
		}
		comp.AfterExtra = endLine(comp.AfterExtra, closing)
	}
	tree.UpdateOffsets()
}

// endLine makes the white space before a value or a closing bracket end
// with newline (a line break and its indentation), keeping every comment.
func endLine(b hujson.Extra, newline hujson.Extra) hujson.Extra {
	i := bytes.LastIndexByte(b, '\n')
	if i >= 0 && len(bytes.TrimSpace(b[i+1:])) == 0 {
		b = b[:i]
	} else {
		b = bytes.TrimRight(b, " \t")
	}
	return append(append(hujson.Extra(nil), b...), newline...)
}

// A patchOp is one RFC 6902 operation.
type patchOp struct {
	Op, Path string
	// Value is the added value as laid-out JSON text.
	Value []byte
}

// jsonPatch writes ops as the patch hujson's Patch reads. It is written by
// hand because encoding/json would compact the values, and hujson keeps an
// added value's layout as it is in the patch.
func jsonPatch(ops []patchOp) []byte {
	var b bytes.Buffer
	b.WriteString("[")
	for i, op := range ops {
		if i > 0 {
			b.WriteString(",")
		}
		name, _ := json.Marshal(op.Op)
		path, _ := json.Marshal(op.Path)
		fmt.Fprintf(&b, `{"op": %s, "path": %s`, name, path)
		if op.Value != nil {
			b.WriteString(`, "value": `)
			b.Write(op.Value)
		}
		b.WriteString("}")
	}
	b.WriteString("]")
	return b.Bytes()
}

// indented is v as JSON laid out for depth levels of two-space indentation,
// which is how the hosts write their own settings. v is built from
// strings, numbers, maps and slices only, so it always encodes.
func indented(v any, depth int) []byte {
	b, _ := json.MarshalIndent(v, strings.Repeat("  ", depth), "  ")
	return b
}

// pointerEscape escapes a JSON Pointer reference token (RFC 6901).
func pointerEscape(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}
