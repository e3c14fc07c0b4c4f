package e2e

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// OpenCode: opencode run headless, an OpenAI-compatible provider and the
// fake MCP server in the project's opencode.json, every permission allowed
// by OpenCode itself (so only regate stands in the way); regate install
// opencode writes its plugin and loader into ~/.config/opencode.
func TestOpenCode(t *testing.T) {
	t.Parallel()
	runHost(t, &host{
		name:     "opencode",
		bin:      "opencode",
		settings: ".config/opencode/plugin/regate.ts",
		pkg:      "opencode-ai",
		timeout:  120 * time.Second,
		wire:     chatWire,
		pick:     pickOpenCode,
		edit: func(r *hostRun, c toolCall) []wireCall {
			// OpenCode edits only a file read in the session.
			path := filepath.Join(r.work, c.file)
			return []wireCall{
				{name: "read", args: map[string]any{"filePath": path}},
				{name: "edit", args: map[string]any{"filePath": path, "oldString": c.old, "newString": c.content}},
			}
		},
		configure: func(r *hostRun, sc scenario) {
			for k, v := range map[string]string{
				// OpenCode npm-installs @opencode-ai/plugin for the config
				// folders; offline, npm's retries wait ~70 s.
				"npm_config_fetch_retries":      "0",
				"OPENCODE_DISABLE_MODELS_FETCH": "1",
				"OPENCODE_DISABLE_AUTOUPDATE":   "1",
				"OPENCODE_DISABLE_SHARE":        "1",
				"OPENCODE_DISABLE_LSP_DOWNLOAD": "1",
			} {
				r.setenv(k, v)
			}
			if out, err := exec.Command("git", "init", "-q", r.work).CombinedOutput(); err != nil {
				r.t.Fatalf("git init: %v\n%s", err, out)
			}
			r.writeJSON(filepath.Join(r.work, "opencode.json"), map[string]any{
				"$schema":     "https://opencode.ai/config.json",
				"model":       "fake/fake-model",
				"small_model": "fake/fake-model",
				"autoupdate":  false,
				"share":       "disabled",
				"permission":  map[string]any{"*": "allow"},
				"provider": map[string]any{"fake": map[string]any{
					"npm":     "@ai-sdk/openai-compatible",
					"options": map[string]any{"baseURL": r.url + "/v1", "apiKey": "e2e-fake"},
					"models": map[string]any{"fake-model": map[string]any{
						"tool_call": true, "limit": map[string]any{"context": 128000, "output": 4096},
					}},
				}},
				"mcp": map[string]any{"fake": map[string]any{
					"type": "local", "command": []string{fakeMCPBin, r.work}, "enabled": true,
				}},
			})
		},
		argv: func(r *hostRun) []string {
			return []string{"opencode", "run", "go"}
		},
	})
}

// pickOpenCode maps a scenario's call to OpenCode's tools.
func pickOpenCode(r *hostRun, c toolCall, offered []string) (wireCall, error) {
	switch c.kind {
	case callBash:
		return wireCall{name: "bash", args: map[string]any{"command": c.command, "description": "e2e"}}, nil
	case callMCP:
		name, err := offeredMCP(offered, c.tool)
		return wireCall{name: name, args: map[string]any{"name": c.file}}, err
	case callWrite:
		return wireCall{name: "write", args: map[string]any{"filePath": filepath.Join(r.work, c.file), "content": c.content}}, nil
	}
	return wireCall{}, fmt.Errorf("opencode: no tool for %q", c.kind)
}
