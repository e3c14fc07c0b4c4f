package hosts

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/tailscale/hujson"
)

var testHook = Hook{Command: "/usr/local/bin/regate hook HOST --deadline 10s", Timeout: 30 * time.Second}

func hookFor(host string) Hook {
	h := testHook
	h.Command = strings.Replace(h.Command, "HOST", host, 1)
	return h
}

// decode reads installed settings back as the host would (JSONC for
// Gemini CLI), failing the test when they are not readable.
func decode(t *testing.T, b []byte) map[string]any {
	t.Helper()
	std, err := hujson.Standardize(append([]byte(nil), b...))
	if err != nil {
		t.Fatalf("the settings do not parse: %v\n%s", err, b)
	}
	var doc map[string]any
	if err := json.Unmarshal(std, &doc); err != nil {
		t.Fatalf("the settings do not decode: %v\n%s", err, b)
	}
	return doc
}

// regateHandlers are the handlers of regate's entries under hooks[event].
func regateHandlers(t *testing.T, doc map[string]any, event string) []map[string]any {
	t.Helper()
	hooks, _ := doc["hooks"].(map[string]any)
	list, _ := hooks[event].([]any)
	var out []map[string]any
	for _, g := range list {
		if h, ok := g.(map[string]any); ok && h["type"] != nil {
			// Copilot CLI: the list holds handlers, not matcher groups.
			if IsRegateHandler(h) || strings.Contains(h["bash"].(string), "regate") {
				out = append(out, h)
			}
			continue
		}
		group, _ := g.(map[string]any)
		hs, _ := group["hooks"].([]any)
		for _, h := range hs {
			if m, _ := h.(map[string]any); m != nil && IsRegateHandler(m) {
				out = append(out, m)
			}
		}
	}
	return out
}

// Each host reads its hook timeout in its own unit: Gemini CLI in
// milliseconds (it wrote 30, i.e. 30 ms, and Gemini runs the tool when a
// hook times out), the others in seconds. Sources: docs/install.md.
func TestInstallTimeoutUnits(t *testing.T) {
	for _, c := range []struct {
		host, event, key string
		want             float64
	}{
		{"claude", "PreToolUse", "timeout", 30},
		{"claude", "PermissionRequest", "timeout", 30},
		{"codex", "PreToolUse", "timeout", 30},
		{"gemini", "BeforeTool", "timeout", 30000},
		{"copilot", "preToolUse", "timeoutSec", 30},
	} {
		out, err := InstallHook(c.host, nil, hookFor(c.host))
		if err != nil {
			t.Fatalf("%s: %v", c.host, err)
		}
		hs := regateHandlers(t, decode(t, out), c.event)
		if len(hs) != 1 {
			t.Fatalf("%s %s: %d regate handlers:\n%s", c.host, c.event, len(hs), out)
		}
		if got, _ := hs[0][c.key].(float64); got != c.want {
			t.Errorf("%s %s: %s = %v, want %v", c.host, c.event, c.key, hs[0][c.key], c.want)
		}
	}
	// A timeout is rounded up, never down to a shorter one.
	out, _ := InstallHook("claude", nil, Hook{Command: "regate hook claude", Timeout: 1500 * time.Millisecond})
	if hs := regateHandlers(t, decode(t, out), "PreToolUse"); hs[0]["timeout"] != float64(2) {
		t.Errorf("1.5 s became %v seconds", hs[0]["timeout"])
	}
}

// Gemini CLI's settings.json is JSONC: install must take what Gemini takes
// (comments, trailing commas), keep the user's comments and settings, and
// write a file that is still JSONC Gemini reads.
func TestInstallGeminiKeepsJSONC(t *testing.T) {
	old := []byte(`{
  // my model
  "model": {"name": "gemini-2.5-pro",},
  /* hooks I wrote */
  "hooks": {
    "BeforeTool": [
      {"matcher": "write_file", "hooks": [{"type": "command", "command": "lint.sh"}]}, // linter
    ],
  },
}
`)
	once, err := InstallHook("gemini", old, hookFor("gemini"))
	if err != nil {
		t.Fatalf("refused the JSONC Gemini CLI reads: %v", err)
	}
	for _, want := range []string{"// my model", "/* hooks I wrote */", "// linter", `"lint.sh"`, `"gemini-2.5-pro"`} {
		if !strings.Contains(string(once), want) {
			t.Errorf("lost %s:\n%s", want, once)
		}
	}
	doc := decode(t, once)
	if hs := regateHandlers(t, doc, "BeforeTool"); len(hs) != 1 || hs[0]["name"] != Tag {
		t.Errorf("regate's handlers: %v\n%s", hs, once)
	}
	twice, err := InstallHook("gemini", once, hookFor("gemini"))
	if err != nil || string(twice) != string(once) {
		t.Errorf("installing twice changed the settings (%v):\n%s\n---\n%s", err, once, twice)
	}
}

