package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/regate/regate/hosts"
	"github.com/regate/regate/hosts/importrules"
	"github.com/regate/regate/policies"
)

type initParams struct {
	dir   string
	force bool
	// write also registers the hook (install --write); without it init
	// prints what install would write.
	write bool
	bin   string
}

func newInitCmd(a *app) *cobra.Command {
	p := &initParams{}
	cmd := &cobra.Command{
		Use:   "init [HOST]",
		Short: "write a starter policy.jsonc and hard-guards.jsonc, importing the host's own permission rules",
		Long: `init writes the starter rule files, policy.jsonc (the bundled default policy, with its comments)
and hard-guards.jsonc, into regate's folder ($XDG_CONFIG_HOME/regate, default ~/.config/regate; --dir
names another), and refuses to overwrite either unless --force.

With HOST (claude, codex or gemini), it first reads the permission rules the host already has and
writes them into the starter files, printing each one with its file:line:col and the regate rule it
became, and each one it left out with why: Claude Code's permissions.allow, ask and deny (user and
project settings), Gemini CLI's policy files and settings, Codex's .rules files. Where regate cannot
keep a rule's meaning exactly, the import never loosens: a deny or ask may become wider (the line
says how) or is reported, an allow is left out rather than widened, and a deny becomes a hard guard.
docs/init.md has the table of every host's rule form.

It then checks the files (as regate check) and shows what regate install HOST would write to
register the hook with them; --write registers it. copilot and opencode take no import.`,
		Example: `  regate init claude
  regate init claude --write
  regate init gemini --dir .regate --force`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			host := ""
			if len(args) == 1 {
				host = args[0]
			}
			return runInit(cmd.Context(), p, host, a.stdout, a.stderr)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&p.dir, "dir", "", "the folder to write policy.jsonc and hard-guards.jsonc into (default $XDG_CONFIG_HOME/regate, else ~/.config/regate)")
	fl.BoolVar(&p.force, "force", false, "overwrite existing rule files")
	fl.BoolVar(&p.write, "write", false, "also register the hook in HOST's settings (regate install HOST --write)")
	fl.StringVar(&p.bin, "bin", "", "the regate executable the hook runs (as install --bin)")
	return cmd
}

// configDir is where init writes the rule files by default.
func configDir(home string) string {
	if x := os.Getenv("XDG_CONFIG_HOME"); x != "" {
		return filepath.Join(x, "regate")
	}
	return filepath.Join(home, ".config", "regate")
}

func runInit(ctx context.Context, p *initParams, host string, stdout, stderr io.Writer) error {
	if host != "" && !slices.Contains(hosts.Names(), host) {
		return withCode(exitUsage, fmt.Errorf("init knows no host %q; use %s", host, strings.Join(hosts.Names(), ", ")))
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return withCode(exitFault, err)
	}
	cwd, err := os.Getwd()
	if err != nil {
		return withCode(exitFault, err)
	}
	dir := p.dir
	if dir == "" {
		dir = configDir(home)
	}
	if dir, err = filepath.Abs(dir); err != nil {
		return withCode(exitFault, err)
	}
	policyPath, guardsPath := filepath.Join(dir, "policy.jsonc"), filepath.Join(dir, "hard-guards.jsonc")
	if !p.force {
		for _, f := range []string{policyPath, guardsPath} {
			if _, err := os.Lstat(f); err == nil {
				return withCode(exitUsage, fmt.Errorf("%s already exists; init leaves it alone (--force overwrites it)", f))
			} else if !errors.Is(err, fs.ErrNotExist) {
				return withCode(exitFault, err)
			}
		}
	}

	var res importrules.Result
	if host != "" && slices.Contains(importrules.Hosts(), host) {
		if res, err = importrules.Import(host, home, cwd); err != nil {
			return withCode(exitUsage, fmt.Errorf("reading %s's rules: %w", hostTitle(host), err))
		}
		printImport(stdout, host, res)
	} else if host != "" {
		fmt.Fprintf(stdout, "%s keeps no permission rules regate reads; the starter files are the bundled ones.\n", hostTitle(host))
	}
	guards, err := policies.FS.ReadFile("hard-guards.jsonc")
	if err != nil {
		return withCode(exitFault, err)
	}
	st, err := importrules.Apply(policies.Default(), guards, res)
	if err != nil {
		return withCode(exitFault, err)
	}
	st.Policy, err = dropFailingExamples(ctx, policyPath, guardsPath, st, stdout)
	if err != nil {
		return err
	}
	if len(st.Changes) > 0 {
		fmt.Fprintln(stdout, "Changes to the starter's own rules:")
		for _, c := range st.Changes {
			fmt.Fprintf(stdout, "  %s\n", c)
		}
	}
	for _, f := range []struct {
		path string
		data []byte
	}{{policyPath, st.Policy}, {guardsPath, st.HardGuards}} {
		if err := writeFileAtomic(f.path, f.data, false); err != nil {
			return withCode(exitFault, err)
		}
		fmt.Fprintf(stdout, "wrote %s\n", f.path)
	}

	fmt.Fprintf(stdout, "regate check %s %s:\n", shellQuoteArg(policyPath), shellQuoteArg(guardsPath))
	checked := &checkParams{}
	if err := runCheck(ctx, checked, []string{policyPath, guardsPath}, indented{stdout}); err != nil {
		return err
	}
	if host == "" {
		fmt.Fprintf(stdout, "Next: register the hook, for example\n  regate install claude --policy %s --hard-guards %s --write\n",
			shellQuoteArg(policyPath), shellQuoteArg(guardsPath))
		return nil
	}
	ip := &installParams{write: p.write, policy: policyPath, hardGuards: guardsPath, bin: p.bin, deadline: defaultHookDeadline, codex: "codex"}
	if !p.write {
		fmt.Fprintf(stdout, "regate install %s --policy %s --hard-guards %s would write (--write writes it):\n",
			host, shellQuoteArg(policyPath), shellQuoteArg(guardsPath))
	}
	if err := runInstall(ctx, ip, host, stdout, stderr); err != nil {
		if p.write {
			return err
		}
		// A dry run that install would refuse is worth knowing, not a
		// failure of init: the rule files are written.
		var ee *exitError
		if errors.As(err, &ee) && ee.err != nil {
			err = ee.err
		}
		fmt.Fprintf(stdout, "%s\n", err)
	}
	return nil
}

// hostTitle is a host's name as its makers write it.
func hostTitle(host string) string {
	switch host {
	case "claude":
		return "Claude Code"
	case "codex":
		return "Codex"
	case "gemini":
		return "Gemini CLI"
	case "copilot":
		return "Copilot CLI"
	case "opencode":
		return "OpenCode"
	}
	return host
}

// indented writes every line two spaces in.
type indented struct{ w io.Writer }

func (i indented) Write(b []byte) (int, error) {
	s := strings.TrimSuffix(string(b), "\n")
	out := "  " + strings.ReplaceAll(s, "\n", "\n  ") + "\n"
	if _, err := io.WriteString(i.w, out); err != nil {
		return 0, err
	}
	return len(b), nil
}
