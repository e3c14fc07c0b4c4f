package hosts

import (
	"encoding/json"
	"fmt"

	"github.com/tailscale/hujson"
)

// InstallWarnings lists the settings in a host's file that would keep
// regate's hook from running although it is registered: Claude Code's
// disableAllHooks, Gemini CLI's hooksConfig.enabled and hooksConfig.disabled
// (which lists hooks by name).
func InstallWarnings(host string, settings []byte) []string {
	std, err := hujson.Standardize(append([]byte(nil), settings...))
	if err != nil {
		return nil
	}
	var doc map[string]any
	if json.Unmarshal(std, &doc) != nil {
		return nil
	}
	var out []string
	switch host {
	case "claude":
		if v, _ := doc["disableAllHooks"].(bool); v {
			out = append(out, `the settings say "disableAllHooks": true, so Claude Code runs no hook, regate's included`)
		}
	case "gemini":
		cfg, _ := doc["hooksConfig"].(map[string]any)
		if v, ok := cfg["enabled"].(bool); ok && !v {
			out = append(out, `the settings say "hooksConfig": {"enabled": false}, so Gemini CLI runs no hook, regate's included`)
		}
		disabled, _ := cfg["disabled"].([]any)
		for _, d := range disabled {
			if d == Tag {
				out = append(out, fmt.Sprintf(`the settings' hooksConfig.disabled lists %q, so Gemini CLI skips regate's hook`, Tag))
			}
		}
	}
	return out
}
