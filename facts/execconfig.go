package facts

import (
	"path"
	"strings"
)

// Files that configure execution (docs/strict.md). Writing one of them and
// then running an allowed program (git status, npm test, make, a new shell)
// is one call that runs anything: .git/hooks/pre-commit runs on the next
// commit, a "test" script in package.json on npm test, a line in ~/.bashrc
// in every later shell. Under strict mode a write to one of them asks even
// where writes are allowed: the write and edit checks of such a path carry a
// strict reason (Check.Strict), which floors an allow to ask and leaves a
// deny or an ask as it is. Without strict mode nothing changes.
//
// A path is matched on every spelling of its check (referenced and
// canonical, so a link cannot hide the file it writes), in any case (macOS
// folds case by default). An entry "anywhere" matches the path's last
// components in any folder, since make -C, cd sub && npm test and a nested
// repository read the file wherever it lies; an entry "in the home" matches
// below the user's home; an entry "at the root" is an absolute path (an agent
// running as root in a container). A last component "**" stands for the
// folder and anything below it. A home file whose path is a link (a
// dotfiles manager's ~/.bashrc -> ~/dotfiles/bashrc) is matched at its
// target as well.

// execPlace is where an entry's pattern is anchored.
type execPlace int

const (
	anywhere execPlace = iota // the last components of a path in any folder
	inHome                    // below the user's home
	atRoot                    // an absolute path
)

// execConfig is one file, or one folder ("**"), that configures what a
// program runs, and what runs it (the reason's tail).
type execConfig struct {
	place   execPlace
	pattern string // lower case; each component a path.Match glob
	runs    string
}

const (
	gitRuns   = "git runs: hooks, and the commands its configuration names (core.fsmonitor on git status, core.pager, aliases, filters)"
	npmRuns   = "npm, pnpm and yarn run: its scripts (npm test, npm run) and the lifecycle scripts of npm install"
	makeRuns  = "make runs: its recipes, and $(shell …) while reading it"
	shellRuns = "the shell runs: every later bash, zsh or login session sources it"
	pathRuns  = "the shell runs: it is on PATH, so a file there named git or ls runs in place of that program"
	pyRuns    = "Python runs: pip and build run the build backend and setup.py, pytest imports conftest.py and the plugins its configuration names (addopts -p)"
	hostRuns  = "the coding agent's host runs: the hook and MCP server commands it names"
)

