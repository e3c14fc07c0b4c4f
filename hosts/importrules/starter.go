package importrules

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/tailscale/hujson"
)

// A Starter is the rule files init writes: the bundled starter policy and
// hard guards with the imported rules in them, and every change made to
// the starter's own rules.
type Starter struct {
	Policy, HardGuards []byte
	Changes            []string
}

// SchemaBase is where the rule files' JSON Schemas are published; a
// starter file's "$schema" names its schema there, since the repository's
// relative path means nothing beside a user's own file.
const SchemaBase = "https://raw.githubusercontent.com/regate/regate/main/compiler/schema/"

// Apply writes the imported rules of res into the starter policy and hard
// guards (JSONC; comments and layout are kept, and each imported rule is
// written under a comment naming where it came from). A pattern the
// starter already has takes the imported action: the user's own rule wins,
// and of two imported rules for one pattern the stricter. A starter allow
// that an imported ask covers and that regate would let win over it (it is
// more specific) is taken out, so the call asks as it did in the host.
func Apply(policy, hardGuards []byte, res Result) (Starter, error) {
	var st Starter
	pol, err := newRuleFile("policy.jsonc", policy, "policy.schema.json")
	if err != nil {
		return st, err
	}
	hg, err := newRuleFile("hard-guards.jsonc", hardGuards, "hard-guards.schema.json")
	if err != nil {
		return st, err
	}
	imported := map[string]Action{} // file/surface/pattern → the action written
	for _, r := range res.Imported() {
		commented := map[string]bool{} // one comment per rule and map
		for _, t := range r.Targets {
			f := pol
			if t.HardGuard {
				f = hg
			}
			k := t.File() + "\x00" + t.Surface + "\x00" + t.Pattern
			if prev, ok := imported[k]; ok && stricter(prev, t.Action) {
				continue
			}
			imported[k] = t.Action
			comment := ""
			if m := t.File() + "\x00" + t.Surface; !commented[m] {
				commented[m] = true
				comment = fmt.Sprintf("%s: %s", r.From, r.Text)
			}
			if change := f.set(t, comment); change != "" {
				st.Changes = append(st.Changes, change)
			}
		}
	}
	for _, r := range res.Imported() {
		for _, t := range r.Targets {
			if t.Action == Ask {
				st.Changes = append(st.Changes, pol.dropCoveredAllows(t, r, imported, res.home)...)
			}
		}
	}
	st.Policy, st.HardGuards = pol.pack(), hg.pack()
	return st, nil
}

// stricter reports whether a restricts at least as much as b.
func stricter(a, b Action) bool { return !b.Stricter(a) }

// A ruleFile is a JSONC rule file being edited.
type ruleFile struct {
	name string
	tree hujson.Value
	perm *hujson.Object
}

func newRuleFile(name string, src []byte, schema string) (*ruleFile, error) {
	tree, err := hujson.Parse(src)
	if err != nil {
		return nil, fmt.Errorf("importrules: the starter %s: %w", name, err)
	}
	f := &ruleFile{name: name, tree: tree}
	if v := tree.Find("/$schema"); v != nil {
		v.Value = hujson.String(SchemaBase + schema)
	}
	p := tree.Find("/permission")
	if p == nil {
		return nil, fmt.Errorf("importrules: the starter %s has no permission map", name)
	}
	perm, ok := p.Value.(*hujson.Object)
	if !ok {
		return nil, fmt.Errorf("importrules: the starter %s's permission is not an object", name)
	}
	f.perm = perm
	return f, nil
}

func (f *ruleFile) pack() []byte {
	f.tree.UpdateOffsets()
	return f.tree.Pack()
}

// indent is the white space before the members of o, from its first
// member (or the fallback when it has none).
func indent(o *hujson.Object, fallback string) string {
	if len(o.Members) == 0 {
		return fallback
	}
	b := string(o.Members[0].Name.BeforeExtra)
	if i := strings.LastIndexByte(b, '\n'); i >= 0 {
		return b[i+1:]
	}
	return fallback
}

// member is an object member parsed from text, laid out at ind, with a
// comment line above it.
func member(ind, comment, key, value string) (hujson.ObjectMember, error) {
	k, _ := json.Marshal(key)
	c := ""
	if comment != "" {
		c = "\n" + ind + "// " + strings.ReplaceAll(comment, "\n", " ")
	}
	obj, err := hujson.Parse([]byte("{" + c + "\n" + ind + string(k) + ": " + value + "}"))
	if err != nil {
		return hujson.ObjectMember{}, err
	}
	return obj.Value.(*hujson.Object).Members[0], nil
}

// ruleValue is the JSON a target is written as: its action, or a deny
// object with its reason, laid out as the bundled policies write one.
func ruleValue(t Target) string {
	if t.Action == Deny && t.Reason != "" {
		reason, _ := json.Marshal(t.Reason)
		return `{ "action": "deny", "reason": ` + string(reason) + ` }`
	}
	return `"` + string(t.Action) + `"`
}

