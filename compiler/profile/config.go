package profile

import (
	"bytes"
	"fmt"
	"math"
	"slices"

	"github.com/regate/regate/compiler"
	"github.com/tailscale/hujson"
)

// Diagnostic codes: the upstream extension's (pi-prompt-profiles), which
// hosts and the conformance cases know; docs/profiles.md lists them.
const (
	CodeConfigParse          = "config-parse"
	CodeConfigShape          = "config-shape"
	CodeConfigVersion        = "config-version"
	CodeConfigSelection      = "config-selection"
	CodeConfigDefault        = "config-default"
	CodeConfigProfiles       = "config-profiles"
	CodeConfigProfileID      = "config-profile-id"
	CodeConfigProfileMeta    = "config-profile-meta"
	CodeConfigExtends        = "config-extends"
	CodeConfigDescription    = "config-description"
	CodeConfigBindings       = "config-bindings"
	CodeConfigBinding        = "config-binding"
	CodeConfigBindingID      = "config-binding-id"
	CodeConfigBindingProfile = "config-binding-profile"
	CodeConfigBindingMatch   = "config-binding-match"
	CodeConfigBindingPrio    = "config-binding-priority"
	CodeConfigInherit        = "config-inherit"
	CodeConfigSubagents      = "config-subagents"
	CodeConfigUnknown        = "config-unknown"
	CodeProfileID            = "profile-id"
	CodeProfileSymlink       = "profile-symlink"
	CodeProfileMarker        = "profile-marker"
	CodeProfileTooLarge      = "profile-too-large"
	CodeProfileCycle         = "profile-cycle"
	CodeProfileDepth         = "profile-depth"
	CodeProfileMissing       = "profile-missing"
	CodeProfileTotalSize     = "profile-total-size"
	CodeProfileExtends       = "profile-extends"
	CodeBindingConflict      = "binding-conflict"
	CodeAutoNoModel          = "auto-no-model"
	CodeAutoNone             = "auto-none"
)

// Diagnostic codes of reading a config folder from disk (ReadFolder) that
// the extension's list of config and profile codes lacks: profiles-dir is the upstream extension's own
// (src/core/profiles.ts); the two -unreadable codes are regate's. Stable
// like the others, and documented in docs/profiles.md.
const (
	// CodeProfilesDir: the profiles folder exists but cannot be listed (not
	// a folder, no permission, more than MaxFolderEntries entries); none
	// of its profiles is read.
	CodeProfilesDir = "profiles-dir"
	// CodeProfileUnreadable: an entry named <id>.md that is not a regular
	// file (a folder, a FIFO, a device, a socket) or cannot be read; it is
	// skipped.
	CodeProfileUnreadable = "profile-unreadable"
	// CodeConfigUnreadable: config.json exists but is not a regular file
	// or cannot be read; the file counts as invalid (config-parse alike).
	CodeConfigUnreadable = "config-unreadable"
)

// The keys each object of config.json takes, listed once: the decoder
// reports any other key against them, and compiler/schema's tests hold
// profile-config.schema.json to them (KeyLists).
var (
	configKeys = []string{
		"$schema", "bindings", "defaultProfile", "inheritGlobalBindings", "profiles", "selection", "subagents", "version",
	}
	selectionKeys   = []string{"mode", "profile"}
	profileMetaKeys = []string{"description", "extends"}
	bindingKeys     = []string{"id", "match", "model", "priority", "profile", "provider"}
	ruleKeys        = []string{"model", "provider"}
)

// KeyLists returns the keys each object of config.json takes, by a path
// whose "*" stands for any map key or list element: "config",
// "config/selection", "config/profiles/*", "config/bindings/*",
// "config/bindings/*/match/*". Each list is a sorted copy.
func KeyLists() map[string][]string {
	lists := map[string][]string{
		"config":                    configKeys,
		"config/selection":          selectionKeys,
		"config/profiles/*":         profileMetaKeys,
		"config/bindings/*":         bindingKeys,
		"config/bindings/*/match/*": ruleKeys,
	}
	out := make(map[string][]string, len(lists))
	for k, v := range lists {
		out[k] = slices.Sorted(slices.Values(v))
	}
	return out
}

