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

	"github.com/regate/regate/cmd/regate/internal/statedir"
	"github.com/regate/regate/compiler"
	"github.com/regate/regate/facts"
	"github.com/regate/regate/internal/printable"
	"github.com/regate/regate/internal/rulefile"
	"github.com/regate/regate/policies"
	"github.com/regate/regate/runtime"
)

// ruleFlags are the flags that name rule files, shared by the commands that
// compile them.
type ruleFlags struct {
	policy     string
	hardGuards string
	agentFiles []string
	agentDirs  []string
	home       string
	pi         bool
	// cwd is where project agent files are found (<cwd>/.pi/agents).
	cwd string
	// logDirs are the decision-log folders the command writes, which the
	// self floor guards with the rest (selfguard.go).
	logDirs []string
}

func (f *ruleFlags) bind(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.StringVar(&f.policy, "policy", "", "policy.jsonc to use (default: the bundled default policy)")
	fl.StringVar(&f.hardGuards, "hard-guards", "", "hard-guards.jsonc to use")
	fl.StringArrayVar(&f.agentFiles, "agent-file", nil, "agent Markdown file (repeatable); the agent is the file's base name")
	fl.StringArrayVar(&f.agentDirs, "agents-dir", nil, "folder of agent Markdown files (repeatable; later folders override earlier ones)")
	fl.StringVar(&f.home, "home", "", "home directory that ~ expands to (default: the current user's)")
	fl.BoolVar(&f.pi, "pi", false, "load the rule files from where Pi keeps them (docs/policy.md, \"The files\"): $PI_CODING_AGENT_DIR (default ~/.pi/agent)/my-pi/permission-system/{policy,hard-guards}.jsonc, its agents/*.md and <cwd>/.pi/agents/*.md")
}

// piLocations fills in Pi's places for every rule file the user did
// not name with a flag. Files that do not exist are left out.
func (f *ruleFlags) piLocations() error {
	home := f.home
	if home == "" {
		var err error
		if home, err = os.UserHomeDir(); err != nil {
			return withCode(exitBadRules, err)
		}
	}
	agentDir := piAgentDir(home)
	dir := filepath.Join(agentDir, "my-pi", "permission-system")
	exists := func(p string) bool { _, err := os.Stat(p); return err == nil }
	if p := filepath.Join(dir, "policy.jsonc"); f.policy == "" && exists(p) {
		f.policy = p
	}
	if p := filepath.Join(dir, "hard-guards.jsonc"); f.hardGuards == "" && exists(p) {
		f.hardGuards = p
	}
	cwd := f.cwd
	if cwd == "" {
		cwd, _ = os.Getwd()
	}
	// Global agents first: a project agent file of the same name replaces it.
	f.agentDirs = append([]string{filepath.Join(agentDir, "agents"), filepath.Join(cwd, ".pi", "agents")}, f.agentDirs...)
	return nil
}

// piAgentDir is Pi's agent folder: $PI_CODING_AGENT_DIR, else ~/.pi/agent.
func piAgentDir(home string) string {
	if d := os.Getenv("PI_CODING_AGENT_DIR"); d != "" {
		return d
	}
	return filepath.Join(home, ".pi", "agent")
}

// input reads the named rule files. A file that cannot be read is an error
// (exit 2): regate never silently runs without a file the user named.
func (f *ruleFlags) input() (compiler.Input, error) {
	var in compiler.Input
	if f.pi {
		if err := f.piLocations(); err != nil {
			return in, err
		}
	}
	if f.policy == "" && f.pi {
		// Pi's places hold no policy: the built-in fallback asks.
	} else if f.policy == "" {
		in.Policy = &compiler.Source{Name: "policies/" + policies.DefaultName, Data: policies.Default()}
	} else {
		src, err := readSource(f.policy)
		if err != nil {
			return in, err
		}
		in.Policy = src
	}
	if f.hardGuards != "" {
		src, err := readSource(f.hardGuards)
		if err != nil {
			return in, err
		}
		in.HardGuards = src
	}
	for _, dir := range f.agentDirs {
		files, err := agentFiles(dir)
		if err != nil {
			return in, withCode(exitBadRules, err)
		}
		for _, p := range files {
			src, err := readSource(p)
			if err != nil {
				return in, err
			}
			in.Agents = append(in.Agents, *src)
		}
	}
	for _, p := range f.agentFiles {
		src, err := readSource(p)
		if err != nil {
			return in, err
		}
		in.Agents = append(in.Agents, *src)
	}
	return in, nil
}

// The identities of the policies that are not a file (policyID).
const (
	defaultPolicyID  = "builtin:default"  // no --policy: the bundled default policy
	fallbackPolicyID = "builtin:fallback" // --pi and no policy file there: the built-in fallback
)

// policyID names the policy the flags chose, as session approvals are
// filed under it (cmd/regate/internal/statedir): the policy file's absolute, cleaned
// path with its links resolved, so that policy.jsonc given in its folder,
// ./policy.jsonc, its absolute path and a link to it are one policy; or
// one of the built-in identities. It is valid after input(), which fills
// in Pi's places.
func (f *ruleFlags) policyID() (string, error) {
	switch {
	case f.policy != "":
		abs, err := filepath.Abs(f.policy)
		if err != nil {
			return "", withCode(exitFault, fmt.Errorf("the policy's absolute path: %w", err))
		}
		if resolved, err := filepath.EvalSymlinks(abs); err == nil {
			abs = resolved
		}
		return filepath.Clean(abs), nil
	case f.pi:
		return fallbackPolicyID, nil
	}
	return defaultPolicyID, nil
}

