package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"

	"github.com/regate/regate/hosts"
)

// openCodeDir is OpenCode's config folder: the project's .opencode, or the
// user's $XDG_CONFIG_HOME/opencode (~/.config/opencode), which OpenCode
// uses on every system.
func openCodeDir(home, dir string, project bool) string {
	if project {
		return filepath.Join(dir, ".opencode")
	}
	if x := os.Getenv("XDG_CONFIG_HOME"); x != "" {
		return filepath.Join(x, "opencode")
	}
	return filepath.Join(home, ".config", "opencode")
}

// installOpenCode writes (or lists) regate's OpenCode plugin and its loader
// into OpenCode's config folder base.
func installOpenCode(p *installParams, plan installPlan, base string, stdout, stderr io.Writer) error {
	files, err := hosts.InstallOpenCode(hosts.OpenCodeSettings{
		Bin: plan.binArg, Policy: plan.policyArg, Deadline: p.deadline, Timeout: hostTimeout(p.deadline),
	})
	if err != nil {
		return withCode(exitUsage, err)
	}
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	if !p.write {
		for _, name := range names {
			fmt.Fprintf(stdout, "==> %s <==\n", filepath.Join(base, name))
			if name == hosts.OpenCodeLoader {
				stdout.Write(files[name])
			} else {
				fmt.Fprintf(stdout, "(regate's plugin, %d bytes)\n", len(files[name]))
			}
		}
		fmt.Fprintf(stderr, "regate: these are the files regate writes into %s; --write writes them\n", base)
		return nil
	}
	for _, name := range names {
		if err := writeFileAtomic(filepath.Join(base, name), files[name], p.project); err != nil {
			return withCode(exitFault, err)
		}
	}
	fmt.Fprintf(stdout, "regate's plugin is installed in %s (deadline %s, plugin timeout %s)\n",
		filepath.Join(base, hosts.OpenCodeLoader), p.deadline, hostTimeout(p.deadline))
	printNextSteps(stdout, "opencode", p, plan, false)
	return nil
}
