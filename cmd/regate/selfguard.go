package main

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/regate/regate/cmd/regate/internal/statedir"
	"github.com/regate/regate/compiler"
	"github.com/regate/regate/hosts"
)

// guarded are the places the self floor guards for a decision under these
// rule flags (docs/self-protection.md): every rule file read, by the path
// given and by its resolved path, the folders agent files are listed from,
// Pi's rule folder and the profile folders, regate's configuration, state
// and log folders (the default ones and those the flags name) with the
// state folder's key, and every host's settings that register the hook.
// Listed whether or not they exist: an agent that creates the policy file
// a hook would read next has written a rule.
func (f *ruleFlags) guarded(in compiler.Input, stateRoot string, logDirs []string) []compiler.Guarded {
	home := f.home
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	var out []compiler.Guarded
	add := func(g compiler.Guarded) {
		if g.Path == "" {
			return
		}
		abs, err := filepath.Abs(g.Path)
		if err != nil {
			return
		}
		g.Path = abs
		out = append(out, g)
		if resolved, err := filepath.EvalSymlinks(abs); err == nil && resolved != abs {
			g.Path = resolved
			out = append(out, g)
		}
	}
	place := func(p, what string, folder bool) { add(compiler.Guarded{Path: p, What: what, Folder: folder}) }
	state := func(root string) {
		if root == "" {
			return
		}
		place(root, "regate's state folder (compiled policies, session approvals)", true)
		add(compiler.Guarded{Path: filepath.Join(root, statedir.KeyFile), What: "the key that signs regate's approvals and logs", Secret: true})
	}
	if in.Policy != nil && !strings.HasPrefix(in.Policy.Name, "policies/") {
		place(in.Policy.Name, "the policy file regate decides with", false)
	}
	if in.HardGuards != nil {
		place(in.HardGuards.Name, "the hard-guards file regate decides with", false)
	}
	for _, a := range in.Agents {
		place(a.Name, "an agent file regate decides with", false)
	}
	for _, d := range f.agentDirs {
		place(d, "a folder of agent files regate decides with", true)
	}
	agentDir := piAgentDir(home)
	if f.pi {
		place(filepath.Join(agentDir, "my-pi", "permission-system"), "the folder of regate's rule files for Pi", true)
	}
	// Profile bindings choose the prompt a model is given (docs/profiles.md).
	place(filepath.Join(agentDir, "system-prompts"), "the folder of prompt profiles and their bindings", true)
	out = append(out, compiler.Guarded{Path: "*/.pi/system-prompts", What: "the project's prompt profiles and their bindings", Folder: true})
	config := os.Getenv("XDG_CONFIG_HOME")
	if config == "" {
		config = filepath.Join(home, ".config")
	}
	place(filepath.Join(config, "regate"), "regate's configuration folder", true)
	if root, err := statedir.DefaultRoot(); err == nil {
		state(root)
	}
	if f.home != "" {
		// Compiled for another home (regate bundle --home): that user's
		// state folder, where its own regate keeps its key.
		state(filepath.Join(f.home, ".cache", "regate"))
	}
	state(stateRoot)
	place(filepath.Join(home, ".local", "state", "regate"), "regate's log folder", true)
	for _, d := range logDirs {
		place(d, "regate's decision log folder", true)
	}
	for _, p := range hosts.SettingsPlaces(home, os.Getenv) {
		if strings.HasPrefix(p.Path, "*/") {
			out = append(out, compiler.Guarded{Path: p.Path, What: p.What, Folder: p.Folder})
			continue
		}
		place(p.Path, p.What, p.Folder)
	}
	return out
}
