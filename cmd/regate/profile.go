package main

import (
	"context"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	profilerules "github.com/regate/regate/compiler/profile"
	"github.com/regate/regate/runtime/profile"
)

func newProfileCmd(a *app) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "profile",
		Short: "resolve which prompt profile applies to a model, and compose the prompt with it",
		Long: `profile works on profile bindings (docs/profiles.md). A config folder holds config.json (its
keys: docs/policy.md, "Profile config.json") and profiles/<id>.md; --global and --project name the
two scopes' folders. Profiles that are symbolic links, not regular files or too large are skipped
with a diagnostic, never read. resolve prints the profile that applies and why; compose prints the
prompt with the managed block.`,
	}
	cmd.AddCommand(newProfileResolveCmd(a), newProfileComposeCmd(a))
	return cmd
}

// profileParams are the flags resolve and compose share.
type profileParams struct {
	global, project string
	trusted         bool
	provider, model string
	subagent        bool
	use             string
}

func (p *profileParams) bind(cmd *cobra.Command) {
	f := cmd.Flags()
	f.StringVar(&p.global, "global", "", "the global config folder (config.json, profiles/)")
	f.StringVar(&p.project, "project", "", "the project config folder (.pi/system-prompts)")
	f.BoolVar(&p.trusted, "trusted", false, "the host trusts the project: its config is read")
	f.StringVar(&p.provider, "provider", "", "the selected model's provider")
	f.StringVar(&p.model, "model", "", "the selected model (none: no model is selected yet)")
	f.BoolVar(&p.subagent, "subagent", false, "the process is a subagent child")
	f.StringVar(&p.use, "use", "", "the session's selection: a profile reference, auto or off")
}

// resolve compiles the folders and resolves the request.
func (p *profileParams) resolve(ctx context.Context) (*profilerules.Output, *profile.Profiles, profile.ProfileDecision, error) {
	in := profilerules.Input{ProjectTrusted: p.trusted}
	if p.global != "" {
		in.AddFolder(profilerules.Global, profilerules.ReadFolder(p.global))
	}
	if p.trusted && p.project != "" {
		in.AddFolder(profilerules.Project, profilerules.ReadFolder(p.project))
	}
	out, err := profilerules.Compile(in)
	if err != nil {
		return nil, nil, profile.ProfileDecision{}, err
	}
	resolver, err := profile.NewProfiles(ctx, out)
	if err != nil {
		return nil, nil, profile.ProfileDecision{}, withCode(exitFault, err)
	}
	req := profile.ProfileRequest{Subagent: p.subagent}
	if p.model != "" {
		req.Model = &profile.Model{Provider: p.provider, Model: p.model}
	}
	switch p.use {
	case "":
	case "auto", "off":
		req.Session = []profilerules.Selection{{Mode: p.use}}
	default:
		req.Session = []profilerules.Selection{{Mode: "manual", Profile: p.use}}
	}
	d, err := resolver.Resolve(ctx, req)
	if err != nil {
		return nil, nil, profile.ProfileDecision{}, withCode(exitFault, err)
	}
	return out, resolver, d, nil
}

// printProfileDiagnostics prints one line per diagnostic. A line carries
// text from the folders (file names, keys), so every character that is not
// printable is escaped: nothing read can add a line or reach the terminal
// as a control sequence.
func printProfileDiagnostics(w io.Writer, out *profilerules.Output, d profile.ProfileDecision) {
	for _, e := range out.Diagnostics {
		fmt.Fprintln(w, profilerules.Printable(fmt.Sprintf("%s: %s: %s", e.Pos, e.Code, e.Msg)))
	}
	for _, code := range d.Diagnostics {
		fmt.Fprintln(w, profilerules.Printable("resolution: "+code))
	}
}
