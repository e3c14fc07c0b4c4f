package hosts

import (
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// A Hook is regate's hook as install registers it in a host.
type Hook struct {
	// Command is the shell command the host runs.
	Command string
	// Timeout is how long the host lets the command run before it gives up
	// on it. Several hosts then run the tool anyway (Gemini CLI, Claude
	// Code on a non-blocking error), so it must stay well above the
	// deadline the command carries (regate hook --deadline).
	Timeout time.Duration
	// Dir is the folder the host runs the command in, when the host takes
	// one (Copilot CLI's cwd, relative to the repository root).
	Dir string
}

// Tag marks regate's own entry in a host's settings, so that installing
// again replaces it whatever the executable is called. Where the host has a
// name field (Gemini CLI) the entry is named Tag; where it has a status
// message (Claude Code, Codex) the message starts with Tag; where hooks are
// files of their own (Copilot CLI) the file is Tag + ".json".
const Tag = "regate"

// statusMessage is what Claude Code and Codex show while the hook runs.
const statusMessage = Tag + ": checking the tool call"

// A hostInstall is where and how one host keeps its command hooks.
type hostInstall struct {
	// user and project are the settings file, relative to the home folder
	// or to the project.
	user, project string
	// events are the hook events regate answers.
	events []string
	// unit is the unit of the host's timeout field.
	unit time.Duration
	// jsonc: the host reads comments and trailing commas in the file.
	jsonc bool
	// handler is the host's hook entry for h.
	handler func(h Hook) object
	// ownFile: the file holds regate's hook alone (one file per hook set).
	ownFile bool
}

// installs is every host's hook layout, as checked against its source:
// docs/install.md cites where.
var installs = map[string]hostInstall{
	"claude": {
		user: ".claude/settings.json", project: ".claude/settings.json",
		events: []string{"PreToolUse", "PermissionRequest"},
		unit:   time.Second,
		handler: func(h Hook) object {
			return object{{"type", "command"}, {"command", h.Command}, {"timeout", units(h.Timeout, time.Second)}, {"statusMessage", statusMessage}}
		},
	},
	"codex": {
		user: ".codex/hooks.json", project: ".codex/hooks.json",
		events: []string{"PreToolUse", "PermissionRequest"},
		unit:   time.Second,
		handler: func(h Hook) object {
			return object{{"type", "command"}, {"command", h.Command}, {"timeout", units(h.Timeout, time.Second)}, {"statusMessage", statusMessage}}
		},
	},
	"gemini": {
		user: ".gemini/settings.json", project: ".gemini/settings.json",
		events: []string{"BeforeTool"},
		unit:   time.Millisecond,
		jsonc:  true,
		handler: func(h Hook) object {
			return object{{"type", "command"}, {"name", Tag}, {"command", h.Command}, {"timeout", units(h.Timeout, time.Millisecond)},
				{"description", "regate decides every tool call against the policy"}}
		},
	},
	"copilot": {
		user: ".copilot/hooks/" + Tag + ".json", project: ".github/hooks/" + Tag + ".json",
		events:  []string{"preToolUse"},
		unit:    time.Second,
		ownFile: true,
		handler: func(h Hook) object {
			o := object{{"type", "command"}, {"bash", h.Command}}
			if h.Dir != "" {
				o = append(o, field{"cwd", h.Dir})
			}
			return append(o, field{"timeoutSec", units(h.Timeout, time.Second)})
		},
	},
}

// InstallHosts are the hosts InstallHook writes settings for (OpenCode,
// which has none, takes InstallOpenCode's files).
func InstallHosts() []string {
	names := make([]string, 0, len(installs))
	for h := range installs {
		names = append(names, h)
	}
	sort.Strings(names)
	return names
}

func lookupInstall(host string) (hostInstall, error) {
	in, ok := installs[host]
	if !ok {
		return in, fmt.Errorf("hosts: install knows no host %q; use %s or opencode", host, strings.Join(InstallHosts(), ", "))
	}
	return in, nil
}

// units is d in the host's unit, rounded up: a timeout is never shortened.
func units(d time.Duration, unit time.Duration) int64 {
	return int64(math.Ceil(float64(d) / float64(unit)))
}

// TimeoutUnit is the unit of host's timeout field.
func TimeoutUnit(host string) (time.Duration, error) {
	in, err := lookupInstall(host)
	return in.unit, err
}

// SettingsPath is the file a host reads its hooks from: the user's (under
// home), or the project's under dir when project is set.
func SettingsPath(host, home, dir string, project bool) (string, error) {
	in, err := lookupInstall(host)
	if err != nil {
		return "", err
	}
	if project {
		return filepath.Join(dir, in.project), nil
	}
	return filepath.Join(home, in.user), nil
}

// Install merges regate's hook, running command for every tool with the
// default timeout, into a host's settings.
//
// Deprecated: use InstallHook, which takes the timeout.
func Install(host string, settings []byte, command string) ([]byte, error) {
	return InstallHook(host, settings, Hook{Command: command, Timeout: 30 * time.Second})
}

// InstallHook merges regate's hook h, registered for every tool, into a
// host's settings document (empty: none yet) and returns the document. The
// user's other settings, hooks and (for Gemini CLI's JSONC) comments are
// kept; regate's earlier entry (tagged with Tag, or the older untagged
// "regate hook" command) is replaced, so installing twice changes nothing.
func InstallHook(host string, settings []byte, h Hook) ([]byte, error) {
	in, err := lookupInstall(host)
	if err != nil {
		return nil, err
	}
	if h.Command == "" || h.Timeout <= 0 {
		return nil, fmt.Errorf("hosts: a hook needs a command and a positive timeout")
	}
	group := object{{"matcher", "*"}, {"hooks", []any{in.handler(h)}}}
	if in.ownFile {
		hooks := object{}
		for _, ev := range in.events {
			hooks = append(hooks, field{ev, []any{in.handler(h)}})
		}
		return marshalIndent(object{{"version", 1}, {"hooks", hooks}}, "")
	}
	return mergeHooks(settings, in.events, group, in.jsonc)
}

// IsRegateHandler reports whether a host's hook entry is regate's: tagged,
// or the older untagged form whose command runs "regate hook".
func IsRegateHandler(handler map[string]any) bool {
	if name, _ := handler["name"].(string); name == Tag {
		return true
	}
	if msg, _ := handler["statusMessage"].(string); msg == Tag || strings.HasPrefix(msg, Tag+":") {
		return true
	}
	for _, key := range []string{"command", "bash"} {
		if c, _ := handler[key].(string); strings.Contains(c, "regate hook") {
			return true
		}
	}
	return false
}

// An object is a JSON object that keeps its keys in order: the hosts'
// own examples put "type" and "command" first.
type object []field

type field struct {
	key   string
	value any
}

func (o object) MarshalJSON() ([]byte, error) {
	b := []byte{'{'}
	for i, f := range o {
		if i > 0 {
			b = append(b, ',')
		}
		k, err := json.Marshal(f.key)
		if err != nil {
			return nil, err
		}
		v, err := json.Marshal(f.value)
		if err != nil {
			return nil, err
		}
		b = append(append(append(b, k...), ':'), v...)
	}
	return append(b, '}'), nil
}

func marshalIndent(v any, prefix string) ([]byte, error) {
	out, err := json.MarshalIndent(v, prefix, "  ")
	if err != nil {
		return nil, err
	}
	return append(out, '\n'), nil
}
