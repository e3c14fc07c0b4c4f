package profile_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/regate/regate/compiler"
	profilerules "github.com/regate/regate/compiler/profile"
	"github.com/regate/regate/runtime/profile"
)

// A user binds Claude models to a review profile globally, and a trusted
// project binds one exact model to its own profile. The project's binding
// comes first for that model; other Claude models fall to the global
// binding; anything else gets the global default.
func Example_profiles() {
	ctx := context.Background()
	out, err := profilerules.Compile(profilerules.Input{
		Global: &compiler.Source{Name: "global/config.json", Data: []byte(`{
			"version": 1,
			"defaultProfile": "base",
			"profiles": {"review": {"extends": "base"}},
			"bindings": [{"id": "claude", "provider": "anthropic", "model": "claude-*", "profile": "review"}]
		}`)},
		Project: &compiler.Source{Name: "project/config.json", Data: []byte(`{
			"version": 1,
			"bindings": [{"id": "opus", "provider": "anthropic", "model": "claude-opus-4", "profile": "local"}]
		}`)},
		ProjectTrusted: true,
		Profiles: map[string]map[string]string{
			"global":  {"base": "Work in small, verifiable steps.", "review": "Read every changed line."},
			"project": {"local": "Tabs, not spaces."},
		},
	})
	if err != nil {
		panic(err)
	}
	profiles, err := profile.NewProfiles(ctx, out)
	if err != nil {
		panic(err)
	}
	for _, m := range []profile.Model{{"anthropic", "claude-opus-4"}, {"anthropic", "claude-sonnet-4"}, {"deepseek", "deepseek-chat"}} {
		d, err := profiles.Resolve(ctx, profile.ProfileRequest{Model: &m})
		if err != nil {
			panic(err)
		}
		fmt.Printf("%s/%s: %s via %q (specificity %d), layers %v\n", m.Provider, m.Model, d.Profile, d.Binding, d.Specificity, d.Layers)
	}

	d, _ := profiles.Resolve(ctx, profile.ProfileRequest{Model: &profile.Model{Provider: "anthropic", Model: "claude-sonnet-4"}})
	prompt, _ := profiles.Compose(d, "NATIVE PROMPT")
	again, _ := profiles.Compose(d, prompt)
	fmt.Println(strings.ReplaceAll(prompt, profilerules.Control, "<control statement>"))
	fmt.Println("composing again changes nothing:", again == prompt)
	// Output:
	// anthropic/claude-opus-4: project:local via "project:opus" (specificity 3), layers [project:local]
	// anthropic/claude-sonnet-4: global:review via "global:claude" (specificity 1), layers [global:review global:base]
	// deepseek/deepseek-chat: global:base via "" (specificity 0), layers [global:base]
	// <!-- managed-system-instructions:begin -->
	// <control statement>
	//
	// Read every changed line.
	//
	// Work in small, verifiable steps.
	// <!-- managed-system-instructions:end -->
	//
	// NATIVE PROMPT
	// composing again changes nothing: true
}
