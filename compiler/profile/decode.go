package profile

import (
	"bytes"
	"fmt"
	"slices"

	"github.com/regate/regate/compiler"
	"github.com/regate/regate/compiler/internal/ruledoc"
)

// decoder decodes one config file, collecting diagnostics.
type decoder struct {
	scope string
	name  string
	ruledoc.Diags
}

func (d *decoder) report(v *ruledoc.Node, code, format string, args ...any) {
	pos := compiler.Pos{File: d.name, Line: 1, Col: 1}
	if v != nil {
		pos = v.Pos
	}
	d.Errorf(pos, code, format, args...)
}

// unknown warns of a key the object does not take, where the key stands,
// with the key of known it most likely misspells: "modle" in a binding
// would otherwise leave the binding matching every model without a word.
// The key is kept and has no effect, as in the upstream extension, so this
// is a warning; code is the extension's code for the object.
func (d *decoder) unknown(m ruledoc.Member, code string, known []string, where string) {
	d.Unknown(m, code, known, where, "is kept and has no effect")
}

// knownKeys reports every member of obj whose key is not in known, and
// returns the members by key (the later of two equal keys wins, as in
// JSON.parse).
func (d *decoder) knownKeys(obj *ruledoc.Node, code string, known []string, where string) map[string]*ruledoc.Node {
	fields := map[string]*ruledoc.Node{}
	for _, m := range obj.Members {
		if !slices.Contains(known, m.Key) {
			d.unknown(m, code, known, where)
			continue
		}
		fields[m.Key] = m.Val
	}
	return fields
}

// decodeConfig reads one scope's config.json; src nil means no file. A file
// that is not JSON, not an object or not version 1 is inactive as a whole.
func decodeConfig(scope, name string, src []byte, diags *compiler.Errors) *scopeConfig {
	c := &scopeConfig{scope: scope, inherit: true, extends: map[string]string{}, badBase: map[string]bool{}}
	if src == nil {
		c.active = scope == Project // open question 6: a trusted project with no file is active and empty
		return c
	}
	src = bytes.TrimPrefix(src, []byte("\uFEFF"))
	d := &decoder{scope: scope, name: name}
	defer func() { *diags = append(*diags, d.List...) }()
	// Config files are JSON, as the upstream extension reads them with
	// JSON.parse: every member kept (the decoder gives repeats JSON.parse's
	// meaning), and a number past float64's range Infinity.
	var parse ruledoc.Diags
	root := ruledoc.Parse(name, src, ruledoc.Options{Dialect: ruledoc.JSON, KeepDuplicates: true, KeepHugeNumbers: true}, &parse)
	if root == nil {
		for _, e := range parse.List {
			d.Errorf(e.Pos, CodeConfigParse, "%s", e.Msg)
		}
		return c
	}
	if root.Kind != ruledoc.Object {
		d.report(root, CodeConfigShape, "the configuration must be an object")
		return c
	}
	members := map[string]*ruledoc.Node{}
	var order []string
	var unknown []ruledoc.Member
	for _, m := range root.Members {
		if !slices.Contains(configKeys, m.Key) {
			unknown = append(unknown, m)
			continue
		}
		if _, dup := members[m.Key]; !dup {
			order = append(order, m.Key)
		}
		members[m.Key] = m.Val // the later value wins, as in JSON.parse
	}
	if v := members["version"]; v == nil || !isNumber(v, 1) {
		d.report(orRoot(v, root), CodeConfigVersion, "version must be 1; the whole file is ignored")
		return c
	}
	c.active = true
	for _, m := range unknown {
		d.unknown(m, CodeConfigUnknown, configKeys, "")
	}
	for _, key := range order {
		v := members[key]
		switch key {
		case "$schema", "version":
			// $schema names the schema for editors (compiler/schema).
		case "selection":
			c.selection = d.selection(v)
			if c.selection != nil && c.selection.Profile != "" {
				c.uses = append(c.uses, refUse{c.selection.Profile, "the manual selection", v.Pos})
			}
		case "defaultProfile":
			if ref, ok := d.ref(v); ok {
				c.def = ref
				c.uses = append(c.uses, refUse{ref, "defaultProfile", v.Pos})
			} else {
				d.report(v, CodeConfigDefault, "defaultProfile is not a valid profile reference; it is ignored")
			}
		case "profiles":
			d.profiles(v, c)
		case "bindings":
			c.bindings = d.bindings(v)
			for _, b := range c.bindings {
				c.uses = append(c.uses, refUse{b.Ref, "binding " + b.ID, b.pos})
			}
		case "inheritGlobalBindings":
			b, isBool := v.Boolean()
			switch {
			case scope == Global:
				d.report(v, CodeConfigInherit, "inheritGlobalBindings is read only in the project file; here it has no effect")
			case !isBool:
				d.report(v, CodeConfigInherit, "inheritGlobalBindings must be true or false; it counts as true")
			default:
				c.inherit = b
			}
		case "subagents":
			s, _ := v.Text()
			if s == "off" || s == "bindings" || s == "inherit" {
				c.subagents = s
			} else {
				d.report(v, CodeConfigSubagents, "subagents must be off, bindings or inherit; it is ignored")
			}
		}
	}
	return c
}

