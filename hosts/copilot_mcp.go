package hosts

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
)

// copilotBuiltinServers are the MCP servers Copilot CLI ships.
var copilotBuiltinServers = []string{"github-mcp-server"}

// copilotServers lists the MCP servers Copilot CLI 1.0.102 reads for a
// session in cwd: the user's $COPILOT_HOME/mcp-config.json (default
// ~/.copilot), the workspace's .mcp.json (with or without the mcpServers
// wrapper) and .github/mcp.json, and its built-in GitHub server. A file that
// cannot be read adds nothing: its tools are then decided under their full
// name.
func copilotServers(cwd string) []string {
	home := os.Getenv("COPILOT_HOME")
	if home == "" {
		if h, err := os.UserHomeDir(); err == nil {
			home = filepath.Join(h, ".copilot")
		}
	}
	files := []string{}
	if home != "" {
		files = append(files, filepath.Join(home, "mcp-config.json"))
	}
	if cwd != "" {
		files = append(files, filepath.Join(cwd, ".mcp.json"), filepath.Join(cwd, ".github", "mcp.json"))
	}
	seen := map[string]bool{}
	for _, s := range copilotBuiltinServers {
		seen[s] = true
	}
	for _, f := range files {
		for _, s := range mcpConfigServers(f) {
			seen[s] = true
		}
	}
	out := make([]string, 0, len(seen))
	for s := range seen {
		out = append(out, s)
	}
	sort.Strings(out)
	return out
}

// maxMCPConfig bounds an MCP config file the hook reads.
const maxMCPConfig = 1 << 20

// mcpConfigServers are the server names of an MCP config file:
// {"mcpServers": {NAME: …}}, or {NAME: {"command"|"url": …}} without the
// wrapper.
func mcpConfigServers(file string) []string {
	st, err := os.Stat(file)
	if err != nil || !st.Mode().IsRegular() || st.Size() > maxMCPConfig {
		return nil
	}
	b, err := os.ReadFile(file)
	if err != nil {
		return nil
	}
	var cfg map[string]json.RawMessage
	if json.Unmarshal(b, &cfg) != nil {
		return nil
	}
	var servers map[string]json.RawMessage
	if raw, ok := cfg["mcpServers"]; ok {
		if json.Unmarshal(raw, &servers) != nil {
			return nil
		}
	} else {
		servers = cfg
	}
	var names []string
	for name, raw := range servers {
		var entry map[string]any
		if json.Unmarshal(raw, &entry) == nil && (entry["command"] != nil || entry["url"] != nil || entry["type"] != nil) {
			names = append(names, name)
		}
	}
	return names
}
