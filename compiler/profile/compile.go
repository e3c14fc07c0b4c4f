package profile

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/open-policy-agent/opa/v1/format"
	"github.com/regate/regate/compiler"
)

// Input is what the host knows of the profile rule set: the two config
// files (nil: no file), its trust decision for the project, the
// profiles/<id>.md bodies of each scope, by id, and what reading each
// scope's folder reported (ReadFolder; AddFolder fills all three).
type Input struct {
	Global, Project *compiler.Source
	ProjectTrusted  bool
	Profiles        map[string]map[string]string // scope → id → body
	// Faults are reported with Compile's own diagnostics. A scope whose
	// faults hold config-unreadable has a config.json that exists but
	// could not be read: it counts as invalid, not as absent.
	Faults map[string]compiler.Errors // scope → faults
}

// Output is the compiled rule set: the data the Rego resolution reads at
// data.regate.profile, a small generated module naming its sources, the
// bodies of the usable profiles by reference (composition is Go's), and
// every diagnostic, positioned.
type Output struct {
	Module      compiler.Module
	Data        map[string]any
	Bodies      map[string]string
	Diagnostics compiler.Errors
}

// Compile decodes and normalizes the profile rule set. An untrusted
// project is never read: neither its config nor its profiles. A config
// file that cannot be used contributes nothing, reported; it is never an
// error, since the host then keeps its own prompt.
func Compile(in Input) (*Output, error) {
	out := &Output{Bodies: map[string]string{}}
	configs := map[string]*scopeConfig{}
	configs[Global] = decodeScope(Global, in.Global, in.Faults[Global], &out.Diagnostics)
	if in.ProjectTrusted {
		configs[Project] = decodeScope(Project, in.Project, in.Faults[Project], &out.Diagnostics)
	}
	for _, scope := range []string{Global, Project} {
		c := configs[scope]
		if c == nil || (scope == Project && !c.active) {
			continue // an inactive project's profiles are unreachable
		}
		for ref, body := range readBodies(scope, in.Profiles[scope], &out.Diagnostics) {
			out.Bodies[ref] = body
		}
	}
	out.Diagnostics = append(out.Diagnostics, refProblems(configs, in.Profiles)...)
	profiles := map[string]any{}
	for _, ref := range sortedKeys(out.Bodies) {
		e := expand(ref, out.Bodies, configs)
		if !e.Valid {
			out.Diagnostics = append(out.Diagnostics, &compiler.Error{
				Pos: compiler.Pos{File: strings.Replace(ref, ":", "/profiles/", 1) + ".md", Line: 1, Col: 1}, Code: e.Problem,
				Msg: fmt.Sprintf("profile %s is invalid (%s) and is treated as missing", ref, e.Problem), Severity: compiler.SeverityError,
			})
		}
		profiles[ref] = e
	}
	scopes := map[string]any{}
	for scope, c := range configs {
		if c.active {
			scopes[scope] = scopeData(c)
		}
	}
	data, err := jsonValue(map[string]any{"scopes": scopes, "profiles": profiles})
	if err != nil {
		return nil, err
	}
	out.Data = data
	out.Diagnostics.Sort()
	if out.Module, err = emitModule(in); err != nil {
		return nil, err
	}
	return out, nil
}

// decodeScope reports what reading the scope's folder found and decodes
// its config.json. A file that exists but could not be read is invalid:
// for the project that means inactive, its profiles unreachable, as for a
// file that is not JSON (never the active, empty project of no file).
func decodeScope(scope string, src *compiler.Source, faults compiler.Errors, diags *compiler.Errors) *scopeConfig {
	*diags = append(*diags, faults...)
	for _, f := range faults {
		if f.Code == CodeConfigUnreadable {
			return &scopeConfig{scope: scope, inherit: true, extends: map[string]string{}, badBase: map[string]bool{}}
		}
	}
	return decodeConfig(scope, sourceName(src, scope+"/config.json"), sourceData(src), diags)
}

func sourceName(s *compiler.Source, def string) string {
	if s == nil || s.Name == "" {
		return def
	}
	return s.Name
}

