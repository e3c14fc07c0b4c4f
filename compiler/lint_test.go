package compiler_test

import (
	"io/fs"
	"strings"
	"testing"

	"github.com/regate/regate/compiler"
	"github.com/regate/regate/policies"
)

// lintCases are permission maps and the precedence warnings they must get,
// each as "line:col code" of the rule that outranks or wins, followed by
// words the message must hold (the other rule's position, the call that
// shows it). A case with no want must get no warning at all: a false
// warning teaches people to ignore the true ones.
var lintCases = []struct {
	name       string
	permission string // the "permission" object of policy.jsonc, on line 1
	want       []string
}{
	{
		name:       "a project folder outranks *.env",
		permission: `{"path": {"*": "allow", "*.env": "deny", "/home/me/proj/*": "allow"}}`,
		want:       []string{`1:57 outranked_deny allow "/home/me/proj/*" outranks the deny "*.env" at policy.jsonc:1:40 (more literal characters: 14 against 4; R1), so the path "/home/me/proj/.env" gets allow`},
	},
	{
		name:       "an MCP server Pi sends otherwise",
		permission: `{"mcp": {"dev-radius:*": "deny"}}`,
		want:       []string{`1:25 mcp_server_form the MCP server "dev-radius" of "dev-radius:*"`, `Pi sends it as "dev_radius"`},
	},
	{
		name:       "an MCP server Claude Code and Pi send otherwise",
		permission: `{"mcp": {"my.srv": "allow"}}`,
		want:       []string{`1:25 mcp_server_form the MCP server "my.srv"`, `Claude Code sends it as "my_srv", Pi sends it as "my_srv"`},
	},
	{
		name:       "a path rule that is not in clean form",
		permission: `{"path": {"*": "allow", "./sub/.env": "deny", "keys/": "deny", "../other/*": "ask"}}`,
		want:       []string{`1:40 path_form the pattern "./sub/.env" never matches`, `write "sub/.env"`},
	},
	{
		name:       "MCP servers every host sends as written",
		permission: `{"mcp": {"github:*": "allow", "dev_radius:*": "deny", "dev-*": "ask"}}`,
	},
	{
		name:       "an ask outranks a deny",
		permission: `{"bash": {"git push *": "deny", "git * --dry-run": "ask"}}`,
		want:       []string{`1:48 outranked_deny ask "git * --dry-run" outranks the deny "git push *" at policy.jsonc:1:26`, `the command "git push --dry-run" gets ask`},
	},
	{
		name:       "equally specific: the later key decides",
		permission: `{"path": {"*.env": "deny", "src/*": "ask"}}`,
		want:       []string{`1:43 order_decides ask "src/*" and deny "*.env" at policy.jsonc:1:26 are equally specific`, `the path "src/.env" from the working directory`, "would get deny with the keys swapped"},
	},
	{
		name:       "equally specific, the deny written later",
		permission: `{"read": {"src/*": "allow", "*.env": "deny"}}`,
		want:       []string{`1:44 order_decides deny "*.env" and allow "src/*" at policy.jsonc:1:26`, `a read call on the path "src/.env"`},
	},
	{
		name:       "two spellings of one path: the absolute folder beats a relative deny",
		permission: `{"path": {"src/*": "deny", "/home/me/proj/*": "allow"}}`,
		want:       []string{`1:43 outranked_deny`, `the path "src/" from the working directory "/home/me/proj" gets allow`},
	},
	{
		name:       "two targets of one MCP call",
		permission: `{"mcp": {"github:*": "allow", "github_*": "deny"}}`,
		want:       []string{`1:46 order_decides deny "github_*" and allow "github:*" at policy.jsonc:1:25`, `on server "github"`},
	},
	{
		name:       "an agent's map is linted too",
		permission: `{}`,
		want:       []string{`agents/dev.md:5:5 outranked_deny allow "/home/me/proj/*" outranks the deny "*.env" at agents/dev.md:4:5`},
	},
	{
		name:       "an exception inside the deny is meant",
		permission: `{"path": {"*": "allow", "*.env": "deny", "*.env.*": "deny", "*.env.example": "allow"}}`,
	},
	{
		name:       "rm -rf build inside rm *",
		permission: `{"bash": {"*": "ask", "rm *": "deny", "rm -rf build": "allow", "rm -rf build/*": "ask", "git *": "deny", "git": "allow"}}`,
	},
	{
		name:       "a more specific deny covers every value the allow would take",
		permission: `{"path": {"*.env": "deny", "/proj/*": "allow", "/proj/*.env": "deny"}}`,
	},
	{
		name:       "the deny outranks",
		permission: `{"path": {"*": "allow", "/home/me/proj/*": "ask", "/home/me/proj/secrets/*": "deny"}}`,
	},
	{
		name:       "no value matches both",
		permission: `{"path": {"*.pem": "deny", "*.env.example": "allow", "/srv/*.txt": "allow", "/etc/*.conf": "deny"}, "bash": {"rm *": "deny", "git *": "allow"}}`,
	},
	{
		name:       "equally specific, same action",
		permission: `{"path": {"*.env": "deny", "src/*": "deny"}}`,
	},
	{
		name:       "? is exactly one character",
		permission: `{"bash": {"ls ???*": "deny", "ls ?": "allow"}}`,
	},
	{
		name:       "a folder allow against an extension deny",
		permission: `{"path": {"*.pem": "deny", "/srv/*": "allow"}}`,
		want:       []string{`1:43 outranked_deny`, `the path "/srv/.pem" gets allow`},
	},
	{
		name:       "an extension allow against a folder deny",
		permission: `{"path": {"/etc/*": "deny", "*.env.example": "allow"}}`,
		want:       []string{`1:44 outranked_deny`, `the path "/etc/.env.example" gets allow`},
	},
	{
		name:       "a relative allow meets an absolute deny only from inside the denied folder: not reported",
		permission: `{"path": {"/etc/*": "deny", "src/config/*": "allow"}}`,
	},
}

