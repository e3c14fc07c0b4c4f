package e2e

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Codex: codex exec headless, a custom model provider on the Responses API
// at the fake, the fake MCP server in config.toml; regate install codex
// writes PreToolUse and PermissionRequest into $CODEX_HOME/hooks.json.
// Codex skips a hook nobody trusted: install --trust records the trust
// through codex app-server, as Codex's own /hooks does.
func TestCodex(t *testing.T) {
	t.Parallel()
	runHost(t, &host{
		name:         "codex",
		bin:          "codex",
		settings:     ".codex/hooks.json",
		pkg:          "@openai/codex",
		timeout:      60 * time.Second,
		wire:         responsesWire,
		installFlags: []string{"--trust"},
		pick:         pickCodex,
		edit: func(r *hostRun, c toolCall) []wireCall {
			before := strings.TrimSuffix(r.sc.seed, "\n")
			after := strings.Replace(before, c.old, c.content, 1)
			patch := "*** Begin Patch\n*** Update File: " + c.file + "\n@@\n-" + before + "\n+" + after + "\n*** End Patch\n"
			return []wireCall{{name: "apply_patch", input: patch}}
		},
		configure: func(r *hostRun, sc scenario) {
			codexHome := filepath.Join(r.home, ".codex")
			r.setenv("CODEX_HOME", codexHome)
			r.setenv("FAKE_OPENAI_KEY", "sk-e2e-fake")
			// gpt-5.5 is in Codex's bundled catalog: only such models are
			// offered apply_patch.
			r.writeFile(filepath.Join(codexHome, "config.toml"), fmt.Sprintf(`model = "gpt-5.5"
model_provider = "fake"
check_for_update_on_startup = false

# Offline, the metrics export to ab.chatgpt.com waits 5 s at exit.
[analytics]
enabled = false

[otel]
metrics_exporter = "none"

[features]
plugins = false
apps = false
remote_plugin = false

[model_providers.fake]
name = "fake"
base_url = "%s/v1"
wire_api = "responses"
env_key = "FAKE_OPENAI_KEY"
request_max_retries = 0
stream_max_retries = 0

[mcp_servers.fake]
command = %q
args = [%q]
`, r.url, fakeMCPBin, r.work))
		},
		argv: func(r *hostRun) []string {
			// Without -s the sandbox is read-only, and an allowing hook
			// does not lift it.
			return []string{"codex", "exec", "--json", "--skip-git-repo-check", "-s", "danger-full-access", "go"}
		},
	})
}