// set writes the target's pattern into its surface's map, under comment,
// and returns what it changed of the starter's own rules ("" for none).
func (f *ruleFile) set(t Target, comment string) string {
	surfInd := indent(f.perm, "    ")
	surf := findMember(f.perm, t.Surface)
	if surf == nil {
		obj, _ := hujson.Parse([]byte("{}"))
		m, _ := member(surfInd, "", t.Surface, "{}")
		m.Value = obj
		m.Value.BeforeExtra = hujson.Extra(" ")
		f.perm.Members = append(f.perm.Members, m)
		surf = &f.perm.Members[len(f.perm.Members)-1]
	}
	if lit, ok := surf.Value.Value.(hujson.Literal); ok {
		// "read": "allow" is {"*": "allow"}.
		obj, _ := hujson.Parse([]byte(fmt.Sprintf("{\n%s  \"*\": %s\n%s}", surfInd, string(lit), surfInd)))
		surf.Value.Value = obj.Value
	}
	obj, ok := surf.Value.Value.(*hujson.Object)
	if !ok {
		return ""
	}
	ind := indent(obj, surfInd+"  ")
	m, err := member(ind, comment, t.Pattern, ruleValue(t))
	if err != nil {
		return ""
	}
	if len(obj.Members) == 0 {
		obj.AfterExtra = hujson.Extra("\n" + surfInd)
	}
	if old := findMember(obj, t.Pattern); old != nil {
		was := actionOf(old.Value.Value)
		old.Name.BeforeExtra = m.Name.BeforeExtra
		old.Value.Value = m.Value.Value
		if was == t.Action {
			return ""
		}
		return fmt.Sprintf("%s %s %q: the imported %s replaces the starter's %s", f.name, t.Surface, t.Pattern, t.Action, was)
	}
	obj.Members = append(obj.Members, m)
	return ""
}

// dropCoveredAllows takes out the starter's allows on ask's surface that
// overlap the imported ask and are at least as specific, which regate
// would let win where the host asks.
func (f *ruleFile) dropCoveredAllows(ask Target, from Rule, imported map[string]Action, home string) []string {
	surf := findMember(f.perm, ask.Surface)
	if surf == nil {
		return nil
	}
	obj, ok := surf.Value.Value.(*hujson.Object)
	if !ok {
		return nil
	}
	var changes []string
	kept := obj.Members[:0]
	for _, m := range obj.Members {
		key := m.Name.Value.(hujson.Literal).String()
		lit, isLit := m.Value.Value.(hujson.Literal)
		_, mine := imported[f.name+"\x00"+ask.Surface+"\x00"+key]
		if isLit && lit.String() == "allow" && !mine && key != ask.Pattern &&
			overlaps(ask.Surface, key, ask.Pattern, home) && rankOf(key, home).atLeastAsSpecific(rankOf(ask.Pattern, home)) {
			changes = append(changes, fmt.Sprintf("%s %s %q: allow is taken out of the starter: the imported ask %s (%s) covers it, and regate would let the more specific allow win", f.name, ask.Surface, key, from.Text, from.From))
			continue
		}
		kept = append(kept, m)
	}
	obj.Members = kept
	return changes
}

// actionOf is the action of a rule value: a string, or a deny object.
func actionOf(v hujson.ValueTrimmed) Action {
	switch v := v.(type) {
	case hujson.Literal:
		return Action(v.String())
	case *hujson.Object:
		if a := findMember(v, "action"); a != nil {
			if lit, ok := a.Value.Value.(hujson.Literal); ok {
				return Action(lit.String())
			}
		}
	}
	return ""
}

func findMember(o *hujson.Object, key string) *hujson.ObjectMember {
	for i := range o.Members {
		if lit, ok := o.Members[i].Name.Value.(hujson.Literal); ok && lit.String() == key {
			return &o.Members[i]
		}
	}
	return nil
}

// DropExamples takes the inline examples written at the given positions
// (line and column of the example's "{") out of a policy, and returns how
// many it took out. The starter's examples describe the starter: an
// imported rule may rightly decide one of their calls otherwise.
func DropExamples(src []byte, at []Pos) ([]byte, int, error) {
	tree, err := hujson.Parse(src)
	if err != nil {
		return src, 0, err
	}
	v := tree.Find("/examples")
	if v == nil {
		return src, 0, nil
	}
	arr, ok := v.Value.(*hujson.Array)
	if !ok {
		return src, 0, nil
	}
	drop := map[[2]int]bool{}
	for _, p := range at {
		drop[[2]int{p.Line, p.Col}] = true
	}
	kept := arr.Elements[:0]
	n := 0
	for _, el := range arr.Elements {
		p := posAt("", src, el.StartOffset)
		if drop[[2]int{p.Line, p.Col}] {
			n++
			continue
		}
		kept = append(kept, el)
	}
	arr.Elements = kept
	tree.UpdateOffsets()
	return tree.Pack(), n, nil
}
