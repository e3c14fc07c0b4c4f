package importrules

import (
	"path/filepath"
	"strings"
	"testing"
)

// codexCases are Codex prefix rules and what the import makes of them.
var codexCases = []struct {
	name, rules string
	want        string // Describe(), or "" when left out
	skip        string
}{
	{"allow by default", `prefix_rule(pattern = ["gh", "pr", "view"])`, `policy.jsonc bash "gh pr view *": allow`, ""},
	{"alternatives", `prefix_rule(pattern = ["git", ["push", "fetch"]], decision = "prompt")`, `policy.jsonc bash "git push *", "git fetch *": ask`, ""},
	{"forbidden", `prefix_rule(pattern = ["git", "reset", "--hard"], decision = "forbidden", justification = "Use git stash")`, `hard-guards.jsonc bash "git reset --hard *": deny`, ""},
	{"a token with a space, allow", `prefix_rule(pattern = ["echo", "a b"])`, "", "a space splits words"},
	{"a token with a star, deny", `prefix_rule(pattern = ["rm", "*"], decision = "forbidden")`, `hard-guards.jsonc bash "rm * *": deny`, ""},
	{"bad decision", `prefix_rule(pattern = ["ls"], decision = "maybe")`, "", "not allow, prompt or forbidden"},
	{"pattern not a list", `prefix_rule(pattern = "ls")`, "", "not a list"},
	{"positional", `prefix_rule(["ls"])`, "", "positional"},
	{"a variable", `X = ["ls"]`, "", "only prefix_rule"},
	{"another call", `host_executable(name = "git", paths = ["/usr/bin/git"])`, "", "only prefix_rule"},
}

func TestCodexRules(t *testing.T) {
	for _, c := range codexCases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			f := filepath.Join(dir, "rules", "default.rules")
			write(t, f, "# my rules\n"+c.rules+"\n")
			res, err := Codex([]string{f}, dir)
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Rules) != 1 {
				t.Fatalf("%d rules", len(res.Rules))
			}
			r := res.Rules[0]
			if r.From.Line != 2 || r.From.Col != 1 {
				t.Errorf("position %s, want 2:1", r.From)
			}
			if got := r.Describe(); got != c.want {
				t.Errorf("targets %q, want %q (skipped: %s)", got, c.want, r.Skipped)
			}
			if c.want == "" && !strings.Contains(r.Skipped, c.skip) {
				t.Errorf("skipped %q, want it to say %q", r.Skipped, c.skip)
			}
		})
	}
}

// TestCodexFiles: the strictest rule wins in Codex, so an allow more
// specific than a prompt is left out; config.toml's approval settings are
// notes; a file that is not Starlark is an error.
func TestCodexFiles(t *testing.T) {
	dir := t.TempDir()
	rules := filepath.Join(dir, ".codex", "rules", "default.rules")
	write(t, rules, `prefix_rule(pattern = ["npm"], decision = "prompt")
prefix_rule(pattern = ["npm", "test"])
prefix_rule(pattern = ["cat"])
`)
	config := filepath.Join(dir, ".codex", "config.toml")
	write(t, config, "model = \"x\"\napproval_policy = \"never\"\n[features]\nhooks = true\n")
	t.Setenv("CODEX_HOME", "")
	res, err := Codex(CodexFiles(dir, t.TempDir()), dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range res.Rules {
		got = append(got, r.Describe()+r.Skipped)
	}
	if len(got) != 3 || !strings.Contains(got[1], "the host asks first") || got[2] != `policy.jsonc bash "cat *": allow` {
		t.Errorf("rules %q", got)
	}
	if len(res.Notes) != 1 || !strings.Contains(res.Notes[0], `config.toml:2:19: approval_policy = "never" is not imported`) {
		t.Errorf("notes %q", res.Notes)
	}
	write(t, rules, "prefix_rule(pattern = [\n")
	if _, err := Codex([]string{rules}, dir); err == nil {
		t.Error("a broken rules file was read")
	}
}