// MaxBindings bounds a file's bindings; past it every binding is ignored.
const MaxBindings = 200

// Selection is a stored selection: mode auto, off or manual, and for
// manual the profile, as a normalized reference.
type Selection struct {
	Mode    string `json:"mode"`
	Profile string `json:"profile,omitempty"`
}

// Binding binds models to a profile. A binding applies when any of its
// rules matches the model; Ref is the profile, normalized in the binding's
// scope.
type Binding struct {
	ID       string  `json:"id"`
	Ref      string  `json:"ref"`
	Priority float64 `json:"priority"`
	Rules    []Rule  `json:"rules"`
}

// Rule matches a model: provider and model are both patterns where "*"
// matches any run of characters; a missing field is "*".
type Rule struct {
	Provider string `json:"provider"`
	Model    string `json:"model"`
}

// Specificity is 3 for exact provider and exact model, 2 for a wildcard
// provider and exact model, 1 for exact provider and wildcard model, 0 for
// both wildcards. A field with any "*" is a wildcard.
func (r Rule) Specificity() int {
	exactProvider, exactModel := !containsStar(r.Provider), !containsStar(r.Model)
	switch {
	case exactProvider && exactModel:
		return 3
	case exactModel:
		return 2
	case exactProvider:
		return 1
	}
	return 0
}

func containsStar(s string) bool { return bytes.IndexByte([]byte(s), '*') >= 0 }

// scopeConfig is one scope's config.json as decoded: what survives of it.
type scopeConfig struct {
	scope     string
	active    bool // the file was read, is an object and has version 1
	selection *Selection
	def       string            // the default profile, normalized; "" none
	extends   map[string]string // profile id → its base, normalized
	badBase   map[string]bool   // profile ids whose extends is not a valid reference
	bindings  []Binding         // in file order
	inherit   bool              // project only: inheritGlobalBindings
	subagents string            // "off", "bindings", "inherit" or ""
}

// decoder decodes one config file, collecting diagnostics.
type decoder struct {
	scope string
	name  string
	doc   *compiler.Document
	diags *compiler.Errors
}

func (d *decoder) report(v *hujson.Value, code, format string, args ...any) {
	pos := compiler.Pos{File: d.name, Line: 1, Col: 1}
	if d.doc != nil && v != nil {
		pos = d.doc.Pos(v.StartOffset)
	}
	*d.diags = append(*d.diags, &compiler.Error{Pos: pos, Code: code, Msg: fmt.Sprintf(format, args...), Severity: compiler.SeverityError})
}

// unknown warns of a key the object does not take, where the key stands,
// with the key of known it most likely misspells: "modle" in a binding
// would otherwise leave the binding matching every model without a word.
// The key is kept and has no effect, as in the upstream extension, so this
// is a warning; code is the extension's code for the object.
func (d *decoder) unknown(m *hujson.ObjectMember, code string, known []string, where string) {
	key := m.Name.Value.(hujson.Literal).String()
	msg := compiler.UnknownKeyMessage(key, known, where, "is kept and has no effect")
	*d.diags = append(*d.diags, &compiler.Error{Pos: d.doc.Pos(m.Name.StartOffset), Code: code, Msg: msg, Severity: compiler.SeverityWarning})
}

