package importrules

import (
	"path/filepath"
	"strings"
	"testing"
)

// geminiCases are Gemini CLI policy rules (one [[rule]] each) and what the
// import makes of them.
var geminiCases = []struct {
	name string
	toml string
	want string // Describe(), or "" when left out
	skip string
}{
	{"prefix", `toolName = "run_shell_command"
commandPrefix = "git status"
decision = "allow"`, `policy.jsonc bash "git status *": allow`, ""},
	{"prefix sugar, list", `commandPrefix = ["rm -rf", "sudo"]
decision = "deny"
denyMessage = "no"`, `hard-guards.jsonc bash "rm -rf *", "sudo *": deny`, ""},
	{"regex, literal", `commandRegex = "npm test"
decision = "allow"`, `policy.jsonc bash "npm test*": allow`, ""},
	{"regex allow", `commandRegex = "git (commit|push)"
decision = "allow"`, "", "regular expression"},
	{"regex deny widens", `commandRegex = "git (commit|push)"
decision = "deny"`, `hard-guards.jsonc bash "git *": deny`, ""},
	{"regex alternation", `commandRegex = "git|rm"
decision = "deny"`, "", "no literal start"},
	{"argsPattern on the shell", `toolName = "run_shell_command"
argsPattern = '"command":"curl'
decision = "deny"`, `hard-guards.jsonc bash "curl*": deny`, ""},
	{"argsPattern elsewhere", `toolName = "read_file"
argsPattern = '\.env'
decision = "deny"`, `hard-guards.jsonc read "*": deny`, ""},
	{"argsPattern allow", `toolName = "read_file"
argsPattern = 'src/'
decision = "allow"`, "", "argsPattern"},
	{"tools", `toolName = ["write_file", "replace"]
decision = "ask_user"`, `policy.jsonc write "*": ask; policy.jsonc edit "*": ask`, ""},
	{"mcp server", `mcpName = "untrusted"
decision = "deny"`, `hard-guards.jsonc mcp "untrusted": deny`, ""},
	{"mcp tool", `mcpName = "jira"
toolName = "search"
decision = "allow"`, `policy.jsonc mcp "jira:search": allow`, ""},
	{"mcp fqn", `toolName = "mcp_*_delete"
decision = "deny"`, `hard-guards.jsonc mcp "*:delete": deny`, ""},
	{"mcp any", `toolName = "*"
mcpName = "*"
decision = "ask_user"`, `policy.jsonc mcp "*": ask`, ""},
	{"every tool, deny", `toolName = "*"
decision = "deny"`, `hard-guards.jsonc * "*": deny`, ""},
	{"every tool, ask", `toolName = "*"
decision = "ask_user"`, "", "no regate form"},
	{"plan mode only", `toolName = "write_file"
decision = "deny"
modes = ["plan"]`, "", "only in approval modes plan"},
	{"headless only allow", `toolName = "glob"
decision = "allow"
interactive = false`, "", "headless"},
	{"subagent deny widens", `toolName = "write_file"
subagent = "researcher"
decision = "deny"`, `hard-guards.jsonc write "*": deny`, ""},
	{"unknown decision", `toolName = "glob"
decision = "maybe"`, "", "not allow, deny or ask_user"},
	{"no tool", `decision = "allow"`, "", "names no tool"},
}