func orRoot(v, root *ruledoc.Node) *ruledoc.Node {
	if v == nil {
		return root
	}
	return v
}

func (d *decoder) selection(v *ruledoc.Node) *Selection {
	if v.Kind == ruledoc.Object {
		fields := d.knownKeys(v, CodeConfigUnknown, selectionKeys, "selection")
		mode, _ := fields["mode"].Text()
		switch mode {
		case "auto", "off":
			return &Selection{Mode: mode}
		case "manual":
			if ref, ok := d.ref(fields["profile"]); ok {
				return &Selection{Mode: mode, Profile: ref}
			}
		}
	}
	d.report(v, CodeConfigSelection, "selection must be {mode: auto}, {mode: off} or {mode: manual, profile: REF}; it is ignored")
	return nil
}

// ref reads a profile reference in the decoder's scope.
func (d *decoder) ref(v *ruledoc.Node) (string, bool) {
	s, ok := v.Text()
	if !ok {
		return "", false
	}
	return ParseRef(s, d.scope)
}

func (d *decoder) profiles(v *ruledoc.Node, c *scopeConfig) {
	if v.Kind != ruledoc.Object {
		d.report(v, CodeConfigProfiles, "profiles must be an object of profile ids")
		return
	}
	for _, m := range v.Members {
		id := m.Key
		if !ValidID(id) {
			d.report(m.Val, CodeConfigProfileID, "profile id %q is not a safe id; its metadata is ignored", id)
			continue
		}
		if m.Val.Kind != ruledoc.Object {
			d.report(m.Val, CodeConfigProfileMeta, "the metadata of profile %q must be an object", id)
			continue
		}
		for _, f := range m.Val.Members {
			switch f.Key {
			case "extends":
				if ref, ok := d.ref(f.Val); ok {
					c.extends[id] = ref
				} else {
					// Open question 7: the base is not dropped silently; the
					// profile is invalid.
					c.badBase[id] = true
					d.report(f.Val, CodeConfigExtends, "extends of profile %q is not a valid profile reference; the profile is invalid", id)
				}
			case "description":
				if _, ok := f.Val.Text(); !ok {
					d.report(f.Val, CodeConfigDescription, "the description of profile %q must be a string", id)
				}
			default:
				d.unknown(f, CodeConfigProfileMeta, profileMetaKeys, fmt.Sprintf("the metadata of profile %q", id))
			}
		}
	}
}

