package profile_test

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/regate/regate/compiler"
	"github.com/regate/regate/compiler/profile"
	resolve "github.com/regate/regate/runtime/profile"
)

// A global config.json in (with a misspelt key, and a binding to a profile
// that has no body), an untrusted project beside it; out come the
// compiled bindings with each rule's specificity precomputed, every
// profile expanded through its bases into layers, and the diagnostics,
// positioned. The runtime's resolution (package runtime/profile) then
// picks a profile for a model from this data: the gpt binding wins for
// gpt-5, but its profile cannot be expanded, so gpt-5 goes straight to the
// default (docs/profiles.md, "How a profile is chosen").
func ExampleCompile() {
	ctx := context.Background()
	out, err := profile.Compile(profile.Input{
		Global: &compiler.Source{Name: "global/config.json", Data: []byte(`{
  "version": 1,
  "defaultProfile": "base",
  "profiles": {"review": {"extends": "base"}},
  "bindings": [
    {"id": "claude", "provider": "anthropic", "model": "claude-*", "profile": "review"},
    {"id": "gpt", "model": "gpt-5", "profile": "missing", "priorty": 2}
  ]
}`)},
		// Not trusted: never read, so its default does not apply.
		Project:        &compiler.Source{Name: "project/config.json", Data: []byte(`{"version": 1, "defaultProfile": "local"}`)},
		ProjectTrusted: false,
		Profiles: map[string]map[string]string{
			"global":  {"base": "Work in small steps.", "review": "Read every changed line."},
			"project": {"local": "Tabs, not spaces."},
		},
	})
	if err != nil {
		panic(err) // regate itself failed; a bad config is a diagnostic
	}
	for _, d := range out.Diagnostics {
		fmt.Println(d)
	}
	fmt.Println("bodies:", strings.Join(sortedKeys(out.Bodies), " "))

	profiles, err := resolve.NewProfiles(ctx, out)
	if err != nil {
		panic(err)
	}
	for _, m := range []resolve.Model{{Provider: "anthropic", Model: "claude-sonnet-4"}, {Provider: "openai", Model: "gpt-5"}, {Provider: "x", Model: "y"}} {
		d, err := profiles.Resolve(ctx, resolve.ProfileRequest{Model: &m})
		if err != nil {
			panic(err)
		}
		fmt.Printf("%s/%s: %q via %q (specificity %d), layers %v\n", m.Provider, m.Model, d.Profile, d.Binding, d.Specificity, d.Layers)
	}
	// Output:
	// global/config.json:7:48: error: binding gpt names the profile global:missing, which is missing or could not be read (profiles/missing.md in the global folder); it applies nothing [profile-missing]
	// global/config.json:7:59: warning: unknown key "priorty" in binding #1 is kept and has no effect; did you mean "priority"? [config-unknown]
	// bodies: global:base global:review
	// anthropic/claude-sonnet-4: "global:review" via "global:claude" (specificity 1), layers [global:review global:base]
	// openai/gpt-5: "global:base" via "" (specificity 0), layers [global:base]
	// x/y: "global:base" via "" (specificity 0), layers [global:base]
}

func sortedKeys(m map[string]string) []string {
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// Compose prepends the managed block, the layers most specific first, to
// the host's prompt; composing the result again changes nothing.
func ExampleCompose() {
	prompt := profile.Compose("NATIVE PROMPT", []string{"Read every changed line.", "Work in small steps."})
	fmt.Println(strings.ReplaceAll(prompt, profile.Control, "<control statement>"))
	fmt.Println(profile.Compose(prompt, []string{"Read every changed line.", "Work in small steps."}) == prompt)
	fmt.Printf("%q\n", profile.StripBlocks(prompt))
	// Output:
	// <!-- managed-system-instructions:begin -->
	// <control statement>
	//
	// Read every changed line.
	//
	// Work in small steps.
	// <!-- managed-system-instructions:end -->
	//
	// NATIVE PROMPT
	// true
	// "NATIVE PROMPT"
}