// regate's entry is found by its tag, not by the executable's name: an
// entry installed from a binary named otherwise is replaced, not joined by
// a second one; the older untagged "regate hook" command too.
func TestInstallReplacesItsOwnEntryByTag(t *testing.T) {
	for _, c := range []struct{ host, event, old string }{
		{"gemini", "BeforeTool", `{"hooks": {"BeforeTool": [{"matcher": "*", "hooks": [{"type": "command", "name": "regate", "command": "/home/u/bin/rg8 hook gemini", "timeout": 30}]}]}}`},
		{"claude", "PreToolUse", `{"hooks": {"PreToolUse": [{"matcher": "*", "hooks": [{"type": "command", "command": "/opt/gate/gate-1.2 hook claude", "statusMessage": "regate: checking the tool call"}]}]}}`},
		{"codex", "PreToolUse", `{"hooks": {"PreToolUse": [{"matcher": "*", "hooks": [{"type": "command", "command": "/x/regate hook codex", "timeout": 30}]}]}}`},
	} {
		out, err := InstallHook(c.host, []byte(c.old), hookFor(c.host))
		if err != nil {
			t.Fatalf("%s: %v", c.host, err)
		}
		hs := regateHandlers(t, decode(t, out), c.event)
		if len(hs) != 1 || hs[0]["command"] != hookFor(c.host).Command {
			t.Errorf("%s: regate's handlers after reinstalling: %v\n%s", c.host, hs, out)
		}
	}
}

// A group that holds the user's hook beside regate's keeps the user's.
func TestInstallKeepsTheUsersHookInAMixedGroup(t *testing.T) {
	old := `{"hooks": {"PreToolUse": [{"matcher": "*", "hooks": [{"type": "command", "command": "audit.sh"}, {"type": "command", "command": "/x/regate hook claude"}]}]}}`
	out, err := InstallHook("claude", []byte(old), hookFor("claude"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), `"audit.sh"`) || strings.Contains(string(out), "/x/regate") {
		t.Errorf("mixed group:\n%s", out)
	}
	if hs := regateHandlers(t, decode(t, out), "PreToolUse"); len(hs) != 1 {
		t.Errorf("%d regate handlers:\n%s", len(hs), out)
	}
}

// Settings regate cannot edit safely are refused, never overwritten.
func TestInstallRefusesSettingsItCannotEdit(t *testing.T) {
	for _, c := range []struct{ host, old string }{
		{"claude", `{not json`},
		{"claude", `[1, 2]`},
		{"claude", `{"hooks": [1]}`},
		{"claude", `{"hooks": {"PreToolUse": {"matcher": "*"}}}`},
		{"claude", "{\n  // Claude Code reads no comments\n}"},
		{"gemini", `{"hooks": "none"}`},
		{"nobody", `{}`},
	} {
		if out, err := InstallHook(c.host, []byte(c.old), hookFor(c.host)); err == nil {
			t.Errorf("%s %s: written:\n%s", c.host, c.old, out)
		}
	}
}

// Copilot CLI's hook file is regate's alone, in Copilot's own layout.
func TestInstallCopilotFile(t *testing.T) {
	h := hookFor("copilot")
	h.Dir = "."
	out, err := InstallHook("copilot", []byte(`{"stale": true}`), h)
	if err != nil {
		t.Fatal(err)
	}
	want := `{
  "version": 1,
  "hooks": {
    "preToolUse": [
      {
        "type": "command",
        "bash": "/usr/local/bin/regate hook copilot --deadline 10s",
        "cwd": ".",
        "timeoutSec": 30
      }
    ]
  }
}
`
	if string(out) != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
}

func TestInstallWarnings(t *testing.T) {
	for _, c := range []struct {
		host, settings, want string
	}{
		{"claude", `{"disableAllHooks": true}`, "disableAllHooks"},
		{"gemini", `{"hooksConfig": {"enabled": false}}`, "hooksConfig"},
		{"gemini", "{\"hooksConfig\": {\"disabled\": [\"regate\",]}, // mine\n}", "skips regate's hook"},
	} {
		ws := InstallWarnings(c.host, []byte(c.settings))
		if len(ws) != 1 || !strings.Contains(ws[0], c.want) {
			t.Errorf("%s %s: %v", c.host, c.settings, ws)
		}
	}
	if ws := InstallWarnings("gemini", []byte(`{"hooksConfig": {"enabled": true}}`)); len(ws) != 0 {
		t.Errorf("warned %v", ws)
	}
}
