package importrules

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// claudeCases are Claude Code rules and what the import makes of them: the
// targets (Describe) or, when left out, a part of why.
var claudeCases = []struct {
	entry  string
	action Action
	want   string // Describe(), or "" when left out
	skip   string // part of Skipped
	note   string // part of Note
}{
	{entry: "Bash(git status:*)", action: Allow, want: `policy.jsonc bash "git status *": allow`},
	{entry: "Bash(npm run test)", action: Allow, want: `policy.jsonc bash "npm run test": allow`},
	{entry: "Bash", action: Allow, want: `policy.jsonc bash "*": allow`},
	{entry: "Bash(*)", action: Deny, want: `hard-guards.jsonc bash "*": deny`},
	{entry: "Bash()", action: Ask, want: `policy.jsonc bash "*": ask`},
	{entry: "Bash(rm:*)", action: Allow, want: `policy.jsonc bash "rm *": allow`},
	// ":*" is a prefix only at the end; Claude Code's rule with text after
	// it matches almost nothing, so neither action is guessed.
	{entry: "Bash(git push:* --force)", action: Deny, skip: "matches almost no command"},
	{entry: "Bash(git push:*--force)", action: Allow, skip: "matches almost no command"},
	{entry: "Bash(npm:*:*)", action: Ask, skip: "matches almost no command"},
	{entry: "Bash(curl:*)", action: Deny, want: `hard-guards.jsonc bash "curl *": deny`},
	{entry: "Bash(git * main)", action: Allow, want: `policy.jsonc bash "git * main": allow`},
	// Claude Code's trailing " *" is optional only when it is the one *.
	{entry: "Bash(* run *)", action: Allow, skip: "also matches the bare command"},
	{entry: "Bash(* run *)", action: Deny, want: `hard-guards.jsonc bash "* run *": deny`, note: "bare command"},
	{entry: `Bash(echo \*)`, action: Allow, skip: "literal star"},
	{entry: "Bash(ls ?)", action: Allow, skip: "? is literal"},
	{entry: `Bash(echo "a b")`, action: Allow, skip: "quotes"},
	{entry: `Bash(echo "a b")`, action: Deny, want: `hard-guards.jsonc bash "echo a b": deny`, note: "quote removal"},
	{entry: "Bash(cd x && make)", action: Deny, skip: "chain operator"},
	{entry: `Bash(python -c "print\(1\)")`, action: Deny, want: `hard-guards.jsonc bash "python -c print(1)": deny`},
	{entry: "Read(./.env)", action: Deny, want: `hard-guards.jsonc path ".env", ".env/*", "*/.env", "*/.env/*": deny`, note: "outside the working folder"},
	{entry: "Read(./.env)", action: Allow, want: `policy.jsonc read ".env", ".env/*": allow`, note: "only at the top"},
	{entry: "Read(~/.ssh/**)", action: Deny, want: `hard-guards.jsonc path "~/.ssh", "~/.ssh/*": deny`},
	{entry: "Read(~/.ssh/**)", action: Allow, want: `policy.jsonc read "~/.ssh", "~/.ssh/*": allow`},
	{entry: "Read(//etc/passwd)", action: Ask, want: `policy.jsonc path "/etc/passwd", "/etc/passwd/*": ask`},
	{entry: "Read(/docs/**)", action: Allow, want: `policy.jsonc read "/proj/docs", "/proj/docs/*": allow`},
	{entry: "Read(*.env)", action: Deny, want: `hard-guards.jsonc path "*.env", "*.env/*": deny`},
	{entry: "Read(*.env)", action: Allow, skip: "stop at /"},
	{entry: "Read(~/**)", action: Allow, skip: "matches nothing"},
	{entry: "Read(~/**)", action: Deny, want: `hard-guards.jsonc path "~/*": deny`, note: "matches nothing"},
	{entry: "Read(src/**/*.ts)", action: Allow, skip: "stop at /"},
	{entry: "Read(secrets/[ab].txt)", action: Allow, skip: "character class"},
	{entry: "Read(secrets/[ab].txt)", action: Deny, want: `hard-guards.jsonc path "secrets/?.txt", "secrets/?.txt/*": deny`},
	{entry: "Read(!x)", action: Deny, skip: "negated"},
	{entry: "Edit(src/**)", action: Allow, want: `policy.jsonc edit "src", "src/*": allow; policy.jsonc write "src", "src/*": allow`, note: "only at the top"},
	{entry: "Edit(/src/**)", action: Allow, want: `policy.jsonc edit "/proj/src", "/proj/src/*": allow; policy.jsonc write "/proj/src", "/proj/src/*": allow`},
	{entry: "Edit(docs/**/*.md)", action: Deny, want: `hard-guards.jsonc edit "docs/*.md", "docs/*.md/*", "docs/*/*.md", "docs/*/*.md/*": deny; hard-guards.jsonc write "docs/*.md", "docs/*.md/*", "docs/*/*.md", "docs/*/*.md/*": deny`},
	{entry: "Write(*.lock)", action: Allow, skip: "only Read(…) and Edit(…)"},
	{entry: "Write(*.lock)", action: Deny, want: `hard-guards.jsonc write "*.lock", "*.lock/*": deny`, note: "ignores a path"},
	{entry: "WebFetch(domain:example.com)", action: Allow, skip: "cannot see"},
	{entry: "WebFetch(domain:example.com)", action: Deny, want: `hard-guards.jsonc WebFetch "*": deny`, note: "every WebFetch call"},
	{entry: "WebFetch", action: Allow, want: `policy.jsonc WebFetch "*": allow`},
	{entry: "mcp__github__search_code", action: Allow, want: `policy.jsonc mcp "github:search_code": allow`},
	{entry: "mcp__github", action: Deny, want: `hard-guards.jsonc mcp "github": deny`},
	{entry: "mcp__github__*", action: Ask, want: `policy.jsonc mcp "github": ask`},
	{entry: "mcp__github__create_*", action: Allow, skip: "every tool of github"},
	{entry: "mcp__github__create_*", action: Deny, want: `hard-guards.jsonc mcp "github": deny`},
	{entry: "mcp__*", action: Allow, skip: "every MCP tool"},
	{entry: "mcp__*", action: Deny, want: `hard-guards.jsonc mcp "*": deny`},
	{entry: "Skill(deploy:*)", action: Allow, want: `policy.jsonc skill "deploy*": allow`},
	{entry: "Agent(reviewer)", action: Allow, skip: "cannot see"},
	{entry: "NotebookEdit", action: Allow, skip: "reach Edit too"},
	{entry: "NotebookEdit", action: Deny, want: `hard-guards.jsonc edit "*": deny`, note: "reaches Edit too"},
	{entry: "Bassh(ls)", action: Allow, skip: "not a Claude Code tool"},
	{entry: "FancyTool", action: Deny, want: `hard-guards.jsonc FancyTool "*": deny`, note: "kept under its own name"},
	{entry: "Bash(git", action: Allow, skip: "malformed"},
	{entry: "Bash(ls) x", action: Deny, skip: "malformed"},
	{entry: "", action: Deny, skip: "empty"},
}

