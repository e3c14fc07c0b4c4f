package importrules

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/pelletier/go-toml/v2/unstable"

	"github.com/tailscale/hujson"
)

// Gemini CLI's priority tiers (packages/core/src/policy/config.ts): a
// rule's final priority is its tier plus its priority / 1000; the rules
// settings.json stands for sit at fixed places in the user tier.
const (
	geminiWorkspaceTier = 3
	geminiUserTier      = 4
	geminiMCPAllowed    = geminiUserTier + 0.1
	geminiMCPTrusted    = geminiUserTier + 0.2
	geminiToolsAllowed  = geminiUserTier + 0.3
	geminiToolsExcluded = geminiUserTier + 0.4
	geminiMCPExcluded   = geminiUserTier + 0.9
)

// GeminiFiles are Gemini CLI's rule files: the user's policies
// (~/.gemini/policies/*.toml) and settings (~/.gemini/settings.json), the
// workspace's (.gemini/policies/*.toml, .gemini/settings.json in dir).
// System (admin) policies are an administrator's and left alone.
func GeminiFiles(home, dir string) []string {
	var files []string
	for _, base := range []string{filepath.Join(home, ".gemini"), filepath.Join(dir, ".gemini")} {
		tomls, _ := filepath.Glob(filepath.Join(base, "policies", "*.toml"))
		sort.Strings(tomls)
		files = append(files, tomls...)
		files = append(files, filepath.Join(base, "settings.json"))
	}
	return files
}

// Gemini imports the rules of Gemini CLI's policy files (*.toml) and the
// rules its settings.json files stand for (tools.allowed, tools.exclude,
// mcp.allowed, mcp.excluded, a trusted MCP server, and the older top-level
// allowedTools and excludeTools). A file under home's .gemini is the user
// tier, any other the workspace tier.
func Gemini(files []string, home string) (Result, error) {
	res := Result{Host: "gemini", home: home}
	userDir := filepath.Join(home, ".gemini") + string(filepath.Separator)
	for _, f := range files {
		src, err := os.ReadFile(f)
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			return res, err
		}
		res.Files = append(res.Files, f)
		tier := float64(geminiWorkspaceTier)
		if strings.HasPrefix(f, userDir) {
			tier = geminiUserTier
		}
		var policies []geminiPolicy
		var notes []string
		if strings.HasSuffix(f, ".toml") {
			policies, err = geminiTOML(f, src, tier)
		} else {
			policies, notes, err = geminiSettings(f, src)
		}
		if err != nil {
			return res, err
		}
		for _, g := range policies {
			res.Rules = append(res.Rules, geminiRule(g))
		}
		res.Notes = append(res.Notes, notes...)
	}
	resolve(&res)
	return res, nil
}

// geminiTOML reads the [[rule]] tables of one policy file.
func geminiTOML(file string, src []byte, tier float64) ([]geminiPolicy, error) {
	_, arrays, err := readTOML(file, src)
	if err != nil {
		return nil, err
	}
	var out []geminiPolicy
	for _, t := range arrays["rule"] {
		g := geminiPolicy{from: t.pos, order: tier}
		var parts []string
		for _, key := range []string{"toolName", "mcpName", "subagent", "commandPrefix", "commandRegex", "argsPattern", "decision", "priority", "modes", "interactive"} {
			if v, ok := t.keys[key]; ok {
				parts = append(parts, key+"="+tomlText(v))
			}
		}
		g.text = "[[rule]] " + strings.Join(parts, " ")
		str := func(key string) string { return t.keys[key].str }
		g.decision, g.mcpName, g.commandRegex = str("decision"), str("mcpName"), str("commandRegex")
		g.argsPattern, g.denyMessage, g.subagent = str("argsPattern"), str("denyMessage"), str("subagent")
		g.interactive = str("interactive")
		g.toolNames, _ = t.keys["toolName"].list()
		g.commandPrefix, _ = t.keys["commandPrefix"].list()
		g.modes, _ = t.keys["modes"].list()
		_, g.annotations = t.keys["toolAnnotations"]
		if n, ok := t.keys["priority"].number(); ok {
			g.order = tier + n/1000
		}
		out = append(out, g)
	}
	return out, nil
}

