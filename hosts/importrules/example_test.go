package importrules_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/regate/regate/hosts/importrules"
)

// A Claude Code settings file's permission rules in, regate rules out,
// each with the file, line and column it was read from. A deny becomes a
// hard guard; a rule regate cannot hold without loosening it is left out,
// with why.
func ExampleClaude() {
	home, err := os.MkdirTemp("", "regate-example-")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(home)
	settings := filepath.Join(home, ".claude", "settings.json")
	if err := os.MkdirAll(filepath.Dir(settings), 0o700); err != nil {
		panic(err)
	}
	if err := os.WriteFile(settings, []byte(`{
  "permissions": {
    "allow": ["Bash(git status)", "Bash(npm run test:*)", "WebFetch(domain:example.com)"],
    "ask": ["Bash(git push:*)"],
    "deny": ["Read(./.env)", "Bash(rm -rf:*)"]
  }
}`), 0o600); err != nil {
		panic(err)
	}

	res, err := importrules.Claude([]string{settings}, home)
	if err != nil {
		panic(err) // a file that cannot be read or parsed
	}
	short := func(s string) string { return strings.ReplaceAll(s, home, "~") }
	for _, r := range res.Imported() {
		fmt.Printf("%s %s -> %s\n", short(r.From.String()), r.Text, short(r.Describe()))
		if r.Note != "" {
			fmt.Println("  note:", short(r.Note))
		}
	}
	for _, r := range res.LeftOut() {
		fmt.Printf("%s %s left out: %s\n", short(r.From.String()), r.Text, r.Skipped)
	}
	// Output:
	// ~/.claude/settings.json:3:15 Bash(git status) -> policy.jsonc bash "git status": allow
	// ~/.claude/settings.json:3:35 Bash(npm run test:*) -> policy.jsonc bash "npm run test *": allow
	// ~/.claude/settings.json:4:13 Bash(git push:*) -> policy.jsonc bash "git push *": ask
	// ~/.claude/settings.json:5:14 Read(./.env) -> hard-guards.jsonc path ".env", ".env/*", "*/.env", "*/.env/*": deny
	//   note: wider than the host's: it also matches outside the working folder; regate's path surface also meets writes of the file
	// ~/.claude/settings.json:5:30 Bash(rm -rf:*) -> hard-guards.jsonc bash "rm -rf *": deny
	// ~/.claude/settings.json:3:59 WebFetch(domain:example.com) left out: regate's WebFetch rules cannot see what WebFetch(domain:example.com) names, so the allow would reach every call of it
}
