package compiler

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"sort"
)

// Source is one rule file: its name (used in every position) and content.
type Source struct {
	Name string
	Data []byte
}

// Input is everything the permission compiler reads. A nil Policy or
// HardGuards means the file does not exist, which is not an error: the
// built-in fallback asks.
type Input struct {
	Policy     *Source
	HardGuards *Source
	// Agents are agent Markdown files; the agent's name is the file's base
	// name. A later file for the same agent replaces an earlier one, so list
	// global agent files before project ones.
	Agents []Source
}

// Output is the compiled permission policy.
type Output struct {
	// Modules are the generated Rego modules, sorted by path.
	Modules []Module
	// Diagnostics are every problem found, sorted by position. Errors made
	// their file fail closed; warnings did not change anything.
	Diagnostics Errors
	// Knobs are the runtime settings of the policy (defaults when the policy
	// failed to load).
	Knobs Knobs
	// Hash identifies the compiled policy: equal hashes, equal decisions.
	Hash string
	// Home is the home directory patterns were expanded against.
	Home string
}

// Option configures Compile.
type Option func(*options)

type options struct {
	home string
}

// WithHome sets the home directory that ~, $HOME and ${HOME} expand to. It
// defaults to the current user's home directory.
func WithHome(home string) Option {
	return func(o *options) { o.home = home }
}

// Compile turns the permission rule files into generated Rego modules. Bad
// input is never a Go error: it is reported in Output.Diagnostics and the
// file's layer fails closed (policy: every allow becomes ask; hard guards:
// likewise, since they can no longer be enforced; an agent: likewise while
// that agent is active). A Go error means regate itself failed.
func Compile(in Input, opts ...Option) (*Output, error) {
	o := options{}
	for _, opt := range opts {
		opt(&o)
	}
	if o.home == "" {
		o.home, _ = os.UserHomeDir()
	}
	out := &Output{Knobs: DefaultKnobs(), Home: o.home}

	polMod, err := compilePolicy(in.Policy, o.home, out)
	if err != nil {
		return nil, err
	}
	hgMod, err := compileHardGuards(in.HardGuards, o.home, out)
	if err != nil {
		return nil, err
	}
	agMod, err := compileAgents(in.Agents, o.home, out)
	if err != nil {
		return nil, err
	}
	out.Modules = []Module{agMod, hgMod, polMod}
	sort.Slice(out.Modules, func(i, j int) bool { return out.Modules[i].Path < out.Modules[j].Path })
	out.Diagnostics.Sort()

	h := sha256.New()
	for _, m := range out.Modules {
		fmt.Fprintf(h, "%s\x00%s\x00", m.Path, m.Text)
	}
	out.Hash = hex.EncodeToString(h.Sum(nil))
	return out, nil
}

func compilePolicy(src *Source, home string, out *Output) (Module, error) {
	var d diags
	var sources []string
	bindings := []binding{}
	pol := Policy{Knobs: DefaultKnobs()}
	if src != nil {
		sources = append(sources, src.Name)
		if n := parseJSONC(src.Name, src.Data, &d); n != nil {
			pol = decodePolicy(n, &d)
		}
	}
	if fatal := d.list.Fatal(); len(fatal) > 0 {
		pol = Policy{Knobs: DefaultKnobs()}
		bindings = append(bindings, binding{"floors", faultFloor("<invalid-policy>", fatal)})
	}
	out.Diagnostics = append(out.Diagnostics, d.list...)
	out.Knobs = pol.Knobs
	fallback, surfaces := permissionData(&pol.Permission, home)
	if fallback != nil {
		bindings = append(bindings, binding{"fallback", fallback})
	}
	bindings = append(bindings,
		binding{"surfaces", surfaces},
		binding{"yolo", pol.Knobs.YoloMode},
	)
	return emitModule("regate/gen/policy.rego", "regate.gen.policy", sources, bindings)
}

func compileHardGuards(src *Source, home string, out *Output) (Module, error) {
	var d diags
	var sources []string
	var hg Permission
	bindings := []binding{}
	if src != nil {
		sources = append(sources, src.Name)
		if n := parseJSONC(src.Name, src.Data, &d); n != nil {
			hg = decodeHardGuards(n, &d)
		}
	}
	if fatal := d.list.Fatal(); len(fatal) > 0 {
		bindings = append(bindings, binding{"floors", faultFloor("<invalid-hard-guards>", fatal)})
	}
	out.Diagnostics = append(out.Diagnostics, d.list...)
	// A hard-guard "*" denies every call; it is a surface of its own kind, so
	// it is compiled as a catch-all on every surface a call can reach.
	_, surfaces := permissionData(&hg, home)
	bindings = append(bindings, binding{"surfaces", surfaces})
	if hg.Fallback != nil {
		bindings = append(bindings, binding{"fallback", ruleObject(*hg.Fallback)})
	}
	return emitModule("regate/gen/hardguards.rego", "regate.gen.hardguards", sources, bindings)
}

func compileAgents(srcs []Source, home string, out *Output) (Module, error) {
	agents := map[string]any{}
	var sources []string
	for _, src := range srcs {
		sources = append(sources, src.Name)
		var d diags
		a := parseAgent(src.Name, src.Data, &d)
		out.Diagnostics = append(out.Diagnostics, d.list...)
		if fatal := d.list.Fatal(); len(fatal) > 0 {
			name := agentName(src.Name)
			agents[name] = map[string]any{"surfaces": map[string]any{}, "floors": faultFloor("<invalid-agent-file>", fatal)}
			continue
		}
		entry := map[string]any{}
		fallback, surfaces := permissionData(&a.Permission, home)
		if fallback != nil {
			entry["fallback"] = fallback
		}
		entry["surfaces"] = surfaces
		agents[a.Name] = entry
	}
	return emitModule("regate/gen/agents.rego", "regate.gen.agents", sources, []binding{{"agents", agents}})
}