// knownKeys reports every member of obj whose key is not in known, and
// returns the members by key (the later of two equal keys wins, as in
// JSON.parse).
func (d *decoder) knownKeys(obj *hujson.Object, code string, known []string, where string) map[string]*hujson.Value {
	fields := map[string]*hujson.Value{}
	for i := range obj.Members {
		m := &obj.Members[i]
		key := m.Name.Value.(hujson.Literal).String()
		if !slices.Contains(known, key) {
			d.unknown(m, code, known, where)
			continue
		}
		fields[key] = &m.Value
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
	d := &decoder{scope: scope, name: name, diags: diags}
	doc, errs := compiler.ParseDocument(name, src)
	if errs != nil {
		for _, e := range errs {
			*diags = append(*diags, &compiler.Error{Pos: e.Pos, Code: CodeConfigParse, Msg: e.Msg, Severity: compiler.SeverityError})
		}
		return c
	}
	d.doc = doc
	if !doc.Root.IsStandard() {
		d.report(&doc.Root, CodeConfigParse, "%s is not JSON: comments and trailing commas are not allowed", name)
		return c
	}
	obj, ok := doc.Root.Value.(*hujson.Object)
	if !ok {
		d.report(&doc.Root, CodeConfigShape, "the configuration must be an object")
		return c
	}
	members := map[string]*hujson.Value{}
	var order []string
	var unknown []*hujson.ObjectMember
	for i := range obj.Members {
		m := &obj.Members[i]
		key := m.Name.Value.(hujson.Literal).String()
		if !slices.Contains(configKeys, key) {
			unknown = append(unknown, m)
			continue
		}
		if _, dup := members[key]; !dup {
			order = append(order, key)
		}
		members[key] = &m.Value // the later value wins, as in JSON.parse
	}
	if v := members["version"]; v == nil || !isNumber(v, 1) {
		d.report(orRoot(v, &doc.Root), CodeConfigVersion, "version must be 1; the whole file is ignored")
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
		case "defaultProfile":
			if ref, ok := d.ref(v); ok {
				c.def = ref
			} else {
				d.report(v, CodeConfigDefault, "defaultProfile is not a valid profile reference; it is ignored")
			}
		case "profiles":
			d.profiles(v, c)
		case "bindings":
			c.bindings = d.bindings(v)
		case "inheritGlobalBindings":
			b, isBool := boolOf(v)
			switch {
			case scope == Global:
				d.report(v, CodeConfigInherit, "inheritGlobalBindings is read only in the project file; here it has no effect")
			case !isBool:
				d.report(v, CodeConfigInherit, "inheritGlobalBindings must be true or false; it counts as true")
			default:
				c.inherit = b
			}
		case "subagents":
			s, _ := stringOf(v)
			if s == "off" || s == "bindings" || s == "inherit" {
				c.subagents = s
			} else {
				d.report(v, CodeConfigSubagents, "subagents must be off, bindings or inherit; it is ignored")
			}
		}
	}
	return c
}

func orRoot(v, root *hujson.Value) *hujson.Value {
	if v == nil {
		return root
	}
	return v
}

