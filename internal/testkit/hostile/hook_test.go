package hostile

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// hookCall is a Claude Code PreToolUse call of the bash tool.
func hookCall(command string) []byte {
	b, _ := json.Marshal(map[string]any{
		"hook_event_name": "PreToolUse", "tool_name": "Bash", "session_id": "hostile",
		"tool_input": map[string]any{"command": command}, "cwd": "/tmp",
	})
	return b
}

// hookRaw is a call whose tool input is the raw JSON text input.
func hookRaw(input string) []byte {
	return []byte(`{"hook_event_name":"PreToolUse","tool_name":"Bash","session_id":"hostile","cwd":"/tmp","tool_input":` + input + `}`)
}

func repeat(s, sep string, n int) string { return strings.TrimSuffix(strings.Repeat(s+sep, n), sep) }

// answers a hostile case may get. "block" is the hook's exit 2 with a
// reason; the others are Claude Code's permissionDecision. A fault must be
// a block or an ask; a harmless call that is merely large may be allowed.
var (
	faultAnswers    = []string{"ask", "deny", "block"}
	harmlessAnswers = []string{"allow", "ask", "deny", "block"}
)

type hookCase struct {
	name   string
	stdin  []byte
	policy func(t *testing.T, dir string) string // the --policy path, or "" for the bundled one
	want   []string
	// decided: the answer must come from a decision, not from the hook's
	// deadline (bounded work: the case is refused by a limit, quickly).
	decided bool
}

func hookCases() []hookCase {
	return []hookCase{
		{name: "pipe chain just under the operator limit", stdin: hookCall(repeat("a", " | ", 9_999)), want: faultAnswers, decided: true},
		{name: "pipe chain over the operator limit", stdin: hookCall(repeat("a", " | ", 10_001)), want: faultAnswers, decided: true},
		{name: "and-chain over the operator limit", stdin: hookCall(repeat("true", " && ", 20_000)), want: faultAnswers, decided: true},
		{name: "100,000 units by semicolons", stdin: hookCall(repeat("echo x", "; ", 100_000)), want: faultAnswers, decided: true},
		{name: "100,000 units by newlines", stdin: hookCall(repeat("echo x", "\n", 100_000)), want: faultAnswers, decided: true},
		{name: "400,000 words", stdin: hookCall("echo " + repeat("w", " ", 400_000)), want: faultAnswers, decided: true},
		{name: "80,000 path operands", stdin: hookCall("cat " + numbered("/a/b/c", 80_000)), want: harmlessAnswers, decided: true},
		{name: "a path of 400,000 components", stdin: hookCall("cat " + strings.Repeat("a/", 400_000)), want: faultAnswers, decided: true},
		{name: "subshells nested 1,001 deep", stdin: hookCall(strings.Repeat("(", 1_001) + "a" + strings.Repeat(")", 1_001)), want: faultAnswers, decided: true},
		{name: "arithmetic nested 999 deep", stdin: hookCall("echo $((" + strings.Repeat("(", 999) + "1" + strings.Repeat(")", 999) + "))"), want: faultAnswers, decided: true},
		{name: "command substitutions nested 500 deep", stdin: hookCall("echo " + strings.Repeat("$(", 500) + "a" + strings.Repeat(")", 500)), want: faultAnswers, decided: true},
		{name: "brace expansion of 2^30 words", stdin: hookCall("echo " + strings.Repeat("{a,b}", 30)), want: faultAnswers, decided: true},
		{name: "20,000 here-documents", stdin: hookCall(heredocs(20_000)), want: harmlessAnswers, decided: true},
		{name: "globs over the whole tree", stdin: hookCall("cat " + repeat("/*/*/*/*", " ", 200)), want: faultAnswers, decided: true},
		{name: "NUL and invalid UTF-8 in the command", stdin: hookCall("rm -rf /\x00\xff\xfe ok"), want: faultAnswers, decided: true},
		{name: "tool input nested 9,000 deep", stdin: hookRaw(`{"command":"ls","x":` + strings.Repeat("[", 9_000) + strings.Repeat("]", 9_000) + `}`), want: harmlessAnswers, decided: true},
		{name: "tool input nested 100,000 deep", stdin: hookRaw(`{"command":"ls","x":` + strings.Repeat("[", 100_000) + strings.Repeat("]", 100_000) + `}`), want: faultAnswers, decided: true},
		{name: "hook input over 4 MiB", stdin: hookCall("echo " + strings.Repeat("x", 5<<20)), want: faultAnswers, decided: true},
		{name: "not JSON", stdin: []byte("{\"tool_name\": \"Bash\", "), want: faultAnswers, decided: true},
		{name: "policy is a FIFO", stdin: hookCall("ls"), policy: fifoPolicy, want: faultAnswers, decided: true},
		{name: "policy is /dev/zero", stdin: hookCall("ls"), policy: func(*testing.T, string) string { return "/dev/zero" }, want: faultAnswers, decided: true},
		{name: "policy is a directory", stdin: hookCall("ls"), policy: func(_ *testing.T, dir string) string { return dir }, want: faultAnswers, decided: true},
		{name: "policy larger than the size cap", stdin: hookCall("ls"), policy: hugePolicy, want: faultAnswers, decided: true},
	}
}

