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
	"time"

	"github.com/spf13/cobra"

	"github.com/regate/regate/hosts"
)

type installParams struct {
	write   bool
	project bool
	force   bool
	trust   bool
	policy  string
	// hardGuards is the hard-guards file the hook reads beside the policy.
	hardGuards string
	bin        string
	deadline   time.Duration
	// codex is the Codex executable --trust talks to.
	codex string
}

func newInstallCmd(a *app) *cobra.Command {
	p := &installParams{}
	cmd := &cobra.Command{
		Use:   "install HOST",
		Short: "print (or, with --write, merge) the host settings that register regate's hook",
		Long: `install prints the host's settings with regate's hook registered for every tool, or with
--write merges it into the file: Claude Code's ~/.claude/settings.json (PreToolUse and
PermissionRequest), Codex's ~/.codex/hooks.json (the same events), Gemini CLI's
~/.gemini/settings.json (BeforeTool), GitHub Copilot CLI's ~/.copilot/hooks/regate.json
(preToolUse), OpenCode's plugin in ~/.config/opencode/plugin/; with --project, the project's
file in the current directory instead (.github/hooks/regate.json for Copilot CLI,
.opencode/plugin/ for OpenCode). The user's other settings, hooks and comments are
kept, and regate's earlier entry is replaced.

The hook carries regate's own --deadline; the host's timeout is written in the host's unit
(Gemini CLI: milliseconds) at three times the deadline, so regate always answers first.

With --hard-guards the hook reads that hard-guards file too.

install refuses what would make the hook fail open or break: a policy or hard-guards file that
is missing or does not compile, a regate executable in a temporary or build-cache folder (go run), and with
--project anything machine-specific (the policy must lie inside the project; the hook runs
regate from PATH). --force writes anyway, with a warning. It then prints the host's next step
(restart it; Codex: trust the hook in /hooks, or --trust) and a command that proves the hook
fires. docs/install.md has the details.`,
		Example: `  regate install claude --policy ~/.config/regate/policy.jsonc --write
  regate install codex --policy ~/.config/regate/policy.jsonc --write --trust
  regate install gemini --project --policy .regate/policy.jsonc --write`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runInstall(cmd.Context(), p, args[0], a.stdout, a.stderr)
		},
	}
	fl := cmd.Flags()
	fl.BoolVar(&p.write, "write", false, "merge into the settings file instead of printing it")
	fl.BoolVar(&p.project, "project", false, "the project's settings file (in the current directory) instead of the user's")
	fl.StringVar(&p.policy, "policy", "", "the policy the hook decides with (default: the bundled default policy)")
	fl.StringVar(&p.hardGuards, "hard-guards", "", "the hard-guards file the hook reads too (regate init writes one beside the policy)")
	fl.DurationVar(&p.deadline, "deadline", defaultHookDeadline, "the hook's own deadline; the host's timeout is set to three times it")
	fl.BoolVar(&p.force, "force", false, "write even what install would refuse, with a warning")
	fl.StringVar(&p.bin, "bin", "", "the regate executable the hook runs (default: this one; with --project, regate from PATH)")
	fl.BoolVar(&p.trust, "trust", false, "codex: also record trust for regate's hooks, as Codex's /hooks does (needs --write)")
	fl.StringVar(&p.codex, "codex", "codex", "codex: the Codex executable --trust runs (codex app-server)")
	return cmd
}

// hostTimeout is the timeout install writes for a hook with this deadline:
// three times it, and at least ten seconds more, so the hook's own block
// always arrives before the host gives up on it.
func hostTimeout(deadline time.Duration) time.Duration {
	t := 3 * deadline
	if t < deadline+10*time.Second {
		t = deadline + 10*time.Second
	}
	return t
}