func (d *decoder) selection(v *hujson.Value) *Selection {
	obj, ok := v.Value.(*hujson.Object)
	if ok {
		fields := d.knownKeys(obj, CodeConfigUnknown, selectionKeys, "selection")
		mode, _ := stringOf(fields["mode"])
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
func (d *decoder) ref(v *hujson.Value) (string, bool) {
	s, ok := stringOf(v)
	if !ok {
		return "", false
	}
	return ParseRef(s, d.scope)
}

func (d *decoder) profiles(v *hujson.Value, c *scopeConfig) {
	obj, ok := v.Value.(*hujson.Object)
	if !ok {
		d.report(v, CodeConfigProfiles, "profiles must be an object of profile ids")
		return
	}
	for i := range obj.Members {
		m := &obj.Members[i]
		id := m.Name.Value.(hujson.Literal).String()
		if !ValidID(id) {
			d.report(&m.Value, CodeConfigProfileID, "profile id %q is not a safe id; its metadata is ignored", id)
			continue
		}
		meta, ok := m.Value.Value.(*hujson.Object)
		if !ok {
			d.report(&m.Value, CodeConfigProfileMeta, "the metadata of profile %q must be an object", id)
			continue
		}
		for j := range meta.Members {
			f := &meta.Members[j]
			if key := f.Name.Value.(hujson.Literal).String(); !slices.Contains(profileMetaKeys, key) {
				d.unknown(f, CodeConfigProfileMeta, profileMetaKeys, fmt.Sprintf("the metadata of profile %q", id))
				continue
			}
			switch key := f.Name.Value.(hujson.Literal).String(); key {
			case "extends":
				if ref, ok := d.ref(&f.Value); ok {
					c.extends[id] = ref
				} else {
					// Open question 7: the base is not dropped silently; the
					// profile is invalid.
					c.badBase[id] = true
					d.report(&f.Value, CodeConfigExtends, "extends of profile %q is not a valid profile reference; the profile is invalid", id)
				}
			case "description":
				if _, ok := stringOf(&f.Value); !ok {
					d.report(&f.Value, CodeConfigDescription, "the description of profile %q must be a string", id)
				}
			}
		}
	}
}

func (d *decoder) bindings(v *hujson.Value) []Binding {
	arr, ok := v.Value.(*hujson.Array)
	if !ok {
		d.report(v, CodeConfigBindings, "bindings must be a list; every binding is ignored")
		return nil
	}
	if len(arr.Elements) > MaxBindings {
		d.report(v, CodeConfigBindings, "%d bindings: at most %d are read, so every binding is ignored", len(arr.Elements), MaxBindings)
		return nil
	}
	var out []Binding
	for i := range arr.Elements {
		if b, ok := d.binding(&arr.Elements[i], i); ok {
			out = append(out, b)
		}
	}
	return out
}

// binding reads one binding, flat ({provider, model, profile}) or with a
// match list; what is invalid drops the rule or the binding, never
// widening it.
func (d *decoder) binding(v *hujson.Value, index int) (Binding, bool) {
	obj, ok := v.Value.(*hujson.Object)
	if !ok {
		d.report(v, CodeConfigBinding, "binding %d must be an object; it is dropped", index)
		return Binding{}, false
	}
	fields := d.knownKeys(obj, CodeConfigUnknown, bindingKeys, fmt.Sprintf("binding #%d", index))
	b := Binding{ID: fmt.Sprintf("#%d", index)}
	if idv := fields["id"]; idv != nil {
		id, ok := stringOf(idv)
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
	b.Ref = ref
	if pv := fields["priority"]; pv != nil {
		if f, ok := finite(pv); ok {
			b.Priority = f
		} else {
			d.report(pv, CodeConfigBindingPrio, "binding %s: priority must be a finite number; it counts as 0", b.ID)
		}
	}
	rules := []*hujson.Value{v} // a flat binding is its own one rule
	nested := false
	if mv := fields["match"]; mv != nil {
		nested = true
		arr, ok := mv.Value.(*hujson.Array)
		if !ok || len(arr.Elements) == 0 {
			d.report(mv, CodeConfigBindingMatch, "binding %s: match must be a non-empty list of rules; the binding is dropped", b.ID)
			return Binding{}, false
		}
		rules = rules[:0]
		for i := range arr.Elements {
			rules = append(rules, &arr.Elements[i])
		}
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
func (d *decoder) rule(v *hujson.Value, binding string, nested bool) (Rule, bool) {
	obj, ok := v.Value.(*hujson.Object)
	if !ok {
		d.report(v, CodeConfigBindingMatch, "binding %s: a rule must be an object; it is dropped", binding)
		return Rule{}, false
	}
	r := Rule{Provider: "*", Model: "*"}
	for i := range obj.Members {
		m := &obj.Members[i]
		var dst *string
		switch key := m.Name.Value.(hujson.Literal).String(); key {
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
		s, ok := stringOf(&m.Value)
		if !ok || s == "" {
			d.report(&m.Value, CodeConfigBindingMatch, "binding %s: provider and model must be non-empty strings; the rule is dropped", binding)
			return Rule{}, false
		}
		*dst = s
	}
	return r, true
}

func stringOf(v *hujson.Value) (string, bool) {
	if v == nil {
		return "", false
	}
	lit, ok := v.Value.(hujson.Literal)
	if !ok || lit.Kind() != '"' {
		return "", false
	}
	return lit.String(), true
}

func boolOf(v *hujson.Value) (bool, bool) {
	lit, ok := v.Value.(hujson.Literal)
	if !ok || (lit.Kind() != 't' && lit.Kind() != 'f') {
		return false, false
	}
	return lit.Bool(), true
}

func finite(v *hujson.Value) (float64, bool) {
	lit, ok := v.Value.(hujson.Literal)
	if !ok || lit.Kind() != '0' {
		return 0, false
	}
	f := lit.Float()
	return f, !math.IsInf(f, 0) && !math.IsNaN(f)
}

func isNumber(v *hujson.Value, want float64) bool {
	f, ok := finite(v)
	return ok && f == want
}
