package compiler_test

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/regate/regate/compiler"
	"github.com/regate/regate/compiler/action"
	"github.com/regate/regate/facts"
	"github.com/regate/regate/runtime"
)

// allowAll is a policy that would allow the probe call if it were used.
const allowAll = `{"permission": {"*": "allow", "read": "allow"}}`

// badInputs are rule files that are wrong in one way each. For every one the
// compiler must report the code at the position, and the decision for a
// probe call must be the documented fail-closed outcome.
var badInputs = []struct {
	name     string
	file     string // policy, hard-guards or agent
	src      string
	code     string
	pos      string
	severity compiler.Severity
	// action and matched are the outcome for reading a.txt as agent "a".
	action  action.Action
	matched string
}{
	{"jsonc syntax error", "policy", `{"permission": {"*": "allow" "read": "allow"}}`, compiler.CodeSyntax, "policy.jsonc:1:30", compiler.SeverityError, "ask", "<invalid-policy>"},
	{"trailing comma", "policy", "{\n  \"permission\": {\"*\": \"allow\",}\n}", compiler.CodeTrailingComma, "policy.jsonc:2:30", compiler.SeverityError, "ask", "<invalid-policy>"},
	{"trailing comma in array", "policy", `{"authorizerChain": ["a",], "permission": {"*": "allow"}}`, compiler.CodeTrailingComma, "policy.jsonc:1:25", compiler.SeverityError, "ask", "<invalid-policy>"},
	{"unknown action", "policy", `{"permission": {"*": "allow", "read": "maybe"}}`, compiler.CodeUnknownAction, "policy.jsonc:1:39", compiler.SeverityError, "ask", "<invalid-policy>"},
	{"wrong value type", "policy", `{"permission": {"*": "allow", "read": 3}}`, compiler.CodeWrongType, "policy.jsonc:1:39", compiler.SeverityError, "ask", "<invalid-policy>"},
	{"wrong knob type", "policy", `{"yoloMode": "yes", "permission": {"*": "allow"}}`, compiler.CodeWrongType, "policy.jsonc:1:14", compiler.SeverityError, "ask", "<invalid-policy>"},
	{"deny object with ask", "policy", `{"permission": {"*": "allow", "read": {"*": {"action": "ask", "reason": "x"}}}}`, compiler.CodeDenyObjectAction, "policy.jsonc:1:56", compiler.SeverityError, "ask", "<invalid-policy>"},
	{"hard guard with allow", "hard-guards", `{"permission": {"read": {"*.txt": "allow"}}}`, compiler.CodeHardGuardAction, "hard-guards.jsonc:1:35", compiler.SeverityError, "ask", "<invalid-hard-guards>"},
	{"hard guard object with ask", "hard-guards", `{"permission": {"read": {"*.txt": {"action": "ask"}}}}`, compiler.CodeHardGuardAction, "hard-guards.jsonc:1:46", compiler.SeverityError, "ask", "<invalid-hard-guards>"},
	{"agent broken frontmatter", "agent", "---\npermission:\n  read: [allow\n---\n", compiler.CodeFrontmatter, "agents/a.md:2:1", compiler.SeverityError, "ask", "<invalid-agent-file>"},
	{"agent unclosed frontmatter", "agent", "---\npermission:\n  read: allow\n", compiler.CodeFrontmatter, "agents/a.md:1:1", compiler.SeverityError, "ask", "<invalid-agent-file>"},
	{"agent yaml anchor", "agent", "---\npermission: &p\n  read: allow\n---\n", compiler.CodeFrontmatter, "agents/a.md:2:13", compiler.SeverityError, "ask", "<invalid-agent-file>"},
	{"duplicate frontmatter key", "agent", "---\npermission:\n  read: allow\n  read: deny\n---\n", compiler.CodeDuplicateKey, "agents/a.md:4:3", compiler.SeverityWarning, "deny", "*"},
	{"duplicate policy key", "policy", `{"permission": {"*": "deny", "read": "deny", "read": "allow"}}`, compiler.CodeDuplicateKey, "policy.jsonc:1:46", compiler.SeverityWarning, "allow", "*"},
	{"unknown top-level key", "policy", `{"permisson": {}, "permission": {"*": "allow"}}`, compiler.CodeUnknownKey, "policy.jsonc:1:2", compiler.SeverityWarning, "allow", "*"},
	// A misspelt key is a warning, not an error, so a file written for a newer
	// regate still loads; the decision shows what the typo costs.
	{"misspelt frontmatter key", "agent", "---\ndescription: the host's key\npermision:\n  read: deny\n---\n", compiler.CodeUnknownKey, "agents/a.md:3:1", compiler.SeverityWarning, "allow", "*"},
	{"misspelt deny object key", "policy", `{"permission": {"*": "allow", "read": {"*": {"action": "deny", "reasn": "x"}}}}`, compiler.CodeUnknownKey, "policy.jsonc:1:64", compiler.SeverityWarning, "deny", "*"},
	{"deprecated key", "policy", `{"annotators": [], "permission": {"*": "allow"}}`, compiler.CodeDeprecatedKey, "policy.jsonc:1:2", compiler.SeverityWarning, "allow", "*"},
	{"empty policy", "policy", "", compiler.CodeEmptyFile, "policy.jsonc:1:1", compiler.SeverityError, "ask", "<invalid-policy>"},
	{"whitespace-only hard guards", "hard-guards", "  \n\t\n", compiler.CodeEmptyFile, "hard-guards.jsonc:1:1", compiler.SeverityError, "ask", "<invalid-hard-guards>"},
	{"10 MB policy", "policy", `{"permission": {"*": "allow"}}` + strings.Repeat(" ", 10<<20), compiler.CodeTooLarge, "policy.jsonc:1:1", compiler.SeverityError, "ask", "<invalid-policy>"},
	{"invalid UTF-8", "policy", "{\"permission\": {\"*\": \"allow\",\n \"read\": \"al\xfflow\"}}", compiler.CodeInvalidUTF8, "policy.jsonc:2:13", compiler.SeverityError, "ask", "<invalid-policy>"},
	{"invalid UTF-8 in agent", "agent", "---\npermission:\n  read: \xc3\x28\n---\n", compiler.CodeInvalidUTF8, "agents/a.md:3:9", compiler.SeverityError, "ask", "<invalid-agent-file>"},
	{"deep nesting", "policy", strings.Repeat("[", 100) + strings.Repeat("]", 100), compiler.CodeTooDeep, "policy.jsonc:1:66", compiler.SeverityError, "ask", "<invalid-policy>"},
	{"policy not an object", "policy", `["allow"]`, compiler.CodeWrongType, "policy.jsonc:1:1", compiler.SeverityError, "ask", "<invalid-policy>"},
	{"shell tool without command argument", "policy", `{"shellTools": {"x": {}}, "permission": {"*": "allow"}}`, compiler.CodeMissingField, "policy.jsonc:1:22", compiler.SeverityError, "ask", "<invalid-policy>"},
	{"decisionFloor other than ask", "policy", `{"shellTools": {"x": {"commandArgument": "c", "decisionFloor": "allow"}}, "permission": {"*": "allow"}}`, compiler.CodeUnknownAction, "policy.jsonc:1:64", compiler.SeverityError, "ask", "<invalid-policy>"},
	{"non-string reason", "policy", `{"permission": {"*": "allow", "path": {"*.pem": {"action": "deny", "reason": 7}}}}`, compiler.CodeReasonType, "policy.jsonc:1:78", compiler.SeverityWarning, "allow", "*"},
	{"pattern too long", "policy", `{"permission": {"*": "allow", "bash": {"` + strings.Repeat("x", compiler.MaxPatternLength+1) + `": "allow"}}}`, compiler.CodePatternTooLong, "policy.jsonc:1:40", compiler.SeverityError, "ask", "<invalid-policy>"},
	{"too many rules", "policy", tooManyRules(), compiler.CodeTooManyRules, fmt.Sprintf("policy.jsonc:%d:2", compiler.MaxRules+2), compiler.SeverityError, "ask", "<invalid-policy>"},
	{"out of range knob", "policy", `{"autoReview": {"maxAttempts": 9}, "permission": {"*": "allow"}}`, compiler.CodeOutOfRange, "policy.jsonc:1:32", compiler.SeverityError, "ask", "<invalid-policy>"},
}