// execConfigs is the list, as data; docs/strict.md gives it with reasons.
var execConfigs = [...]execConfig{
	// Git.
	{anywhere, ".git/**", gitRuns},
	{anywhere, "*.git/hooks/**", "git runs a bare repository's hooks on push"},
	{anywhere, "*.git/config", gitRuns},
	{anywhere, ".gitattributes", "git runs the filter, diff and merge drivers it assigns to paths (git-lfs is one)"},
	{anywhere, ".husky/**", "git runs them as hooks (husky sets core.hooksPath to .husky)"},
	{anywhere, ".githooks/**", "git runs them as hooks where core.hooksPath names the folder"},
	{anywhere, ".pre-commit-config.yaml", "pre-commit, installed as a git hook, runs the hooks it lists on git commit"},
	{inHome, ".gitconfig", gitRuns},
	{inHome, ".config/git/**", gitRuns},
	{atRoot, "etc/gitconfig", gitRuns},

	// JavaScript.
	{anywhere, "package.json", npmRuns},
	{anywhere, ".npmrc", "npm runs: script-shell and node-options name what runs every script"},
	{anywhere, ".yarnrc", "yarn runs: yarn-path names the JavaScript that runs as yarn"},
	{anywhere, ".yarnrc.yml", "yarn runs: yarnPath names the JavaScript that runs as yarn, plugins are JavaScript"},
	{anywhere, ".pnpmfile.cjs", "pnpm runs its hooks on install"},
	{anywhere, "pnpm-workspace.yaml", "pnpm runs: its settings (scriptShell, dangerouslyAllowAllBuilds, configDependencies) decide what install and run execute"},
	{anywhere, "node_modules/.bin/**", "npm, pnpm and yarn run: scripts run with node_modules/.bin first on PATH"},
	{inHome, ".config/pnpm/**", "pnpm runs: its global settings decide what install and run execute"},

	// Build files: the program that reads them runs what they say.
	{anywhere, "makefile", makeRuns},
	{anywhere, "gnumakefile", makeRuns},
	{anywhere, "*.mk", makeRuns},
	{anywhere, "justfile", "just runs its recipes"},
	{anywhere, ".justfile", "just runs its recipes"},
	{anywhere, "taskfile.yml", "task runs its tasks"},
	{anywhere, "taskfile.yaml", "task runs its tasks"},
	{anywhere, "cmakelists.txt", "cmake runs execute_process while configuring"},
	{anywhere, "rakefile", "rake runs it (Ruby)"},
	{anywhere, "gemfile", "bundler evaluates it (Ruby) on bundle install and bundle exec"},
	{anywhere, "build.gradle", "gradle runs it (Groovy)"},
	{anywhere, "build.gradle.kts", "gradle runs it (Kotlin)"},
	{anywhere, "settings.gradle", "gradle runs it (Groovy)"},
	{anywhere, "settings.gradle.kts", "gradle runs it (Kotlin)"},
	{anywhere, "gradle/wrapper/gradle-wrapper.properties", "./gradlew downloads and runs the distribution it names"},
	{anywhere, "pom.xml", "maven runs the plugins it names (exec-maven-plugin runs any program)"},
	{anywhere, "cargo.toml", "cargo runs the build script it names (cargo check included)"},
	{anywhere, "build.rs", "cargo runs it before building (cargo check included)"},
	{anywhere, ".cargo/config.toml", "cargo runs: runner, rustc-wrapper and aliases name programs"},
	{anywhere, ".cargo/config", "cargo runs: runner, rustc-wrapper and aliases name programs"},

	// Python.
	{anywhere, "pyproject.toml", pyRuns},
	{anywhere, "setup.py", pyRuns},
	{anywhere, "setup.cfg", pyRuns},
	{anywhere, "pytest.ini", pyRuns},
	{anywhere, "tox.ini", "tox runs the commands it lists; pytest reads its addopts"},
	{anywhere, "noxfile.py", "nox runs it"},
	{anywhere, "conftest.py", pyRuns},
	{anywhere, "site-packages/*.pth", "Python runs a .pth file's import lines at every start"},
	{anywhere, "site-packages/sitecustomize.py", "Python imports it at every start"},
	{anywhere, "site-packages/usercustomize.py", "Python imports it at every start"},
	{anywhere, "dist-packages/*.pth", "Python runs a .pth file's import lines at every start"},
	{anywhere, "dist-packages/sitecustomize.py", "Python imports it at every start"},

	// Environments entered with the folder.
	{anywhere, ".envrc", "direnv runs it in the shell on entering the folder (once allowed)"},
	{anywhere, "mise.toml", "mise runs its hooks and tasks, and sources the files its env names"},
	{anywhere, ".mise.toml", "mise runs its hooks and tasks, and sources the files its env names"},
	{anywhere, ".vscode/tasks.json", "VS Code runs its tasks, some on opening the folder"},
	{anywhere, ".vscode/settings.json", "VS Code runs: settings name the terminal's shell, its environment and tool paths"},

	// Coding agents and regate itself.
	{anywhere, ".claude/settings.json", hostRuns},
	{anywhere, ".claude/settings.local.json", hostRuns},
	{anywhere, ".mcp.json", hostRuns},
	{anywhere, ".codex/config.toml", hostRuns},
	{anywhere, ".gemini/settings.json", hostRuns},
	{anywhere, ".cursor/mcp.json", hostRuns},
	{anywhere, ".vscode/mcp.json", hostRuns},
	{anywhere, "opencode.json", hostRuns},
	{anywhere, "opencode.jsonc", hostRuns},
	{anywhere, ".opencode/**", "opencode runs its plugins (JavaScript) and the commands its configuration names"},
	{inHome, ".claude.json", hostRuns},
	{inHome, ".copilot/**", hostRuns},
	{inHome, ".config/opencode/**", "opencode runs its plugins (JavaScript) and the commands its configuration names"},
	{anywhere, ".regate/**", "regate decides every later call by it: a policy written here allows what it likes"},
	{inHome, ".config/regate/**", "regate decides every later call by it: a policy written here allows what it likes"},

	// Shells and the user's session.
	{inHome, ".bashrc", shellRuns},
	{inHome, ".bash_profile", shellRuns},
	{inHome, ".bash_login", shellRuns},
	{inHome, ".bash_logout", "bash runs it when a login shell exits"},
	{inHome, ".bash_aliases", shellRuns},
	{inHome, ".profile", shellRuns},
	{inHome, ".zshrc", shellRuns},
	{inHome, ".zshenv", "every zsh sources it, scripts included"},
	{inHome, ".zprofile", shellRuns},
	{inHome, ".zlogin", shellRuns},
	{inHome, ".zlogout", "zsh runs it when a login shell exits"},
	{inHome, ".config/fish/**", "fish sources config.fish, conf.d and functions"},
	{inHome, ".config/environment.d/**", "systemd sets the session's environment from it (PATH, LD_PRELOAD)"},
	{inHome, ".config/systemd/user/**", "systemd runs user units and timers"},
	{inHome, ".config/autostart/**", "the desktop session runs them at login"},
	{inHome, ".local/bin/**", pathRuns},
	{inHome, "bin/**", pathRuns},
	{inHome, ".config/direnv/**", "direnv sources direnvrc in every .envrc"},
	{inHome, ".direnvrc", "direnv sources it in every .envrc"},
	{inHome, ".config/mise/**", "mise runs its hooks and tasks in every folder"},
	{inHome, ".lessfilter", "lesspipe (LESSOPEN on Debian and Ubuntu) runs it for every file less opens"},
	{inHome, ".vimrc", "vim runs it, also as the editor of git commit"},
	{inHome, ".config/nvim/**", "neovim runs it, also as the editor of git commit"},
	{inHome, ".mavenrc", "mvn sources it"},
	{inHome, ".gradle/init.d/**", "gradle runs init scripts before every build"},
	{inHome, ".gradle/init.gradle", "gradle runs it before every build"},
	{inHome, ".gradle/init.gradle.kts", "gradle runs it before every build"},

	// Programs whose configuration names a command to run.
	{inHome, ".ssh/**", "ssh runs ProxyCommand, LocalCommand and Match exec from config, rc at login, and authorized_keys grants logins and their commands"},
	{inHome, ".config/gh/**", "gh runs aliases that start with !"},
	{inHome, ".docker/config.json", "docker runs the credential helpers it names"},
	{inHome, ".kube/config", "kubectl runs the exec credential plugins it names"},
	{inHome, ".aws/config", "the AWS CLI and SDKs run credential_process"},

	// The system, for an agent running as root.
	{atRoot, "etc/profile", shellRuns},
	{atRoot, "etc/profile.d/**", shellRuns},
	{atRoot, "etc/bash.bashrc", shellRuns},
	{atRoot, "etc/bashrc", shellRuns},
	{atRoot, "etc/zshenv", shellRuns},
	{atRoot, "etc/zshrc", shellRuns},
	{atRoot, "etc/zsh/**", shellRuns},
	{atRoot, "etc/environment", "PAM sets every session's environment from it"},
	{atRoot, "etc/ld.so.preload", "the dynamic linker loads it into every program"},
	{atRoot, "etc/crontab", "cron runs it"},
	{atRoot, "etc/cron.*/**", "cron runs them"},
	{atRoot, "var/spool/cron/**", "cron runs them"},
	{atRoot, "etc/systemd/**", "systemd runs units and timers"},
	{atRoot, "usr/local/bin/**", pathRuns},
	{atRoot, "usr/local/sbin/**", pathRuns},
}

