package profile

import (
	"fmt"
	"strings"
	"testing"

	"github.com/regate/regate/compiler"
)

func TestConfigDiagnostics(t *testing.T) {
	for _, c := range []struct {
		name, src string
		want      []string // "code@line:col"
	}{
		{"not json", `{"version": 1,`, []string{"config-parse@1:15"}},
		{"comment", "{\"version\": 1 // no\n}", []string{"config-parse@1:1"}},
		{"array root", `[]`, []string{"config-shape@1:1"}},
		{"no version", `{"bindings": []}`, []string{"config-version@1:1"}},
		{"version 2", `{"version": 2}`, []string{"config-version@1:13"}},
		{"bad parts", "{\"version\": 1,\n \"selection\": {\"mode\": \"sometimes\"},\n \"defaultProfile\": \"../x\",\n \"color\": \"red\"}",
			[]string{"config-selection@2:15", "config-default@3:20", "config-unknown@4:2"}},
		{"$schema", `{"$schema": "../../compiler/schema/profile-config.schema.json", "version": 1}`, nil},
		{"bindings", "{\"version\": 1, \"bindings\": [\n" +
			" {\"id\": \"../x\", \"profile\": \"a\"},\n" +
			" {\"profile\": \"/etc/passwd\"},\n" +
			" {\"profile\": \"a\", \"provider\": \"\"},\n" +
			" {\"profile\": \"a\", \"priority\": \"9\"},\n" +
			" {\"profile\": \"a\", \"match\": []}]}",
			[]string{"config-binding-id@2:9", "config-binding-profile@3:14", "config-binding-match@4:31", "config-binding-priority@5:31", "config-binding-match@6:28"}},
		// A number past float64's range is Infinity, as JSON.parse reads it: not finite.
		{"infinite priority", `{"version": 1, "bindings": [{"profile": "a", "priority": 1e400}]}`, []string{"config-binding-priority@1:58"}},
		{"too deep", `{"version": 1, "x": ` + strings.Repeat("[", 70) + strings.Repeat("]", 70) + `}`, []string{"config-parse@1:85"}},
		{"inherit in global", `{"version": 1, "inheritGlobalBindings": false}`, []string{"config-inherit@1:41"}},
		{"subagents", `{"version": 1, "subagents": "sometimes"}`, []string{"config-subagents@1:29"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, err := Compile(Input{Global: &compiler.Source{Name: "g.json", Data: []byte(c.src)}})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, d := range out.Diagnostics {
				got = append(got, d.Code+"@"+strings.TrimPrefix(d.Pos.String(), "g.json:"))
			}
			if strings.Join(got, " ") != strings.Join(c.want, " ") {
				t.Errorf("diagnostics %v; want %v", got, c.want)
			}
		})
	}
}

