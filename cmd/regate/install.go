package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/regate/regate/hosts"
)

type installParams struct {
	write   bool
	project bool
	policy  string
}

func newInstallCmd(a *app) *cobra.Command {
	p := &installParams{}
	cmd := &cobra.Command{
		Use:   "install HOST",
		Short: "print (or, with --write, merge) the host settings that register regate's hook",
		Long: `install prints the host's settings file with regate's hook registered for every tool:
Claude Code's ~/.claude/settings.json (PreToolUse and PermissionRequest), Codex's
~/.codex/hooks.json (the same events), Gemini CLI's ~/.gemini/settings.json (BeforeTool); with
--project, the project's file in the current directory instead. With --write it merges them into
the file. The user's other settings and hooks are kept, and an earlier regate hook is replaced.`,
		Example: `  regate install claude --policy ~/.config/regate/policy.jsonc --write
  regate install gemini --project`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			home, err := os.UserHomeDir()
			if err != nil {
				return withCode(exitFault, err)
			}
			dir, err := os.Getwd()
			if err != nil {
				return withCode(exitFault, err)
			}
			path, err := hosts.SettingsPath(args[0], home, dir, p.project)
			if err != nil {
				return withCode(exitUsage, err)
			}
			old, err := os.ReadFile(path)
			if err != nil && !errors.Is(err, fs.ErrNotExist) {
				return withCode(exitFault, err)
			}
			self, err := os.Executable()
			if err != nil {
				self = "regate"
			}
			command := shellQuoteArg(self) + " hook " + args[0]
			if p.policy != "" {
				abs, err := filepath.Abs(p.policy)
				if err != nil {
					return withCode(exitUsage, err)
				}
				command += " --policy " + shellQuoteArg(abs)
			}
			merged, err := hosts.Install(args[0], old, command)
			if err != nil {
				return withCode(exitUsage, err)
			}
			if !p.write {
				_, err := a.stdout.Write(merged)
				return err
			}
			if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
				return withCode(exitFault, err)
			}
			if err := os.WriteFile(path, merged, 0o600); err != nil {
				return withCode(exitFault, err)
			}
			fmt.Fprintf(a.stdout, "regate's hook is registered in %s\n", path)
			return nil
		},
	}
	cmd.Flags().BoolVar(&p.write, "write", false, "merge into the settings file instead of printing it")
	cmd.Flags().BoolVar(&p.project, "project", false, "the project's settings file (in the current directory) instead of the user's")
	cmd.Flags().StringVar(&p.policy, "policy", "", "the policy the hook decides with (default: the bundled default policy)")
	return cmd
}

func shellQuoteArg(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t'\"\\$`;&|<>(){}*?!#~") {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