func TestClaudeRule(t *testing.T) {
	for _, c := range claudeCases {
		t.Run(string(c.action)+" "+c.entry, func(t *testing.T) {
			r := claudeRule(Pos{File: "s.json", Line: 1, Col: 1}, c.entry, c.action, "/proj")
			if got := r.Describe(); got != c.want {
				t.Errorf("targets %q, want %q (skipped: %s)", got, c.want, r.Skipped)
			}
			if c.want == "" && (r.Skipped == "" || !strings.Contains(r.Skipped, c.skip)) {
				t.Errorf("skipped %q, want it to say %q", r.Skipped, c.skip)
			}
			if c.want != "" && r.Skipped != "" {
				t.Errorf("imported and skipped: %q", r.Skipped)
			}
			if !strings.Contains(r.Note, c.note) {
				t.Errorf("note %q, want it to say %q", r.Note, c.note)
			}
		})
	}
}

// TestClaudeNeverLooser holds every case to the rule: an imported deny is a
// hard guard, an allow never lands in the hard guards, and a restriction
// is never left out with a note that it was narrowed.
func TestClaudeNeverLooser(t *testing.T) {
	for _, c := range claudeCases {
		r := claudeRule(Pos{}, c.entry, c.action, "/proj")
		for _, tg := range r.Targets {
			if tg.Action != c.action || tg.HardGuard != (c.action == Deny) {
				t.Errorf("%s %s: target %+v", c.action, c.entry, tg)
			}
		}
		if isRestrictive(c.action) && strings.Contains(r.Note, "narrower") {
			t.Errorf("%s %s: a restriction came out narrower: %s", c.action, c.entry, r.Note)
		}
		if c.action == Allow && strings.Contains(r.Note, "wider") {
			t.Errorf("%s %s: an allow came out wider: %s", c.action, c.entry, r.Note)
		}
	}
}