func TestBadInput(t *testing.T) {
	for _, tc := range badInputs {
		t.Run(tc.name, func(t *testing.T) {
			in := compiler.Input{Policy: &compiler.Source{Name: "policy.jsonc", Data: []byte(allowAll)}}
			switch tc.file {
			case "policy":
				in.Policy = &compiler.Source{Name: "policy.jsonc", Data: []byte(tc.src)}
			case "hard-guards":
				in.HardGuards = &compiler.Source{Name: "hard-guards.jsonc", Data: []byte(tc.src)}
			case "agent":
				in.Agents = []compiler.Source{{Name: "agents/a.md", Data: []byte(tc.src)}}
			}
			out, err := compiler.Compile(in, compiler.WithHome("/home/u"))
			if err != nil {
				t.Fatalf("Compile returned a Go error for bad input: %v", err)
			}
			var found *compiler.Error
			for _, d := range out.Diagnostics {
				if d.Code == tc.code {
					found = d
					break
				}
			}
			if found == nil {
				t.Fatalf("no %s diagnostic; got %v", tc.code, out.Diagnostics)
			}
			if found.Pos.String() != tc.pos || found.Severity != tc.severity {
				t.Errorf("diagnostic at %s (%s), want %s (%s): %v", found.Pos, found.Severity, tc.pos, tc.severity, found)
			}
			if found.Msg == "" || !strings.Contains(found.Error(), tc.pos) {
				t.Errorf("diagnostic %q does not name its position", found.Error())
			}
			eng, err := runtime.New(context.Background(), out, runtime.WithCwd("/home/u/repo"), runtime.WithFS(facts.MapFS{}))
			if err != nil {
				t.Fatal(err)
			}
			d, err := eng.Decide(context.Background(), facts.Call{Tool: "read", Agent: "a", Input: map[string]any{"path": "a.txt"}})
			if err != nil {
				t.Fatal(err)
			}
			if d.Action != tc.action || d.Matched != tc.matched {
				t.Errorf("decision %s [%s], want %s [%s]", d.Action, d.Matched, tc.action, tc.matched)
			}
			if tc.severity == compiler.SeverityError && !bytes.Contains([]byte(d.Reason), []byte(tc.pos)) {
				t.Errorf("fail-closed reason %q does not name %s", d.Reason, tc.pos)
			}
		})
	}
}

// tooManyRules is a policy with one rule more than MaxRules, one a line.
func tooManyRules() string {
	var b strings.Builder
	b.WriteString(`{"permission": {"*": "allow", "bash": {` + "\n")
	for i := range compiler.MaxRules + 1 {
		fmt.Fprintf(&b, " \"t%d *\": \"allow\",\n", i)
	}
	b.WriteString(` "x": "allow"}}}`)
	return b.String()
}