// execPattern is an entry's pattern compiled once: its components, and
// which of them are globs (the others are compared as strings).
type execPattern struct {
	parts []string
	glob  []bool
}

// execIndex is the list compiled once, so that a write, which every
// redirect is, costs a map lookup and a few comparisons: the anywhere
// entries by their last component when it is a name, the others to scan,
// and the home files without a glob by their name without a leading dot
// (linkedHomeFile).
type execIndex struct {
	patterns       [len(execConfigs)]execPattern
	byLast         map[string][]int
	scan           []int
	home, root     []int
	homeFileByName map[string][]int
}

var execConfigIndex = func() *execIndex {
	x := &execIndex{byLast: map[string][]int{}, homeFileByName: map[string][]int{}}
	for i, c := range execConfigs {
		p := execPattern{parts: splitPath(c.pattern)}
		for _, part := range p.parts {
			p.glob = append(p.glob, strings.ContainsAny(part, "*?["))
		}
		x.patterns[i] = p
		last := len(p.parts) - 1
		switch {
		case c.place == anywhere && !p.glob[last] && p.parts[last] != "**":
			x.byLast[p.parts[last]] = append(x.byLast[p.parts[last]], i)
		case c.place == anywhere:
			x.scan = append(x.scan, i)
		case c.place == inHome:
			x.home = append(x.home, i)
			if !strings.ContainsAny(c.pattern, "*?[") {
				name := strings.TrimPrefix(p.parts[last], ".")
				x.homeFileByName[name] = append(x.homeFileByName[name], i)
			}
		default:
			x.root = append(x.root, i)
		}
	}
	return x
}()