func TestGeminiRules(t *testing.T) {
	for _, c := range geminiCases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			f := filepath.Join(dir, "p.toml")
			write(t, f, "# a comment\n[[rule]]\n"+c.toml+"\npriority = 100\n")
			res, err := Gemini([]string{f}, dir)
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Rules) != 1 {
				t.Fatalf("%d rules", len(res.Rules))
			}
			r := res.Rules[0]
			if r.From.Line != 2 || r.From.Col != 3 {
				t.Errorf("position %s, want the [[rule]] header 2:3", r.From)
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

// TestGeminiPriority: Gemini CLI applies the matching rule of highest
// priority, regate the most specific pattern. An allow that regate would
// let win over a higher ask is left out; one below a lower ask is kept; an
// allow on the shell is left out when a deny above it could not be
// written.
func TestGeminiPriority(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "p.toml")
	write(t, f, `[[rule]]
commandPrefix = "git"
decision = "ask_user"
priority = 200

[[rule]]
commandPrefix = "git status"
decision = "allow"
priority = 100

[[rule]]
commandPrefix = "ls"
decision = "ask_user"
priority = 10

[[rule]]
commandPrefix = "ls -la"
decision = "allow"
priority = 100

[[rule]]
toolName = "glob"
decision = "allow"
priority = 100
`)
	g := filepath.Join(dir, "q.toml")
	write(t, g, `[[rule]]
commandRegex = ".*secret"
decision = "deny"
priority = 500

[[rule]]
toolName = "run_shell_command"
decision = "allow"
priority = 400
`)
	got := map[string]string{}
	for _, file := range []string{f, g} {
		res, err := Gemini([]string{file}, dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range res.Rules {
			got[r.Text] = r.Describe() + r.Skipped
		}
	}
	for text, want := range map[string]string{
		`[[rule]] commandPrefix="git status" decision="allow" priority=100`:   "the host asks first",
		`[[rule]] commandPrefix="ls -la" decision="allow" priority=100`:       `policy.jsonc bash "ls -la *": allow`,
		`[[rule]] toolName="glob" decision="allow" priority=100`:              `policy.jsonc find "*": allow`,
		`[[rule]] commandRegex=".*secret" decision="deny" priority=500`:       "no literal start",
		`[[rule]] toolName="run_shell_command" decision="allow" priority=400`: "could not be imported",
	} {
		if !strings.Contains(got[text], want) {
			t.Errorf("%s: %q, want it to say %q", text, got[text], want)
		}
	}
}

// TestGeminiSettings reads the rules settings.json stands for, with
// comments (Gemini CLI reads JSONC) and positions.
func TestGeminiSettings(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, ".gemini", "settings.json")
	write(t, f, `{
  // mine
  "tools": {"allowed": ["run_shell_command(git diff)", "read_file(src)"], "exclude": ["web_fetch"], "core": ["glob"]},
  "mcp": {"excluded": ["evil"]},
  "mcpServers": {"docs": {"command": "x", "trust": true}},
}`)
	res, err := Gemini([]string{f}, dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range res.Rules {
		got = append(got, r.From.String()[len(dir):]+" "+r.Text+" -> "+r.Describe()+r.Skipped)
	}
	want := []string{
		`/.gemini/settings.json:3:25 tools.allowed: run_shell_command(git diff) -> policy.jsonc bash "git diff *": allow`,
		`/.gemini/settings.json:3:56 tools.allowed: read_file(src) -> regate would allow more than the host: Gemini CLI ignores the (args) of a tool that is not the shell: every call of read_file`,
		`/.gemini/settings.json:3:87 tools.exclude: web_fetch -> hard-guards.jsonc web_fetch "*": deny`,
		`/.gemini/settings.json:4:24 mcp.excluded: evil -> hard-guards.jsonc mcp "evil": deny`,
		`/.gemini/settings.json:5:52 mcpServers.docs.trust: true -> policy.jsonc mcp "docs": allow`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("rules\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(res.Notes) != 1 || !strings.Contains(res.Notes[0], "tools.core") {
		t.Errorf("notes %q", res.Notes)
	}
}

// TestGeminiBadTOML: a file go-toml refuses (a duplicate key) is an error,
// not a file of no rules.
func TestGeminiBadTOML(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "p.toml")
	write(t, f, "[[rule]]\ndecision = \"allow\"\ndecision = \"deny\"\n")
	if _, err := Gemini([]string{f}, dir); err == nil {
		t.Error("a duplicate key was read")
	}
}