func (d *decoder) bindings(v *ruledoc.Node) []Binding {
	if v.Kind != ruledoc.Array {
		d.report(v, CodeConfigBindings, "bindings must be a list; every binding is ignored")
		return nil
	}
	if len(v.Elems) > MaxBindings {
		d.report(v, CodeConfigBindings, "%d bindings: at most %d are read, so every binding is ignored", len(v.Elems), MaxBindings)
		return nil
	}
	var out []Binding
	for i, e := range v.Elems {
		if b, ok := d.binding(e, i); ok {
			out = append(out, b)
		}
	}
	return out
}

// binding reads one binding, flat ({provider, model, profile}) or with a
// match list; what is invalid drops the rule or the binding, never
// widening it.
func (d *decoder) binding(v *ruledoc.Node, index int) (Binding, bool) {
	if v.Kind != ruledoc.Object {
		d.report(v, CodeConfigBinding, "binding %d must be an object; it is dropped", index)
		return Binding{}, false
	}
	fields := d.knownKeys(v, CodeConfigUnknown, bindingKeys, fmt.Sprintf("binding #%d", index))
	b := Binding{ID: fmt.Sprintf("#%d", index)}
	if idv := fields["id"]; idv != nil {
		id, ok := idv.Text()
		if !ok || !ValidID(id) {
			d.report(idv, CodeConfigBindingID, "binding %d: the id is not a safe id; the binding is dropped", index)
			return Binding{}, false
		}
		b.ID = id
	}
	ref, ok := d.ref(fields["profile"])
	if !ok {
		d.report(orRoot(fields["profile"], v), CodeConfigBindingProfile, "binding %s: the profile is not a valid profile reference; the binding is dropped", b.ID)
		return Binding{}, false
	}
	b.Ref, b.pos = ref, fields["profile"].Pos
	if pv := fields["priority"]; pv != nil {
		if f, ok := pv.Float(); ok {
			b.Priority = f
		} else {
			d.report(pv, CodeConfigBindingPrio, "binding %s: priority must be a finite number; it counts as 0", b.ID)
		}
	}
	rules := []*ruledoc.Node{v} // a flat binding is its own one rule
	nested := false
	if mv := fields["match"]; mv != nil {
		nested = true
		if mv.Kind != ruledoc.Array || len(mv.Elems) == 0 {
			d.report(mv, CodeConfigBindingMatch, "binding %s: match must be a non-empty list of rules; the binding is dropped", b.ID)
			return Binding{}, false
		}
		rules = mv.Elems
	}
	for _, rv := range rules {
		if r, ok := d.rule(rv, b.ID, nested); ok {
			b.Rules = append(b.Rules, r)
		}
	}
	if len(b.Rules) == 0 {
		return Binding{}, false
	}
	return b, true
}

// rule reads provider and model: absent is "*", anything but a non-empty
// string drops the rule. A rule of a match list has no other key; a flat
// binding's other keys are the binding's, checked there.
func (d *decoder) rule(v *ruledoc.Node, binding string, nested bool) (Rule, bool) {
	if v.Kind != ruledoc.Object {
		d.report(v, CodeConfigBindingMatch, "binding %s: a rule must be an object; it is dropped", binding)
		return Rule{}, false
	}
	r := Rule{Provider: "*", Model: "*"}
	for _, m := range v.Members {
		var dst *string
		switch m.Key {
		case "provider":
			dst = &r.Provider
		case "model":
			dst = &r.Model
		default:
			if nested {
				d.unknown(m, CodeConfigUnknown, ruleKeys, "a match rule of binding "+binding)
			}
			continue
		}
		s, ok := m.Val.Text()
		if !ok || s == "" {
			d.report(m.Val, CodeConfigBindingMatch, "binding %s: provider and model must be non-empty strings; the rule is dropped", binding)
			return Rule{}, false
		}
		*dst = s
	}
	return r, true
}

func isNumber(v *ruledoc.Node, want float64) bool {
	f, ok := v.Float()
	return ok && f == want
}
