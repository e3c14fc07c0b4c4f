package compiler

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"os"
	"slices"

	regolib "github.com/regate/regate/rego"
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
	// Guarded are regate's own places, which the self floor guards whatever
	// the rules say (selfguard.go). None: no self floor.
	Guarded []Guarded
}

// Output is the compiled permission policy: small generated Rego modules
// and the compiled rule sets as data, which the runtime loads into OPA's
// store and `regate compile` writes as data.json files.
type Output struct {
	// Modules are the generated Rego modules, sorted by path.
	Modules []Module
	// Data is the compiled rule sets, rooted at data: Data["regate"]["rules"]
	// holds "policy", "hardguards" and "agents". They are kept apart from
	// the generated packages (regate.gen.*): OPA reads a prefix that holds
	// data only straight from the store, while one shared with rules is
	// merged on every reference.
	Data map[string]any
	// Diagnostics are every problem found, sorted by position. Errors made
	// their file fail closed; warnings did not change anything.
	Diagnostics Errors
	// Knobs are the runtime settings of the policy (defaults when the policy
	// failed to load).
	Knobs Knobs
	// Examples are the policy's inline examples: calls and the decisions
	// they must get.
	Examples []Example
	// ExampleDiagnostics are the problems of the inline examples, also in
	// Diagnostics. They are the one kind of error that leaves the rules in
	// force: a broken example is left out, and decides no call.
	ExampleDiagnostics Errors
	// Hash identifies the compiled policy: equal hashes, equal decisions.
	Hash string
	// Home is the home directory patterns were expanded against.
	Home string
}

// Option configures Compile.
type Option func(*options)

type options struct {
	home string
	lint bool
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
	o := resolveOptions(opts)
	out := &Output{Knobs: DefaultKnobs(), Home: o.home}

	var lint *budget // nil: no precedence lint
	if o.lint {
		lint = &budget{left: lintBudgetSteps}
	}
	spec := &decisionSpec{home: o.home, guardSelf: true}
	layers := []layer{
		compileAgents(in.Agents, o.home, lint, out, spec),
		compileHardGuards(in.HardGuards, o.home, out, spec),
		compilePolicy(in.Policy, o.home, lint, out, spec),
	}
	if len(in.Guarded) > 0 && spec.guardSelf {
		layers = append(layers, selfLayer(in.Guarded, o.home, spec))
	}
	gen := map[string]any{}
	for _, l := range layers {
		gen[l.name] = l.data
		spec.sources = append(spec.sources, l.sources...)
	}
	dm, err := emitDecision(spec)
	if err != nil {
		return nil, err
	}
	out.Modules = []Module{dm}
	out.Data = map[string]any{"regate": map[string]any{"rules": gen}}
	out.Diagnostics.Sort()

	out.Hash = inputHash(in, o.home)
	return out, nil
}

// inputHash identifies a compilation by what it read: compilation is
// deterministic (TestGolden compiles twice and compares), so equal inputs
// give equal modules and data, and hashing the inputs spares encoding the
// output, megabytes for a large policy. Version is part of it, so a new
// compiler never shares a hash with an old one.
func resolveOptions(opts []Option) options {
	o := options{}
	for _, opt := range opts {
		opt(&o)
	}
	if o.home == "" {
		o.home, _ = os.UserHomeDir()
	}
	return o
}

// InputHash is the Hash that Compile gives the output of in under opts,
// computed without compiling: a cache of compiled policies is keyed by it.
func InputHash(in Input, opts ...Option) string {
	o := resolveOptions(opts)
	return inputHash(in, o.home)
}