// policyLabel is a policy identity in words.
func policyLabel(id string) string {
	switch id {
	case defaultPolicyID:
		return "the bundled default policy (no --policy)"
	case fallbackPolicyID:
		return "no policy file (--pi found none; the built-in fallback asks)"
	}
	return "policy " + id
}

// agentFiles lists a folder's agent files (*.md) in name order. The
// folder is listed, never globbed: a folder whose name holds [, * or ?
// names only itself.
func agentFiles(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil // as a glob of a missing folder: no agents
	}
	if err != nil {
		return nil, err
	}
	var files []string
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".md") {
			files = append(files, filepath.Join(dir, e.Name()))
		}
	}
	return files, nil // ReadDir sorts by name
}

// readSource reads a rule file: a regular file only, opened without
// waiting (a FIFO or a device at the path is an error, not a hang), and
// no larger than the compiler takes (rulefile.Read).
func readSource(path string) (*compiler.Source, error) {
	b, err := rulefile.Read(path, compiler.MaxFileSize)
	if err != nil && !errors.Is(err, rulefile.ErrTooLarge) {
		return nil, withCode(exitBadRules, err)
	}
	// A file past the limit: what was read goes to the compiler, whose
	// file_too_large diagnostic fails the layer closed, as before.
	return &compiler.Source{Name: path, Data: b}, nil
}

// compile reads and compiles the rule files, printing every diagnostic to
// w. Diagnostics never stop a decision: the file fails closed instead.
// extra adds compiler options (check and export add the precedence lint).
func (f *ruleFlags) compile(w io.Writer, extra ...compiler.Option) (*compiler.Output, error) {
	return f.compileIn(w, nil, extra...)
}

// compileIn is compile through a state folder: rule files compiled by an
// earlier process are read back instead (nil: always compile).
func (f *ruleFlags) compileIn(w io.Writer, state *statedir.Dir, extra ...compiler.Option) (*compiler.Output, error) {
	in, err := f.input()
	if err != nil {
		return nil, err
	}
	in.Guarded = f.guarded(in, state.Root(), f.logDirs)
	opts := append([]compiler.Option(nil), extra...)
	if f.home != "" {
		opts = append(opts, compiler.WithHome(f.home))
	}
	var out *compiler.Output
	if state != nil {
		out, _, err = state.Compile(in, opts...)
	} else {
		out, err = compiler.Compile(in, opts...)
	}
	if err != nil {
		return nil, withCode(exitFault, err)
	}
	printDiagnostics(w, out.Diagnostics)
	return out, nil
}

// metaIn is compileIn for a caller that may need only the policy's
// metadata: with a state folder, what an earlier process compiled is read
// back as metadata, and load reads (or compiles) the rules when a decision
// needs them (runtime.WithLoader). Without one, the rules are compiled now
// and load returns them.
func (f *ruleFlags) metaIn(w io.Writer, state *statedir.Dir) (meta *compiler.Output, load func() (*compiler.Output, error), err error) {
	if state == nil {
		out, err := f.compileIn(w, nil)
		return out, func() (*compiler.Output, error) { return out, nil }, err
	}
	in, err := f.input()
	if err != nil {
		return nil, nil, err
	}
	in.Guarded = f.guarded(in, state.Root(), f.logDirs)
	var opts []compiler.Option
	if f.home != "" {
		opts = append(opts, compiler.WithHome(f.home))
	}
	meta, load, err = state.Meta(in, opts...)
	if err != nil {
		return nil, nil, withCode(exitFault, err)
	}
	printDiagnostics(w, meta.Diagnostics)
	return meta, load, nil
}

// printDiagnostics prints one line per diagnostic. A diagnostic quotes
// what it read (a key, a file name from an agents folder), so every
// character that is not printable is escaped: a rule file cannot add a line
// to the output or reach the terminal as a control sequence.
func printDiagnostics(w io.Writer, ds compiler.Errors) {
	for _, d := range ds {
		fmt.Fprintln(w, printable.String(d.Error()))
	}
}

// workingDir is the working directory a --cwd flag names, else the
// process's own.
func workingDir(flag string) (string, error) {
	if flag != "" {
		return flag, nil
	}
	cwd, err := os.Getwd()
	if err != nil {
		return "", withCode(exitFault, err)
	}
	return cwd, nil
}

// engine builds an engine for the compiled rules.
func engine(ctx context.Context, out *compiler.Output, cwd string, fsys facts.FS) (*runtime.Engine, error) {
	opts := []runtime.Option{runtime.WithCwd(cwd)}
	if fsys != nil {
		opts = append(opts, runtime.WithFS(fsys))
	}
	e, err := runtime.New(ctx, out, opts...)
	if err != nil {
		return nil, withCode(exitFault, err)
	}
	return e, nil
}

// watched are the rule files and folders to watch for edits.
func (f *ruleFlags) watched() []string {
	var out []string
	for _, p := range []string{f.policy, f.hardGuards} {
		if p != "" {
			out = append(out, p)
		}
	}
	out = append(out, f.agentFiles...)
	return append(out, f.agentDirs...)
}
