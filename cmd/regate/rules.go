package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"

	"github.com/spf13/cobra"

	"github.com/regate/regate/compiler"
	"github.com/regate/regate/facts"
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
}

func (f *ruleFlags) bind(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.StringVar(&f.policy, "policy", "", "policy.jsonc to use (default: the bundled default policy)")
	fl.StringVar(&f.hardGuards, "hard-guards", "", "hard-guards.jsonc to use")
	fl.StringArrayVar(&f.agentFiles, "agent-file", nil, "agent Markdown file (repeatable); the agent is the file's base name")
	fl.StringArrayVar(&f.agentDirs, "agents-dir", nil, "folder of agent Markdown files (repeatable; later folders override earlier ones)")
	fl.StringVar(&f.home, "home", "", "home directory that ~ expands to (default: the current user's)")
}

// input reads the named rule files. A file that cannot be read is an error
// (exit 2): regate never silently runs without a file the user named.
func (f *ruleFlags) input() (compiler.Input, error) {
	var in compiler.Input
	if f.policy == "" {
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
		files, err := filepath.Glob(filepath.Join(dir, "*.md"))
		if err != nil {
			return in, withCode(exitBadRules, err)
		}
		sort.Strings(files)
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

func readSource(path string) (*compiler.Source, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, withCode(exitBadRules, err)
	}
	return &compiler.Source{Name: path, Data: b}, nil
}

// compile reads and compiles the rule files, printing every diagnostic to
// w. Diagnostics never stop a decision: the file fails closed instead.
func (f *ruleFlags) compile(w io.Writer) (*compiler.Output, error) {
	in, err := f.input()
	if err != nil {
		return nil, err
	}
	var opts []compiler.Option
	if f.home != "" {
		opts = append(opts, compiler.WithHome(f.home))
	}
	out, err := compiler.Compile(in, opts...)
	if err != nil {
		return nil, withCode(exitFault, err)
	}
	printDiagnostics(w, out.Diagnostics)
	return out, nil
}

func printDiagnostics(w io.Writer, ds compiler.Errors) {
	for _, d := range ds {
		fmt.Fprintln(w, d.Error())
	}
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
