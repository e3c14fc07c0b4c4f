package importrules

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/tailscale/hujson"
)

const starterPolicy = `// the starter
{
  "$schema": "../compiler/schema/policy.schema.json",
  "permission": {
    "*": "ask",
    "read": "allow",
    "bash": {
      "*": "ask",
      // read-only
      "git status": "allow",
      "git diff *": "allow",
      "ls *": "allow"
    }
  },
  "examples": [
    { "call": { "tool": "bash", "input": { "command": "ls" } }, "expect": "allow" },
    { "call": { "tool": "bash", "input": { "command": "pwd" } }, "expect": "ask" }
  ]
}
`

const starterGuards = `{
  "permission": {
    "bash": { "rm -rf /*": "deny" }
  }
}
`

func TestApply(t *testing.T) {
	res := Result{Host: "claude", Rules: []Rule{
		claudeRule(Pos{File: "s.json", Line: 2, Col: 3}, "Bash(git:*)", Ask, "/p"),
		claudeRule(Pos{File: "s.json", Line: 3, Col: 3}, "Bash(ls:*)", Ask, "/p"),
		claudeRule(Pos{File: "s.json", Line: 4, Col: 3}, "Bash(curl:*)", Deny, "/p"),
		claudeRule(Pos{File: "s.json", Line: 5, Col: 3}, "Read(./src/**)", Allow, "/p"),
		claudeRule(Pos{File: "s.json", Line: 6, Col: 3}, "WebFetch", Allow, "/p"),
	}}
	st, err := Apply([]byte(starterPolicy), []byte(starterGuards), res)
	if err != nil {
		t.Fatal(err)
	}
	pol := decode(t, st.Policy)
	bash := pol["permission"].(map[string]any)["bash"].(map[string]any)
	for k, want := range map[string]any{"git *": "ask", "ls *": "ask", "*": "ask", "git status": nil, "git diff *": nil} {
		if got := bash[k]; got != want {
			t.Errorf("bash %q = %v, want %v", k, got, want)
		}
	}
	read := pol["permission"].(map[string]any)["read"].(map[string]any)
	if read["*"] != "allow" || read["src"] != "allow" || read["src/*"] != "allow" {
		t.Errorf("read %v", read)
	}
	if pol["permission"].(map[string]any)["WebFetch"].(map[string]any)["*"] != "allow" {
		t.Errorf("WebFetch %v", pol["permission"])
	}
	if pol["$schema"] != SchemaBase+"policy.schema.json" {
		t.Errorf("$schema %v", pol["$schema"])
	}
	guards := decode(t, st.HardGuards)["permission"].(map[string]any)["bash"].(map[string]any)
	if guards["rm -rf /*"] != "deny" || guards["curl *"].(map[string]any)["action"] != "deny" {
		t.Errorf("hard guards %v", guards)
	}
	for _, want := range []string{"// the starter", "// s.json:2:3: Bash(git:*)", "// s.json:4:3: Bash(curl:*)"} {
		if !strings.Contains(string(st.Policy)+string(st.HardGuards), want) {
			t.Errorf("the files lack the comment %q", want)
		}
	}
	changes := strings.Join(st.Changes, "\n")
	for _, want := range []string{
		`bash "ls *": the imported ask replaces the starter's allow`,
		`bash "git status": allow is taken out of the starter: the imported ask Bash(git:*)`,
		`bash "git diff *": allow is taken out`,
	} {
		if !strings.Contains(changes, want) {
			t.Errorf("changes\n%s\nlack %q", changes, want)
		}
	}
}

func TestDropExamples(t *testing.T) {
	out, n, err := DropExamples([]byte(starterPolicy), []Pos{{Line: 16, Col: 5}})
	if err != nil || n != 1 {
		t.Fatalf("dropped %d, %v", n, err)
	}
	ex := decode(t, out)["examples"].([]any)
	if len(ex) != 1 || !strings.Contains(string(out), `"pwd"`) || strings.Contains(string(out), `"command": "ls"`) {
		t.Errorf("examples %v", ex)
	}
}

func decode(t *testing.T, src []byte) map[string]any {
	t.Helper()
	std, err := hujson.Standardize(append([]byte(nil), src...))
	if err != nil {
		t.Fatalf("%v\n%s", err, src)
	}
	var m map[string]any
	if err := json.Unmarshal(std, &m); err != nil {
		t.Fatal(err)
	}
	return m
}