// agentWithSurprise is the agent file of "an agent's map is linted too".
const agentWithSurprise = "---\npermission:\n  path:\n    \"*.env\": deny\n    \"/home/me/proj/*\": allow\n---\n"

func lint(t *testing.T, in compiler.Input, home string) []string {
	t.Helper()
	out, err := compiler.Compile(in, compiler.WithHome(home), compiler.WithPrecedenceLint())
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range out.Diagnostics {
		switch d.Code {
		case compiler.CodeOutrankedDeny, compiler.CodeOrderDecides, compiler.CodePrecedenceUnchecked, compiler.CodeMCPServerForm, compiler.CodePathForm:
			if d.Severity != compiler.SeverityWarning {
				t.Errorf("%s is %s, want a warning", d, d.Severity)
			}
			got = append(got, d.Error())
		}
	}
	return got
}

func TestPrecedenceLint(t *testing.T) {
	for _, tc := range lintCases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			in := compiler.Input{Policy: &compiler.Source{Name: "policy.jsonc", Data: []byte(`{"permission": ` + tc.permission + "}")}}
			if strings.HasPrefix(tc.name, "an agent") {
				in.Agents = []compiler.Source{{Name: "agents/dev.md", Data: []byte(agentWithSurprise)}}
			}
			got := lint(t, in, "/home/me")
			if len(tc.want) == 0 {
				if len(got) > 0 {
					t.Errorf("want no precedence warning, got:\n%s", strings.Join(got, "\n"))
				}
				return
			}
			if len(got) != 1 {
				t.Fatalf("want one precedence warning, got %d:\n%s", len(got), strings.Join(got, "\n"))
			}
			where, first, _ := strings.Cut(tc.want[0], " ")
			code, msg, _ := strings.Cut(first, " ")
			if !strings.Contains(where, ".md") {
				where = "policy.jsonc:" + where
			}
			if !strings.HasPrefix(got[0], where+": warning: ") || !strings.HasSuffix(got[0], "["+code+"]") {
				t.Errorf("got %s\nwant it at %s with code %s", got[0], where, code)
			}
			for _, w := range append([]string{msg}, tc.want[1:]...) {
				if !strings.Contains(got[0], w) {
					t.Errorf("got %s\nwant it to say %s", got[0], w)
				}
			}
		})
	}
}

// TestPrecedenceLintOff: without the option, and on a file that failed to
// load (its rules decide nothing), there is nothing to lint.
func TestPrecedenceLintOff(t *testing.T) {
	surprise := `{"permission": {"path": {"*.env": "deny", "/home/me/proj/*": "allow"}}}`
	out, err := compiler.Compile(compiler.Input{Policy: &compiler.Source{Name: "policy.jsonc", Data: []byte(surprise)}}, compiler.WithHome("/home/me"))
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Diagnostics) != 0 {
		t.Errorf("without WithPrecedenceLint: %s", out.Diagnostics)
	}
	broken := strings.Replace(surprise, `"allow"`, `"allow",`, 1)
	got := lint(t, compiler.Input{Policy: &compiler.Source{Name: "policy.jsonc", Data: []byte(broken)}}, "/home/me")
	if len(got) != 0 {
		t.Errorf("a policy with an error: %s", got)
	}
}

// TestPrecedenceLintBundled: the bundled policies and agents are free of
// precedence surprises, whatever the length of the home directory (a
// "~/.ssh/*" deny has fewer literal characters under /root than under
// /home/someone).
func TestPrecedenceLintBundled(t *testing.T) {
	names, _ := fs.Glob(policies.FS, "*.jsonc")
	agents, _ := fs.Glob(policies.FS, "agents/*.md")
	if len(names) < 5 {
		t.Fatalf("only %d bundled policies", len(names))
	}
	for _, home := range []string{"/root", "/home/u", "/Users/someone"} {
		for _, n := range names {
			src, _ := fs.ReadFile(policies.FS, n)
			in := compiler.Input{Policy: &compiler.Source{Name: n, Data: src}}
			if strings.HasPrefix(n, "hard-guards") {
				in = compiler.Input{HardGuards: in.Policy}
			}
			for _, a := range agents {
				b, _ := fs.ReadFile(policies.FS, a)
				in.Agents = append(in.Agents, compiler.Source{Name: a, Data: b})
			}
			if got := lint(t, in, home); len(got) > 0 {
				t.Errorf("%s with home %s:\n%s", n, home, strings.Join(got, "\n"))
			}
		}
	}
}
