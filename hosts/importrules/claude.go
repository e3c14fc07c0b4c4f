package importrules

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/tailscale/hujson"
)

// ClaudeFiles are Claude Code's settings files that hold permission rules,
// lowest precedence first: the user's ($CLAUDE_CONFIG_DIR, default
// ~/.claude/settings.json), then the project's .claude/settings.json and
// .claude/settings.local.json in dir. Managed settings are an
// administrator's and left alone.
func ClaudeFiles(home, dir string) []string {
	user := filepath.Join(home, ".claude")
	if d := os.Getenv("CLAUDE_CONFIG_DIR"); d != "" {
		user = d
	}
	return []string{
		filepath.Join(user, "settings.json"),
		filepath.Join(dir, ".claude", "settings.json"),
		filepath.Join(dir, ".claude", "settings.local.json"),
	}
}

// Claude imports the permission rules of the Claude Code settings files
// that exist (a missing file is skipped): permissions.allow, ask and deny.
// A file that cannot be read or parsed is an error; an entry that is not a
// string, or a rule regate cannot hold, is a Rule left out with why.
func Claude(files []string, home string) (Result, error) {
	res := Result{Host: "claude", home: home}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			return res, err
		}
		res.Files = append(res.Files, f)
		rules, notes, err := claudeSettings(f, src)
		if err != nil {
			return res, err
		}
		res.Rules = append(res.Rules, rules...)
		res.Notes = append(res.Notes, notes...)
	}
	resolve(&res)
	return res, nil
}

// claudeSettings reads one settings file. The root of a "/path" rule is
// the folder holding the file's .claude folder (for the user's file, the
// home folder).
func claudeSettings(file string, src []byte) ([]Rule, []string, error) {
	tree, err := hujson.Parse(src)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", file, err)
	}
	root := filepath.Dir(filepath.Dir(file))
	perms := tree.Find("/permissions")
	if perms == nil {
		return nil, nil, nil
	}
	if _, ok := perms.Value.(*hujson.Object); !ok {
		return nil, nil, fmt.Errorf("%s: \"permissions\" is not an object", file)
	}
	var rules []Rule
	for _, list := range []struct {
		key    string
		action Action
	}{{"allow", Allow}, {"ask", Ask}, {"deny", Deny}} {
		v := perms.Find("/" + list.key)
		if v == nil {
			continue
		}
		arr, ok := v.Value.(*hujson.Array)
		if !ok {
			rules = append(rules, skip(posAt(file, src, v.StartOffset), "permissions."+list.key, list.action, "not a list"))
			continue
		}
		for _, el := range arr.Elements {
			pos := posAt(file, src, el.StartOffset)
			lit, ok := el.Value.(hujson.Literal)
			if !ok || lit.Kind() != '"' {
				rules = append(rules, skip(pos, string(hujson.Value{Value: el.Value}.Pack()), list.action, "not a string"))
				continue
			}
			rules = append(rules, claudeRule(pos, lit.String(), list.action, root))
		}
	}
	var notes []string
	if m := perms.Find("/defaultMode"); m != nil {
		if lit, ok := m.Value.(hujson.Literal); ok && lit.Kind() == '"' && lit.String() != "default" {
			notes = append(notes, fmt.Sprintf("%s: permissions.defaultMode %q is not imported: regate decides every call by the rules (set \"yoloMode\": true in policy.jsonc to approve every ask)",
				posAt(file, src, m.StartOffset), lit.String()))
		}
	}
	return rules, notes, nil
}
