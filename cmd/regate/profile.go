package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/regate/regate/compiler"
	"github.com/regate/regate/compiler/profile"
	"github.com/regate/regate/runtime"
)

func newProfileCmd(a *app) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "profile",
		Short: "resolve which prompt profile applies to a model, and compose the prompt with it",
		Long: `profile works on profile bindings (shared/spec/profile-resolution.md). A config folder holds
config.json and profiles/<id>.md; --global and --project name the two scopes' folders. resolve
prints the profile that applies and why; compose prints the prompt with the managed block.`,
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
func (p *profileParams) resolve(ctx context.Context) (*profile.Output, *runtime.Profiles, runtime.ProfileDecision, error) {
	in := profile.Input{ProjectTrusted: p.trusted, Profiles: map[string]map[string]string{}}
	var err error
	if in.Global, in.Profiles[profile.Global], err = readScope(p.global); err != nil {
		return nil, nil, runtime.ProfileDecision{}, err
	}
	if p.trusted {
		if in.Project, in.Profiles[profile.Project], err = readScope(p.project); err != nil {
			return nil, nil, runtime.ProfileDecision{}, err
		}
	}
	out, err := profile.Compile(in)
	if err != nil {
		return nil, nil, runtime.ProfileDecision{}, err
	}
	resolver, err := runtime.NewProfiles(ctx, out)
	if err != nil {
		return nil, nil, runtime.ProfileDecision{}, withCode(exitFault, err)
	}
	req := runtime.ProfileRequest{Subagent: p.subagent}
	if p.model != "" {
		req.Model = &runtime.Model{Provider: p.provider, Model: p.model}
	}
	switch p.use {
	case "":
	case "auto", "off":
		req.Session = []profile.Selection{{Mode: p.use}}
	default:
		req.Session = []profile.Selection{{Mode: "manual", Profile: p.use}}
	}
	d, err := resolver.Resolve(ctx, req)
	if err != nil {
		return nil, nil, runtime.ProfileDecision{}, withCode(exitFault, err)
	}
	return out, resolver, d, nil
}

// readScope reads a config folder: config.json (absent: no file) and the
// profiles/*.md bodies by id.
func readScope(dir string) (*compiler.Source, map[string]string, error) {
	bodies := map[string]string{}
	if dir == "" {
		return nil, bodies, nil
	}
	var src *compiler.Source
	path := filepath.Join(dir, "config.json")
	b, err := os.ReadFile(path)
	switch {
	case err == nil:
		src = &compiler.Source{Name: path, Data: b}
	case !errors.Is(err, fs.ErrNotExist):
		return nil, nil, withCode(exitBadRules, err)
	}
	files, err := filepath.Glob(filepath.Join(dir, "profiles", "*.md"))
	if err != nil {
		return nil, nil, err
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, nil, withCode(exitBadRules, err)
		}
		bodies[strings.TrimSuffix(filepath.Base(f), ".md")] = string(b)
	}
	return src, bodies, nil
}

func printProfileDiagnostics(w io.Writer, out *profile.Output, d runtime.ProfileDecision) {
	for _, e := range out.Diagnostics {
		fmt.Fprintf(w, "%s: %s: %s\n", e.Pos, e.Code, e.Msg)
	}
	for _, code := range d.Diagnostics {
		fmt.Fprintf(w, "resolution: %s\n", code)
	}
}