// execConfigReason is the strict reason of a write to the path whose check
// is c, or "" when the path configures nothing that runs.
func (e *Env) execConfigReason(c Check) string {
	home := strings.ToLower(path.Clean(e.Home))
	for _, g := range c.Forms {
		for _, s := range g {
			if runs, ok := e.execConfigOf(s, home); ok {
				return "writing " + c.Value + " configures code that " + runs
			}
		}
	}
	return ""
}

// execConfigOf matches one spelling of a written path against the list.
func (e *Env) execConfigOf(spelling, home string) (string, bool) {
	lower := strings.ToLower(spelling)
	comps := splitPath(lower)
	if len(comps) == 0 {
		return "", false
	}
	idx := execConfigIndex
	for _, i := range idx.byLast[comps[len(comps)-1]] {
		// Without "**" a pattern can only be the path's last components.
		if start := len(comps) - len(idx.patterns[i].parts); start >= 0 && matchComponents(&idx.patterns[i], comps[start:]) {
			return execConfigs[i].runs, true
		}
	}
	for _, i := range idx.scan {
		pat := &idx.patterns[i]
		if pat.parts[len(pat.parts)-1] != "**" {
			if start := len(comps) - len(pat.parts); start >= 0 && matchComponents(pat, comps[start:]) {
				return execConfigs[i].runs, true
			}
			continue
		}
		for start := range comps {
			if matchComponents(pat, comps[start:]) {
				return execConfigs[i].runs, true
			}
		}
	}
	if !path.IsAbs(lower) {
		return "", false
	}
	if rest, ok := strings.CutPrefix(lower, home+"/"); ok && e.Home != "" {
		below := splitPath(rest)
		for _, i := range idx.home {
			if matchComponents(&idx.patterns[i], below) {
				return execConfigs[i].runs, true
			}
		}
	}
	for _, i := range idx.root {
		if matchComponents(&idx.patterns[i], comps) {
			return execConfigs[i].runs, true
		}
	}
	if e.Home != "" {
		return e.linkedHomeFile(spelling)
	}
	return "", false
}

// matchComponents reports whether the pattern's components match comps
// exactly, a last "**" matching any number of them (none included).
func matchComponents(pat *execPattern, comps []string) bool {
	for i, p := range pat.parts {
		if p == "**" && i == len(pat.parts)-1 {
			return true
		}
		if i >= len(comps) {
			return false
		}
		if !pat.glob[i] {
			if p != comps[i] {
				return false
			}
		} else if ok, _ := path.Match(p, comps[i]); !ok {
			return false
		}
	}
	return len(pat.parts) == len(comps)
}

// linkedHomeFile matches a written path against the home files of the list
// that are links to it: a dotfiles manager (GNU stow, a bare dotfiles repo
// with links) keeps ~/.bashrc as a link to a file elsewhere, and writing that
// file writes the shell's start-up file. Only a home file whose name is the
// written file's (a leading dot aside) is resolved, so an ordinary write
// costs no system call.
func (e *Env) linkedHomeFile(written string) (string, bool) {
	name := strings.TrimPrefix(strings.ToLower(path.Base(written)), ".")
	for _, i := range execConfigIndex.homeFileByName[name] {
		entry := path.Join(e.Home, execConfigs[i].pattern)
		target, err := Canonical(e.fs(), entry)
		if err == nil && target != entry && strings.EqualFold(target, written) {
			return execConfigs[i].runs, true
		}
	}
	return "", false
}

// markExecConfigWrite gives the check of a write or edit tool on its own
// surface the strict reason of the path it writes, if any.
func (e *Env) markExecConfigWrite(tool string, checks []Check) {
	if tool != "write" && tool != "edit" {
		return
	}
	for i := range checks {
		if checks[i].Surface == tool && checks[i].Malformed == "" {
			if why := e.execConfigReason(checks[i]); why != "" {
				checks[i].Strict = why
			}
		}
	}
}