// runInstall writes (or prints) host's settings with regate's hook. A
// problem that would leave the host running tools unguarded is an error,
// or with --force a warning on stderr.
func runInstall(ctx context.Context, p *installParams, host string, stdout, stderr io.Writer) error {
	if p.deadline <= 0 {
		return withCode(exitUsage, fmt.Errorf("--deadline must be a positive duration"))
	}
	if p.trust && (host != "codex" || !p.write) {
		return withCode(exitUsage, fmt.Errorf("--trust records Codex's hook trust and needs --write: regate install codex --write --trust"))
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return withCode(exitFault, err)
	}
	dir, err := os.Getwd()
	if err != nil {
		return withCode(exitFault, err)
	}
	var path string
	if host == "opencode" {
		path = openCodeDir(home, dir, p.project)
	} else if path, err = settingsFile(host, home, dir, p.project); err != nil {
		return withCode(exitUsage, err)
	}
	plan, problems := planInstall(ctx, p, host, dir)
	if len(problems) > 0 {
		if !p.force {
			return withCode(exitUsage, fmt.Errorf("install refuses, because the hook would not guard every call:\n  - %s\n(--force writes it anyway)",
				strings.Join(problems, "\n  - ")))
		}
		for _, pr := range problems {
			fmt.Fprintf(stderr, "regate: warning (--force): %s\n", pr)
		}
	}
	if host == "opencode" {
		return installOpenCode(p, plan, path, stdout, stderr)
	}
	old, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return withCode(exitFault, err)
	}
	merged, err := hosts.InstallHook(host, old, hosts.Hook{Command: plan.command, Timeout: hostTimeout(p.deadline), Dir: plan.dir})
	if err != nil {
		return withCode(exitUsage, fmt.Errorf("%s: %w", path, err))
	}
	for _, w := range hosts.InstallWarnings(host, merged) {
		fmt.Fprintf(stderr, "regate: warning: %s\n", w)
	}
	if !p.write {
		if _, err := stdout.Write(merged); err != nil {
			return err
		}
		fmt.Fprintf(stderr, "regate: this is %s with regate's hook; --write merges it there\n", path)
		return nil
	}
	if err := writeFileAtomic(path, merged, p.project); err != nil {
		return withCode(exitFault, err)
	}
	fmt.Fprintf(stdout, "regate's hook is registered in %s (deadline %s, host timeout %s)\n", path, p.deadline, hostTimeout(p.deadline))
	trusted := false
	if p.trust {
		n, err := trustCodexHooks(ctx, p.codex, home, dir, path)
		if err != nil {
			return withCode(exitFault, fmt.Errorf("the hook is written but Codex's trust was not recorded, so Codex will not run it: %w", err))
		}
		fmt.Fprintf(stdout, "Codex trusts regate's %d hooks (recorded in its config.toml)\n", n)
		trusted = true
	}
	printNextSteps(stdout, host, p, plan, trusted)
	return nil
}

// settingsFile is where install writes host's hook.
func settingsFile(host, home, dir string, project bool) (string, error) {
	if !project {
		// Codex and Copilot CLI move their user folder where these say.
		if ch := os.Getenv("CODEX_HOME"); host == "codex" && ch != "" {
			return filepath.Join(ch, "hooks.json"), nil
		}
		if ch := os.Getenv("COPILOT_HOME"); host == "copilot" && ch != "" {
			return filepath.Join(ch, "hooks", hosts.Tag+".json"), nil
		}
	}
	return hosts.SettingsPath(host, home, dir, project)
}

// writeFileAtomic replaces path with data through a file beside it, so a
// host starting meanwhile reads the old settings or the new, never half.
// An existing file keeps its mode; a new one is the user's alone (user
// settings may hold keys), or readable by all in a project (shared).
func writeFileAtomic(path string, data []byte, shared bool) error {
	dirMode, mode := fs.FileMode(0o700), fs.FileMode(0o600)
	if shared {
		dirMode, mode = 0o755, 0o644
	}
	if err := os.MkdirAll(filepath.Dir(path), dirMode); err != nil {
		return err
	}
	if st, err := os.Stat(path); err == nil {
		mode = st.Mode().Perm()
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".regate-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(mode); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

func shellQuoteArg(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t\n'\"\\$`;&|<>(){}*?!#~[]=%") {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