// TestClaudeFiles reads settings files: positions, the order of the
// results, entries that are not strings, and a file that is not JSON.
func TestClaudeFiles(t *testing.T) {
	dir := t.TempDir()
	home, proj := filepath.Join(dir, "home"), filepath.Join(dir, "proj")
	write(t, filepath.Join(home, ".claude", "settings.json"), `{
  // Claude Code reads comments too
  "permissions": {
    "allow": ["Bash(git status:*)", 7],
    "deny": ["Bash(curl:*)"],
    "defaultMode": "bypassPermissions"
  }
}`)
	write(t, filepath.Join(proj, ".claude", "settings.local.json"), `{"permissions": {"ask": ["Bash(git push:*)"]}}`)
	t.Setenv("CLAUDE_CONFIG_DIR", "")
	res, err := Claude(ClaudeFiles(home, proj), home)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Files) != 2 {
		t.Fatalf("files %v", res.Files)
	}
	var got []string
	for _, r := range res.Rules {
		got = append(got, strings.TrimPrefix(r.From.String(), dir)+" "+r.Text+" "+r.Describe()+r.Skipped)
	}
	want := []string{
		`/home/.claude/settings.json:4:15 Bash(git status:*) policy.jsonc bash "git status *": allow`,
		`/home/.claude/settings.json:4:37 7 not a string`,
		`/home/.claude/settings.json:5:14 Bash(curl:*) hard-guards.jsonc bash "curl *": deny`,
		`/proj/.claude/settings.local.json:1:26 Bash(git push:*) policy.jsonc bash "git push *": ask`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("rules\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(res.Notes) != 1 || !strings.Contains(res.Notes[0], `defaultMode "bypassPermissions" is not imported`) {
		t.Errorf("notes %q", res.Notes)
	}

	write(t, filepath.Join(proj, ".claude", "settings.json"), `{"permissions": [`)
	if _, err := Claude(ClaudeFiles(home, proj), home); err == nil {
		t.Error("a settings file that is not JSON was read")
	}
}

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestClaudePrecedence: in Claude Code a deny beats an allow and an ask
// beats an allow wherever they are written. A deny is a hard guard, so the
// allow beside it is kept; an allow more specific than an ask it overlaps
// is left out, since regate would let it win.
func TestClaudePrecedence(t *testing.T) {
	res := Result{home: "/h", Rules: []Rule{
		claudeRule(Pos{Line: 1}, "Bash(git:*)", Deny, ""),
		claudeRule(Pos{Line: 2}, "Bash(git status)", Allow, ""),
		claudeRule(Pos{Line: 3}, "Bash(npm:*)", Ask, ""),
		claudeRule(Pos{Line: 4}, "Bash(npm test)", Allow, ""),
		claudeRule(Pos{Line: 5}, "Bash(npm test:*)", Ask, ""),
		claudeRule(Pos{Line: 6}, "Bash(*)", Allow, ""),
		claudeRule(Pos{Line: 7}, "Read(~/notes/**)", Ask, ""),
		claudeRule(Pos{Line: 8}, "Read(//h/notes/todo.md)", Allow, ""),
	}}
	resolve(&res)
	for i, want := range []string{
		`hard-guards.jsonc bash "git *": deny`,
		`policy.jsonc bash "git status": allow`,
		`policy.jsonc bash "npm *": ask`,
		`the host asks first for Bash(npm:*)`,
		`policy.jsonc bash "npm test *": ask`,
		`policy.jsonc bash "*": allow`, // the least specific: every ask still wins
		`policy.jsonc path "~/notes", "~/notes/*": ask`,
		`policy.jsonc read "/h/notes/todo.md", "/h/notes/todo.md/*": allow`, // another surface: the path ask still holds
	} {
		if got := res.Rules[i].Describe() + res.Rules[i].Skipped; !strings.Contains(got, want) {
			t.Errorf("rule %d: %q, want it to say %q", i+1, got, want)
		}
	}
}
