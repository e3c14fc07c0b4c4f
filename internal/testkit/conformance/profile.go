package conformance

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/regate/regate/compiler"
	profilerules "github.com/regate/regate/compiler/profile"
	"github.com/regate/regate/runtime/profile"
)

// profileCase is one case of the profile suite (FORMAT.md and the profile
// readings, section 0).
type profileCase struct {
	ID             string                       `json:"id"`
	Global         json.RawMessage              `json:"global"`
	Project        json.RawMessage              `json:"project"`
	ProjectTrusted bool                         `json:"projectTrusted"`
	Session        json.RawMessage              `json:"session"`
	SessionBranch  []json.RawMessage            `json:"sessionBranch"`
	Flags          map[string]json.RawMessage   `json:"flags"`
	Model          *profile.Model               `json:"model"`
	Subagent       bool                         `json:"subagent"`
	ProfileFiles   map[string]map[string]string `json:"profileFiles"`
	BasePrompt     *string                      `json:"basePrompt"`
	Expect         map[string]json.RawMessage   `json:"expect"`
}

// placeholders stand for the engine's own markers and control statement.
var placeholders = strings.NewReplacer(
	"<<BLOCK_BEGIN>>", profilerules.BeginMarker, "<<BLOCK_END>>", profilerules.EndMarker, "<<CONTROL>>", profilerules.Control,
)

func runProfile(ctx context.Context, raw []byte) Result {
	var c profileCase
	if err := json.Unmarshal(raw, &c); err != nil {
		return Result{Want: "a profile case", Got: err.Error()}
	}
	if err := c.run(ctx); err != nil {
		return Result{Want: "the expected profile outcome", Got: err.Error()}
	}
	return Result{Passed: true}
}

func (c *profileCase) run(ctx context.Context) error {
	in := profilerules.Input{ProjectTrusted: c.ProjectTrusted, Profiles: c.files()}
	var err error
	if in.Global, err = configSource("global/config.json", c.Global); err != nil {
		return err
	}
	if in.Project, err = configSource("project/config.json", c.Project); err != nil {
		return err
	}
	out, err := profilerules.Compile(in)
	if err != nil {
		return err
	}
	resolver, err := profile.NewProfiles(ctx, out)
	if err != nil {
		return err
	}
	req := profile.ProfileRequest{Model: c.Model, Subagent: c.Subagent, Flags: c.flags(), Session: c.session()}
	d, err := resolver.Resolve(ctx, req)
	if err != nil {
		return err
	}
	var composed *string
	if c.BasePrompt != nil {
		if p, ok := resolver.Compose(d, placeholders.Replace(*c.BasePrompt)); ok {
			composed = &p
		}
	} else if p, ok := resolver.Compose(d, ""); ok {
		composed = &p
	}
	return c.check(d, out, composed, resolver)
}

// configSource is a case's config: null is no file, a string the raw
// text, an object the parsed document (version 1 when it has none).
func configSource(name string, raw json.RawMessage) (*compiler.Source, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var text string
	if json.Unmarshal(raw, &text) == nil {
		return &compiler.Source{Name: name, Data: []byte(text)}, nil
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil {
		return nil, err
	}
	if _, ok := obj["version"]; !ok {
		obj["version"] = json.RawMessage("1")
	}
	b, err := json.Marshal(obj)
	return &compiler.Source{Name: name, Data: b}, err
}

// files are the case's profile bodies; without profileFiles, every
// profile the case names exists with some body.
func (c *profileCase) files() map[string]map[string]string {
	if c.ProfileFiles != nil {
		out := map[string]map[string]string{}
		for scope, files := range c.ProfileFiles {
			out[scope] = map[string]string{}
			for id, body := range files {
				out[scope][id] = placeholders.Replace(body)
			}
		}
		return out
	}
	out := map[string]map[string]string{profilerules.Global: {}, profilerules.Project: {}}
	for scope, raw := range map[string]json.RawMessage{profilerules.Global: c.Global, profilerules.Project: c.Project} {
		var doc any
		_ = json.Unmarshal(raw, &doc)
		walkRefs(doc, func(ref string) {
			if full, ok := profilerules.ParseRef(ref, scope); ok {
				s, id, _ := strings.Cut(full, ":")
				out[s][id] = "Profile " + id + "."
			}
		})
	}
	return out
}

func walkRefs(v any, f func(string)) {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			if s, ok := x.(string); ok && (k == "profile" || k == "defaultProfile" || k == "extends") {
				f(s)
			}
			walkRefs(x, f)
		}
	case []any:
		for _, x := range v {
			walkRefs(x, f)
		}
	}
}