func numbered(prefix string, n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "%s%d ", prefix, i)
	}
	return b.String()
}

func heredocs(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "cat <<E%d\nx\nE%d\n", i, i)
	}
	return b.String()
}

func fifoPolicy(t *testing.T, dir string) string {
	p := filepath.Join(dir, "policy.jsonc")
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	return p
}

func hugePolicy(t *testing.T, dir string) string {
	p := filepath.Join(dir, "policy.jsonc")
	body := `{"bash": {"ls *": "allow"}, "x": "` + strings.Repeat("y", 64<<20) + `"}`
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestHookHostileInputs sends each hostile input to `regate hook claude`:
// it must answer (no crash, no hang past the hook's deadline), under the
// memory ceiling, with a block or an ask where the input is a fault.
func TestHookHostileInputs(t *testing.T) {
	for _, c := range hookCases() {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			args := []string{"hook", "claude", "--no-state"}
			if c.policy != nil {
				args = append(args, "--policy", c.policy(t, dir))
			}
			r := runRegate(t, HookDeadline+grace, c.stdin, []string{"HOME=" + dir}, args...)
			noCrash(t, r)
			got := hookAnswer(t, r)
			if !contains(c.want, got) {
				t.Fatalf("answer %q, want one of %v (stderr %.300s)", got, c.want, r.stderr)
			}
			if c.decided && strings.Contains(r.stderr, "did not decide within") {
				t.Fatalf("refused by the deadline after %s, not by a limit: the work is not bounded", r.elapsed.Round(1e6))
			}
			if r.peakRSS > HookRSS {
				t.Fatalf("peak RSS %d MiB, ceiling %d MiB", r.peakRSS>>20, HookRSS>>20)
			}
			t.Logf("%s in %s, peak %d MiB", got, r.elapsed.Round(1e6), r.peakRSS>>20)
		})
	}
}

// hookAnswer reads Claude Code's answer: exit 2 is a block, exit 0 carries
// permissionDecision on stdout.
func hookAnswer(t *testing.T, r result) string {
	t.Helper()
	switch r.exit {
	case 2:
		if strings.TrimSpace(r.stderr) == "" {
			t.Fatal("a block without a reason")
		}
		return "block"
	case 0:
		var out struct {
			HookSpecificOutput struct {
				PermissionDecision string `json:"permissionDecision"`
			} `json:"hookSpecificOutput"`
		}
		if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
			t.Fatalf("answer is not JSON: %v: %.300s", err, r.stdout)
		}
		return out.HookSpecificOutput.PermissionDecision
	}
	t.Fatalf("exit %d: %.300s", r.exit, r.stderr)
	return ""
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
