package hosts

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"path"
	"strings"
	"time"
)

// opencodePlugin is regate's OpenCode plugin (hosts/opencode/regate.ts).
//
//go:embed opencode/regate.ts
var opencodePlugin []byte

// OpenCode has no settings hook: install writes two files into its config
// folder (a project's .opencode/, or ~/.config/opencode/). OpenCode loads
// every plugin/*.ts as a plugin, so the loader there is the only file it
// runs; the plugin itself lies beside it in regate/, where OpenCode does
// not look, and the loader calls it with the installed settings. The
// loader is regate's alone (Tag + ".ts"), so installing again replaces it.
const (
	OpenCodeLoader = "plugin/" + Tag + ".ts"
	OpenCodePlugin = Tag + "/" + Tag + ".ts"
)

// OpenCodeSettings are what the loader passes to regate's plugin.
type OpenCodeSettings struct {
	// Bin is the regate the plugin runs: a path, or "regate" from PATH.
	Bin string
	// Policy is the --policy file (empty: regate's default policy). A
	// relative one is taken from the project folder, the loader's
	// grandparent, wherever OpenCode runs.
	Policy string
	// Deadline is regate's own --deadline; Timeout is how long the plugin
	// waits for regate before it blocks the call itself.
	Deadline, Timeout time.Duration
}

// InstallOpenCode returns the files install writes for OpenCode, keyed by
// their path in its config folder.
func InstallOpenCode(s OpenCodeSettings) (map[string][]byte, error) {
	if s.Bin == "" || s.Deadline <= 0 || s.Timeout <= s.Deadline {
		return nil, fmt.Errorf("hosts: OpenCode's plugin needs regate's path, a deadline and a longer timeout")
	}
	str := func(v string) string { b, _ := json.Marshal(v); return string(b) }
	policy := "undefined"
	switch {
	case s.Policy == "":
	case path.IsAbs(s.Policy) || strings.HasPrefix(s.Policy, "/"):
		policy = str(s.Policy)
	default:
		policy = "fileURLToPath(new URL(" + str("../../"+s.Policy) + ", import.meta.url))"
	}
	loader := fmt.Sprintf(`// Written by regate install opencode: it runs regate's plugin (%s, beside
// this folder) with the settings below. Install again to change them; see
// regate's docs/install.md.
import { fileURLToPath } from "node:url";
import { RegatePlugin } from %s;

export const Regate = (ctx: any) =>
  RegatePlugin(ctx, {
    bin: %s,
    policy: %s,
    args: ["--deadline", %s],
    timeoutMs: %d,
  });
`, OpenCodePlugin, str("../"+OpenCodePlugin), str(s.Bin), policy, str(s.Deadline.String()), s.Timeout.Milliseconds())
	return map[string][]byte{
		OpenCodeLoader: []byte(loader),
		OpenCodePlugin: append([]byte(nil), opencodePlugin...),
	}, nil
}