func (c *profileCase) flags() []profilerules.Selection {
	var out []profilerules.Selection
	for _, k := range []string{"profile", "auto", "off"} {
		raw, ok := c.Flags[k]
		if !ok || string(raw) == "false" || string(raw) == "null" {
			continue
		}
		switch k {
		case "profile":
			var ref string
			_ = json.Unmarshal(raw, &ref)
			out = append(out, profilerules.Selection{Mode: "manual", Profile: ref})
		default:
			out = append(out, profilerules.Selection{Mode: k})
		}
	}
	return out
}

func (c *profileCase) session() []profilerules.Selection {
	entries := c.SessionBranch
	if entries == nil && len(c.Session) > 0 && string(c.Session) != "null" {
		entries = []json.RawMessage{c.Session}
	}
	var out []profilerules.Selection
	for _, raw := range entries {
		var e struct {
			Mode    string `json:"mode"`
			Profile any    `json:"profile"`
		}
		_ = json.Unmarshal(raw, &e)
		s := profilerules.Selection{Mode: e.Mode}
		if ref, ok := e.Profile.(string); ok {
			s.Profile = ref
		} else if e.Mode == "manual" {
			s.Mode = "unreadable"
		}
		out = append(out, s)
	}
	return out
}

func (c *profileCase) check(d profile.ProfileDecision, out *profilerules.Output, composed *string, resolver *profile.Profiles) error {
	got := map[string]string{"profile": d.Profile, "mode": d.Mode, "selectionFrom": d.SelectionFrom, "binding": d.Binding, "conflict": d.Conflict}
	if err := checkStrings(got, c.Expect, "profile", "mode", "selectionFrom", "binding", "conflict"); err != nil {
		return err
	}
	if raw, ok := c.Expect["layers"]; ok {
		var want []string
		if err := json.Unmarshal(raw, &want); err != nil {
			return err
		}
		if !slices.Equal(want, d.Layers) && !(len(want) == 0 && len(d.Layers) == 0) {
			return fmt.Errorf("layers %v; want %v", d.Layers, want)
		}
	}
	if raw, ok := c.Expect["diagnosticsContain"]; ok {
		var want []string
		if err := json.Unmarshal(raw, &want); err != nil {
			return err
		}
		codes := slices.Clone(d.Diagnostics)
		for _, e := range out.Diagnostics {
			codes = append(codes, e.Code)
		}
		for _, w := range want {
			if !slices.Contains(codes, w) {
				return fmt.Errorf("diagnostics %v do not include %q", codes, w)
			}
		}
	}
	return c.checkComposed(d, composed, resolver)
}

func (c *profileCase) checkComposed(d profile.ProfileDecision, composed *string, resolver *profile.Profiles) error {
	if raw, ok := c.Expect["composed"]; ok && string(raw) == "null" && composed != nil {
		return fmt.Errorf("composed %q; want no prompt", *composed)
	}
	text := ""
	if composed != nil {
		text = *composed
	}
	var want struct {
		StartsWith  *string        `json:"composedStartsWith"`
		Contains    []string       `json:"composedContains"`
		NotContains []string       `json:"composedNotContains"`
		Count       map[string]int `json:"composedCount"`
		Order       []string       `json:"composedOrder"`
		Idempotent  bool           `json:"idempotent"`
	}
	b, _ := json.Marshal(c.Expect)
	if err := json.Unmarshal(b, &want); err != nil {
		return err
	}
	if want.StartsWith != nil && !strings.HasPrefix(text, placeholders.Replace(*want.StartsWith)) {
		return fmt.Errorf("composed %q does not start with %q", text, *want.StartsWith)
	}
	for _, s := range want.Contains {
		if !strings.Contains(text, placeholders.Replace(s)) {
			return fmt.Errorf("composed %q does not contain %q", text, s)
		}
	}
	for _, s := range want.NotContains {
		if strings.Contains(text, placeholders.Replace(s)) {
			return fmt.Errorf("composed %q contains %q", text, s)
		}
	}
	for s, n := range want.Count {
		if got := strings.Count(text, placeholders.Replace(s)); got != n {
			return fmt.Errorf("composed has %d of %q; want %d", got, s, n)
		}
	}
	rest := text
	for _, s := range want.Order {
		i := strings.Index(rest, placeholders.Replace(s))
		if i < 0 {
			return fmt.Errorf("composed %q: %q is not where the order wants it", text, s)
		}
		rest = rest[i+len(placeholders.Replace(s)):]
	}
	if want.Idempotent {
		again, _ := resolver.Compose(d, text)
		if again != text {
			return fmt.Errorf("composing again changed the prompt:\n%q\n%q", text, again)
		}
	}
	return nil
}