// TestUnknownKeys: a key no object of config.json takes is reported where
// it stands, with the key it most likely misspells, at every level; the
// binding it stands in is kept, as the readings keep unknown keys.
func TestUnknownKeys(t *testing.T) {
	src := "{\"version\": 1, \"bindngs\": [],\n" +
		" \"selection\": {\"mode\": \"auto\", \"profle\": \"x\"},\n" +
		" \"profiles\": {\"a\": {\"extend\": \"b\"}},\n" +
		" \"bindings\": [{\"profile\": \"a\", \"modle\": \"gpt-4\"},\n" +
		"  {\"profile\": \"a\", \"match\": [{\"provder\": \"x\", \"model\": \"m\"}]}, {\"profile\": \"a\", \"colour\": 1}]}"
	out, err := Compile(Input{Global: &compiler.Source{Name: "g.json", Data: []byte(src)}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range out.Diagnostics {
		got = append(got, fmt.Sprintf("%s %s %s: %s", strings.TrimPrefix(d.Pos.String(), "g.json:"), d.Severity, d.Code, d.Msg))
	}
	want := []string{
		`1:16 warning config-unknown: unknown key "bindngs" is kept and has no effect; did you mean "bindings"?`,
		`2:32 warning config-unknown: unknown key "profle" in selection is kept and has no effect; did you mean "profile"?`,
		`3:21 warning config-profile-meta: unknown key "extend" in the metadata of profile "a" is kept and has no effect; did you mean "extends"?`,
		`4:32 warning config-unknown: unknown key "modle" in binding #0 is kept and has no effect; did you mean "model"?`,
		`5:31 warning config-unknown: unknown key "provder" in a match rule of binding #1 is kept and has no effect; did you mean "provider"?`,
		`5:81 warning config-unknown: unknown key "colour" in binding #2 is kept and has no effect`,
	}
	if diff := strings.Join(got, "\n"); diff != strings.Join(want, "\n") {
		t.Errorf("diagnostics:\n%s\nwant:\n%s", diff, strings.Join(want, "\n"))
	}
	if n := len(out.Data["scopes"].(map[string]any)["global"].(map[string]any)["bindings"].([]any)); n != 3 {
		t.Errorf("%d bindings kept; want 3: an unknown key drops nothing", n)
	}
}

func TestRuleSpecificity(t *testing.T) {
	for _, c := range []struct {
		r    Rule
		want int
	}{
		{Rule{"anthropic", "claude-x"}, 3},
		{Rule{"*", "claude-x"}, 2},
		{Rule{"anthropic", "claude-*"}, 1},
		{Rule{"*", "*"}, 0},
		{Rule{"anth*", "*sonnet*"}, 0},
	} {
		if got := c.r.Specificity(); got != c.want {
			t.Errorf("%+v: %d; want %d", c.r, got, c.want)
		}
	}
}

var composeSeeds = []struct{ prompt, body string }{
	{"NATIVE PROMPT", "Be brief."},
	{"", "Be brief."},
	{"\nleading newline", "x"},
	{BeginMarker + "\nstale\n" + EndMarker + "\n\nNATIVE", "new"},
	{BeginMarker + "\nno end", "x"},
	{"INTRO\n" + BeginMarker + "\nquoted\n" + EndMarker, "x"},
	{BeginMarker + EndMarker + BeginMarker + "\n" + EndMarker + "\n\n\n\nrest", "y"},
	{"body ends with newline", "text\n"},
	{"\uFEFF" + BeginMarker + "\nstale\n" + EndMarker + "\n\nNATIVE", "new"},
	{"\n\n" + BeginMarker + "\nstale\n" + EndMarker + "\n\nNATIVE", "new"},
	{BeginMarker + "\r\nstale\r\n" + EndMarker + "\r\n\r\nNATIVE\r\nSECOND", "new"},
	{"\r\n" + BeginMarker + "\r\n" + EndMarker, "new"},
	{"\uFEFF\uFEFFtwo marks", "x"},
}

// TestComposeTwiceIsComposeOnce is the property the spec asks of
// composition, on the seeds; FuzzCompose runs it on any prompt.
func TestComposeTwiceIsComposeOnce(t *testing.T) {
	for _, s := range composeSeeds {
		composeProperty(t, s.prompt, s.body)
	}
}

func FuzzCompose(f *testing.F) {
	for _, s := range composeSeeds {
		f.Add(s.prompt, s.body)
	}
	f.Fuzz(func(t *testing.T, prompt, body string) {
		if strings.Contains(body, BeginMarker) || strings.Contains(body, EndMarker) {
			t.Skip() // such a body is refused (profile-marker)
		}
		composeProperty(t, prompt, body)
	})
}

func composeProperty(t *testing.T, prompt, body string) {
	t.Helper()
	once := Compose(prompt, []string{body, "base"})
	if twice := Compose(once, []string{body, "base"}); twice != once {
		t.Fatalf("composing %q twice:\n%q\nonce:\n%q", prompt, twice, once)
	}
	nl := lineBreak(prompt)
	if !strings.HasPrefix(once, BeginMarker+nl+Control+nl+nl+body+nl+nl+"base"+nl+EndMarker) {
		t.Fatalf("composed %q does not open with the block", once)
	}
	if rest := StripBlocks(once); rest != StripBlocks(prompt) {
		t.Fatalf("the prompt after the block is %q; want %q", rest, StripBlocks(prompt))
	}
}

// TestExpansionLimits: a chain of bases is valid up to MaxLayers layers and
// MaxTotalBytes in total, and invalid one layer or one byte past either.
func TestExpansionLimits(t *testing.T) {
	full := strings.Repeat("x", MaxBodyBytes)
	for _, c := range []struct {
		name   string
		bodies []string // p0 extends p1 extends ...
		want   string   // "" valid, else the problem
	}{
		{"8 layers", strings.Split("a b c d e f g h", " "), ""},
		{"9 layers", strings.Split("a b c d e f g h i", " "), CodeProfileDepth},
		{"256 KiB in total", []string{full, full, full, full}, ""},
		{"one byte more", []string{full, full, full, full, "x"}, CodeProfileTotalSize},
	} {
		t.Run(c.name, func(t *testing.T) {
			files, profiles := map[string]string{}, []string{}
			for i, body := range c.bodies {
				id := fmt.Sprintf("p%d", i)
				files[id] = body
				if i+1 < len(c.bodies) {
					profiles = append(profiles, fmt.Sprintf(`"%s": {"extends": "p%d"}`, id, i+1))
				}
			}
			src := `{"version": 1, "profiles": {` + strings.Join(profiles, ", ") + `}}`
			out, err := Compile(Input{Global: &compiler.Source{Name: "g.json", Data: []byte(src)}, Profiles: map[string]map[string]string{Global: files}})
			if err != nil {
				t.Fatal(err)
			}
			e := out.Data["profiles"].(map[string]any)["global:p0"].(map[string]any)
			if got, _ := e["problem"].(string); got != c.want {
				t.Errorf("problem %q; want %q (%v)", got, c.want, out.Diagnostics)
			}
		})
	}
}

// TestReferencesToProfiles: with a scope's profiles read, a reference to
// one that is missing is an error where the reference is written, to an
// empty one a warning; a scope whose folder was not read is not judged.
func TestReferencesToProfiles(t *testing.T) {
	src := `{"version": 1, "defaultProfile": "gone",
  "selection": {"mode": "manual", "profile": "base"},
  "bindings": [
    {"id": "a", "profile": "nope", "provider": "x"},
    {"id": "b", "profile": "blank", "provider": "y"},
    {"id": "c", "profile": "project:local", "provider": "z"},
    {"id": "d", "profile": "base", "provider": "w"}
  ]}`
	out, err := Compile(Input{
		Global:   &compiler.Source{Name: "g.json", Data: []byte(src)},
		Profiles: map[string]map[string]string{Global: {"base": "Be brief.", "blank": " \n"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range out.Diagnostics {
		if d.Code == CodeProfileMissing || d.Code == CodeProfileEmpty {
			got = append(got, fmt.Sprintf("%d:%d %s %s", d.Pos.Line, d.Pos.Col, d.Severity, d.Code))
		}
	}
	want := []string{
		"1:34 error profile-missing", // defaultProfile "gone"
		"4:28 error profile-missing", // binding a
		"5:28 warning profile-empty", // binding b
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("diagnostics:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