func sourceData(s *compiler.Source) []byte {
	if s == nil {
		return nil
	}
	if s.Data == nil {
		return []byte{}
	}
	return s.Data
}

// scopeData is one scope's config for the Rego resolution: selection,
// default, bindings with each rule's patterns as anchored regular
// expressions and its specificity, inheritGlobalBindings and subagents.
func scopeData(c *scopeConfig) map[string]any {
	bindings := []any{}
	for _, b := range c.bindings {
		rules := []any{}
		for _, r := range b.Rules {
			rules = append(rules, map[string]any{
				"provider": r.Provider, "model": r.Model,
				"provider_re": starRegex(r.Provider), "model_re": starRegex(r.Model), "specificity": r.Specificity(),
			})
		}
		bindings = append(bindings, map[string]any{"id": b.ID, "ref": b.Ref, "priority": b.Priority, "rules": rules})
	}
	var def, subagents any
	if c.def != "" {
		def = c.def
	}
	if c.subagents != "" {
		subagents = c.subagents
	}
	return map[string]any{
		"selection": c.selection, "default": def, "bindings": bindings, "inherit": c.inherit, "subagents": subagents,
	}
}

// starRegex is the anchored regular expression of a binding pattern: "*"
// matches any run of characters, "/" included; everything else is literal.
func starRegex(pattern string) string {
	parts := strings.Split(pattern, "*")
	for i, p := range parts {
		parts[i] = regexp.QuoteMeta(p)
	}
	return `(?s)\A` + strings.Join(parts, ".*") + `\z`
}

func jsonValue(v any) (map[string]any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var out map[string]any
	if err := dec.Decode(&out); err != nil {
		return nil, err
	}
	return out, nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// emitModule renders regate.gen.profile: the config files compiled, whose
// rules are data at data.regate.profile.
func emitModule(in Input) (compiler.Module, error) {
	const path = "regate/gen/profile.rego"
	sources := []string{sourceName(in.Global, "global/config.json")}
	if in.ProjectTrusted {
		sources = append(sources, sourceName(in.Project, "project/config.json"))
	}
	quoted, err := json.Marshal(sources)
	if err != nil {
		return compiler.Module{}, err
	}
	src := compiler.Header + "\n#\n# The compiled profile bindings are data, at data.regate.profile.\n\n" +
		"package regate.gen.profile\n\n# sources are the config files compiled.\nsources := " + string(quoted) + "\n"
	out, err := format.Source(path, []byte(src))
	if err != nil {
		return compiler.Module{}, fmt.Errorf("profile: format %s: %w", path, err)
	}
	return compiler.Module{Path: path, Text: string(out)}, nil
}

// refProblems reports each reference of an active config to a profile of
// a scope whose folder was read (in.Profiles holds it) that does not exist
// there, an error at the reference (the binding applies nothing, so the
// host keeps its own prompt), or whose body is empty, a warning (it
// applies nothing but the managed block's markers). A scope whose folder
// was not read is not judged.
func refProblems(configs map[string]*scopeConfig, folders map[string]map[string]string) compiler.Errors {
	var out compiler.Errors
	for _, scope := range []string{Global, Project} {
		c := configs[scope]
		if c == nil || !c.active {
			continue
		}
		for _, u := range c.uses {
			refScope, id, _ := strings.Cut(u.ref, ":")
			folder := folders[refScope]
			if folder == nil {
				continue
			}
			body, read := folder[id]
			switch {
			case !read:
				out = append(out, &compiler.Error{Pos: u.pos, Code: CodeProfileMissing, Severity: compiler.SeverityError,
					Msg: fmt.Sprintf("%s names the profile %s, which is missing or could not be read (profiles/%s.md in the %s folder); it applies nothing", u.what, u.ref, id, refScope)})
			case strings.TrimSpace(body) == "":
				out = append(out, &compiler.Error{Pos: u.pos, Code: CodeProfileEmpty, Severity: compiler.SeverityWarning,
					Msg: fmt.Sprintf("%s names the profile %s, which is empty", u.what, u.ref)})
			}
		}
	}
	return out
}