func inputHash(in Input, home string) string {
	h := sha256.New()
	field := func(b []byte) {
		fmt.Fprintf(h, "%d:", len(b))
		h.Write(b)
	}
	field([]byte(Version))
	field([]byte(regolib.Hash()))
	field([]byte(home))
	source := func(kind string, s *Source) {
		field([]byte(kind))
		if s == nil {
			field(nil)
			return
		}
		field([]byte(s.Name))
		field(s.Data)
	}
	source("policy", in.Policy)
	source("hard-guards", in.HardGuards)
	for i := range in.Agents {
		source("agent", &in.Agents[i])
	}
	for _, g := range in.Guarded {
		field([]byte("guarded"))
		field([]byte(g.Path))
		field([]byte(g.What))
		field([]byte(fmt.Sprint(g.Folder, g.Secret)))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Version names the compiler's output format; it changes whenever the
// generated modules or data change shape. A compiled policy's hash covers
// it and the library the generated decision is composed with, so that
// nothing compiled by another regate (a state folder's compiled policy, a
// stored decision) is taken for this one's.
const Version = "regate-compiler/4"

// layer is one compiled rule set: its name under data.regate.rules, the files
// it came from, and its data.
type layer struct {
	name    string
	sources []string
	data    map[string]any
}

func compilePolicy(src *Source, home string, lint *budget, out *Output, spec *decisionSpec) layer {
	var d diags
	var sources []string
	data := map[string]any{}
	pol := Policy{Knobs: DefaultKnobs()}
	if src != nil {
		sources = append(sources, src.Name)
		if n := parseJSONC(src.Name, src.Data, &d); n != nil {
			pol = decodePolicy(n, &d)
		}
	}
	// An example's errors are reported (check, test and bundle exit 2 on
	// them) but leave the rules in force: an example decides no call.
	out.Diagnostics = append(out.Diagnostics, pol.exampleDiags...)
	out.ExampleDiagnostics = pol.exampleDiags
	if fatal := d.List.Fatal(); len(fatal) > 0 {
		pol = Policy{Knobs: DefaultKnobs()}
		data["floors"] = faultFloor("<invalid-policy>", fatal)
		spec.policyFloors = faultFloor("<invalid-policy>", fatal)
	} else if lint != nil {
		lintPermission(&pol.Permission, home, lint, &d)
	}
	out.Diagnostics = append(out.Diagnostics, d.List...)
	out.Knobs = pol.Knobs
	out.Examples = pol.Examples
	fallback, surfaces := permissionData(&pol.Permission, home)
	if fallback != nil {
		data["fallback"] = fallback
	}
	data["surfaces"] = surfaces
	spec.policyConfirms, spec.policyMany = confirmsUsed(surfaces)
	data["yolo"] = pol.Knobs.YoloMode
	data["strict"] = pol.Knobs.Strict
	spec.policy, spec.strict, spec.yolo = pol.Permission, pol.Knobs.Strict, pol.Knobs.YoloMode
	if pol.Knobs.CaseInsensitive != nil {
		data["caseInsensitive"] = *pol.Knobs.CaseInsensitive
	}
	return layer{"policy", sources, data}
}

func compileHardGuards(src *Source, home string, out *Output, spec *decisionSpec) layer {
	var d diags
	var sources []string
	var hg Permission
	data := map[string]any{}
	if src != nil {
		sources = append(sources, src.Name)
		if n := parseJSONC(src.Name, src.Data, &d); n != nil {
			hg, spec.guardSelf = decodeHardGuards(n, &d)
		}
	}
	if fatal := d.List.Fatal(); len(fatal) > 0 {
		data["floors"] = faultFloor("<invalid-hard-guards>", fatal)
		spec.hardFloors = faultFloor("<invalid-hard-guards>", fatal)
	}
	out.Diagnostics = append(out.Diagnostics, d.List...)
	// A hard-guard "*" denies every call; it is a surface of its own kind, so
	// it is compiled as a catch-all on every surface a call can reach.
	spec.hard = hg
	_, surfaces := permissionData(&hg, home)
	data["surfaces"] = surfaces
	if hg.Fallback != nil {
		data["fallback"] = ruleObject(*hg.Fallback)
	}
	return layer{"hardguards", sources, data}
}

func compileAgents(srcs []Source, home string, lint *budget, out *Output, spec *decisionSpec) layer {
	agents := map[string]any{}
	specs := map[string]agentSpec{}
	var sources []string
	for _, src := range srcs {
		sources = append(sources, src.Name)
		var d diags
		a := parseAgent(src.Name, src.Data, &d)
		if lint != nil && a != nil && !d.Failed() {
			lintPermission(&a.Permission, home, lint, &d)
		}
		out.Diagnostics = append(out.Diagnostics, d.List...)
		if fatal := d.List.Fatal(); len(fatal) > 0 {
			name := agentName(src.Name)
			agents[name] = map[string]any{"surfaces": map[string]any{}, "floors": faultFloor("<invalid-agent-file>", fatal)}
			specs[name] = agentSpec{name: name, floors: faultFloor("<invalid-agent-file>", fatal)}
			continue
		}
		entry := map[string]any{}
		fallback, surfaces := permissionData(&a.Permission, home)
		if fallback != nil {
			entry["fallback"] = fallback
		}
		entry["surfaces"] = surfaces
		agents[a.Name] = entry
		specs[a.Name] = agentSpec{name: a.Name, perm: a.Permission}
	}
	for _, name := range slices.Sorted(maps.Keys(specs)) {
		spec.agents = append(spec.agents, specs[name])
	}
	return layer{"agents", sources, map[string]any{"agents": agents}}
}