func tomlText(v tomlValue) string {
	switch v.kind {
	case unstable.String:
		return strconv.Quote(v.str)
	case unstable.Array:
		q := make([]string, len(v.strs))
		for i, s := range v.strs {
			q[i] = strconv.Quote(s)
		}
		return "[" + strings.Join(q, ", ") + "]"
	}
	return v.str
}

// geminiSettings reads the rules a settings.json (JSON with comments)
// stands for.
func geminiSettings(file string, src []byte) ([]geminiPolicy, []string, error) {
	tree, err := hujson.Parse(src)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", file, err)
	}
	var out []geminiPolicy
	list := func(ptr, decision string, order float64, build func(g *geminiPolicy, entry string)) {
		v := tree.Find(ptr)
		if v == nil {
			return
		}
		arr, ok := v.Value.(*hujson.Array)
		if !ok {
			return
		}
		for _, el := range arr.Elements {
			lit, ok := el.Value.(hujson.Literal)
			if !ok || lit.Kind() != '"' {
				continue
			}
			g := geminiPolicy{from: posAt(file, src, el.StartOffset), decision: decision, order: order,
				text: strings.ReplaceAll(strings.TrimPrefix(ptr, "/"), "/", ".") + ": " + lit.String()}
			build(&g, lit.String())
			out = append(out, g)
		}
	}
	tool := func(g *geminiPolicy, entry string) {
		name, args, hasArgs := strings.Cut(entry, "(")
		if hasArgs && strings.HasSuffix(args, ")") {
			args = strings.TrimSuffix(args, ")")
			if geminiSurfaces[name] == "bash" {
				g.toolNames, g.commandPrefix = []string{"run_shell_command"}, []string{args}
				return
			}
			g.argsIgnored = g.decision == "allow"
		}
		g.toolNames = []string{name}
	}
	server := func(g *geminiPolicy, entry string) { g.mcpName = entry }
	list("/tools/allowed", "allow", geminiToolsAllowed, tool)
	list("/allowedTools", "allow", geminiToolsAllowed, tool)
	list("/tools/exclude", "deny", geminiToolsExcluded, tool)
	list("/excludeTools", "deny", geminiToolsExcluded, tool)
	list("/mcp/allowed", "allow", geminiMCPAllowed, server)
	list("/mcp/excluded", "deny", geminiMCPExcluded, server)
	if servers, ok := findObject(tree, "/mcpServers"); ok {
		for _, m := range servers.Members {
			name := m.Name.Value.(hujson.Literal).String()
			if v := (&m.Value).Find("/trust"); v != nil {
				if lit, ok := v.Value.(hujson.Literal); ok && lit.Bool() {
					out = append(out, geminiPolicy{from: posAt(file, src, v.StartOffset), decision: "allow", order: geminiMCPTrusted,
						text: "mcpServers." + name + ".trust: true", mcpName: name})
				}
			}
		}
	}
	var notes []string
	for _, ptr := range []string{"/tools/core", "/coreTools"} {
		if v := tree.Find(ptr); v != nil {
			notes = append(notes, fmt.Sprintf("%s: %s (the tools Gemini CLI offers at all) is not imported: regate asks for a tool it has no rule for",
				posAt(file, src, v.StartOffset), strings.ReplaceAll(strings.TrimPrefix(ptr, "/"), "/", ".")))
		}
	}
	return out, notes, nil
}

func findObject(tree hujson.Value, ptr string) (*hujson.Object, bool) {
	v := tree.Find(ptr)
	if v == nil {
		return nil, false
	}
	o, ok := v.Value.(*hujson.Object)
	return o, ok
}
