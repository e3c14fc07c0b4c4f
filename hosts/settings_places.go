package hosts

import "path/filepath"

// Place is a file or folder a host reads that registers or configures
// regate's hook, which the self floor guards (docs/self-protection.md).
type Place struct {
	// Path is absolute, ~/…, or */… for a place in any project.
	Path string
	// What the place is, as a prompt names it.
	What string
	// Folder: everything inside Path is such a place too (a folder of
	// hooks or extensions, where any new file is loaded).
	Folder bool
}

// SettingsPlaces are every host's settings, hook and extension places, at
// user and project level, as each host's source reads them (docs/hosts.md):
// an agent that edits one can unregister the gate or run code outside it.
// getenv reads the variables that move a host's user folder (CODEX_HOME,
// COPILOT_HOME, XDG_CONFIG_HOME, PI_CODING_AGENT_DIR); home is the user's.
func SettingsPlaces(home string, getenv func(string) string) []Place {
	dir := func(env, def string) string {
		if v := getenv(env); v != "" {
			return v
		}
		return filepath.Join(home, def)
	}
	codex := dir("CODEX_HOME", ".codex")
	copilot := dir("COPILOT_HOME", ".copilot")
	opencode := filepath.Join(dir("XDG_CONFIG_HOME", ".config"), "opencode")
	pi := dir("PI_CODING_AGENT_DIR", filepath.Join(".pi", "agent"))
	places := []Place{
		{Path: filepath.Join(home, ".claude", "settings.json"), What: "Claude Code's user settings, which register hooks"},
		{Path: filepath.Join(home, ".claude", "settings.local.json"), What: "Claude Code's local user settings, which register hooks"},
		{Path: "/etc/claude-code/managed-settings.json", What: "Claude Code's managed settings, which register hooks"},
		{Path: "*/.claude/settings.json", What: "Claude Code's project settings, which register hooks"},
		{Path: "*/.claude/settings.local.json", What: "Claude Code's local project settings, which register hooks"},
		{Path: filepath.Join(codex, "hooks.json"), What: "Codex's hooks, which register regate's hook"},
		{Path: filepath.Join(codex, "config.toml"), What: "Codex's configuration, which turns hooks on and off"},
		{Path: "*/.codex/hooks.json", What: "Codex's project hooks, which register regate's hook"},
		{Path: "*/.codex/config.toml", What: "Codex's project configuration, which turns hooks on and off"},
		{Path: filepath.Join(home, ".gemini", "settings.json"), What: "Gemini CLI's user settings, which register hooks"},
		{Path: "/etc/gemini-cli/settings.json", What: "Gemini CLI's system settings, which register hooks"},
		{Path: "*/.gemini/settings.json", What: "Gemini CLI's project settings, which register hooks"},
		{Path: filepath.Join(copilot, "hooks"), What: "Copilot CLI's hook folder, where regate's hook is registered", Folder: true},
		{Path: filepath.Join(copilot, "config.json"), What: "Copilot CLI's configuration, which may register hooks"},
		{Path: filepath.Join(copilot, "settings.json"), What: "Copilot CLI's settings, which may register hooks"},
		{Path: "*/.github/hooks", What: "the repository's Copilot hook folder, where regate's hook is registered", Folder: true},
		{Path: filepath.Join(opencode, "plugin"), What: "OpenCode's plugin folder, where regate's plugin is loaded", Folder: true},
		{Path: filepath.Join(opencode, "plugins"), What: "OpenCode's plugin folder, where plugins are loaded", Folder: true},
		{Path: filepath.Join(opencode, Tag), What: "regate's OpenCode plugin", Folder: true},
		{Path: filepath.Join(opencode, "opencode.json"), What: "OpenCode's configuration, which loads plugins"},
		{Path: filepath.Join(opencode, "opencode.jsonc"), What: "OpenCode's configuration, which loads plugins"},
		{Path: "*/.opencode/plugin", What: "the project's OpenCode plugin folder, where regate's plugin is loaded", Folder: true},
		{Path: "*/.opencode/plugins", What: "the project's OpenCode plugin folder, where plugins are loaded", Folder: true},
		{Path: "*/.opencode/" + Tag, What: "regate's OpenCode plugin in the project", Folder: true},
		{Path: "*/opencode.json", What: "the project's OpenCode configuration, which loads plugins"},
		{Path: "*/opencode.jsonc", What: "the project's OpenCode configuration, which loads plugins"},
		{Path: filepath.Join(pi, "extensions"), What: "Pi's extension folder, where regate's extension is loaded", Folder: true},
		{Path: filepath.Join(pi, "settings.json"), What: "Pi's settings, which load extensions"},
		{Path: "*/.pi/extensions", What: "the project's Pi extension folder", Folder: true},
		{Path: "*/.pi/settings.json", What: "the project's Pi settings, which load extensions"},
	}
	return places
}
