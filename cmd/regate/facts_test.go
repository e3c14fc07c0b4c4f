package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/regate/regate/compiler"
	"github.com/regate/regate/compiler/action"
	"github.com/regate/regate/facts"
	"github.com/regate/regate/internal/testkit/stockopa"
	"github.com/regate/regate/runtime"
)

// runRegate runs the CLI in this process and returns its standard output,
// failing the test on any exit code but 0.
func runRegate(t *testing.T, args ...string) string {
	t.Helper()
	var stdout, stderr bytes.Buffer
	if code := Main(args, strings.NewReader(""), &stdout, &stderr); code != 0 {
		t.Fatalf("regate %s: exit %d\n%s", strings.Join(args, " "), code, stderr.String())
	}
	return stdout.String()
}

// TestFactsCarriesApprovals: the input document `regate facts` prints with
// --approve, or with --session for approvals `regate approve` recorded,
// gets from stock OPA (the bundle, evaluated by OPA's rego package) the
// decision the embedded runtime makes with the same approvals.
func TestFactsCarriesApprovals(t *testing.T) {
	dir := t.TempDir()
	policy := filepath.Join(dir, "policy.jsonc")
	src := `{"permission": {"*": "ask", "bash": {"git status": "allow", "rm -rf *": "deny"}, "read": {"*.env": "deny"}}}`
	if err := os.WriteFile(policy, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	state := filepath.Join(dir, "state")
	rules := []string{"--policy", policy, "--home", "/home/u"}
	runRegate(t, append([]string{"approve", "--state-dir", state, "--session", "s1", "bash", "make deploy"}, rules...)...)
	runRegate(t, append([]string{"approve", "--state-dir", state, "--session", "s1", "--wide", "read", "/r/config/*"}, rules...)...)

	out, err := compiler.Compile(compiler.Input{Policy: &compiler.Source{Name: policy, Data: []byte(src)}}, compiler.WithHome("/home/u"))
	if err != nil {
		t.Fatal(err)
	}
	recorded := []compiler.Approval{{Surface: "bash", Pattern: "make deploy"}, {Surface: "read", Pattern: "/r/config/*"}}
	deploy := facts.Call{Tool: "bash", Input: map[string]any{"command": "make deploy"}}
	config := facts.Call{Tool: "read", Input: map[string]any{"path": "config/app.yaml"}}
	ctx := context.Background()
	for _, tc := range []struct {
		name      string
		flags     []string
		call      facts.Call
		approvals []compiler.Approval // what the embedded runtime is given
		want      action.Action
	}{
		{name: "no approval", call: deploy, want: "ask"},
		{name: "--approve", flags: []string{"--approve", "bash=make deploy"}, call: deploy,
			approvals: recorded[:1], want: "allow"},
		{name: "--approve another pattern", flags: []string{"--approve", "bash=make test"}, call: deploy,
			approvals: []compiler.Approval{{Surface: "bash", Pattern: "make test"}}, want: "ask"},
		{name: "--approve twice", flags: []string{"--approve", "bash=make test", "--approve", "read=/r/config/*"}, call: config,
			approvals: []compiler.Approval{{Surface: "bash", Pattern: "make test"}, recorded[1]}, want: "allow"},
		{name: "--session with recorded approvals", flags: []string{"--session", "s1", "--state-dir", state}, call: deploy,
			approvals: recorded, want: "allow"},
		{name: "--session, a path", flags: []string{"--session", "s1", "--state-dir", state}, call: config,
			approvals: recorded, want: "allow"},
		{name: "--session without approvals", flags: []string{"--session", "s2", "--state-dir", state}, call: deploy, want: "ask"},
		{name: "--session and --approve", flags: []string{"--session", "s2", "--state-dir", state, "--approve", "bash=make *"}, call: deploy,
			approvals: []compiler.Approval{{Surface: "bash", Pattern: "make *"}}, want: "allow"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			input, _ := json.Marshal(tc.call.Input)
			args := append([]string{"facts", "--cwd", "/r", "--tool", tc.call.Tool, "--input", string(input)}, rules...)
			var doc map[string]any
			if err := json.Unmarshal([]byte(runRegate(t, append(args, tc.flags...)...)), &doc); err != nil {
				t.Fatal(err)
			}
			got, err := stockopa.Eval(ctx, out, "regate/lib/permission/decision", doc)
			if err != nil {
				t.Fatal(err)
			}
			eng, err := runtime.New(ctx, out, runtime.WithCwd("/r"))
			if err != nil {
				t.Fatal(err)
			}
			if len(tc.approvals) > 0 {
				if err := eng.Session().Approve(tc.approvals...); err != nil {
					t.Fatal(err)
				}
			}
			want, err := eng.Decide(ctx, tc.call)
			if err != nil {
				t.Fatal(err)
			}
			g, _ := got.(map[string]any)
			if want.Action != tc.want {
				t.Errorf("the embedded runtime decided %s (%s); want %s", want.Action, want.Matched, tc.want)
			}
			if g["action"] != string(want.Action) || g["matched"] != want.Matched || g["layer"] != want.Layer {
				t.Errorf("stock OPA decided %v; the embedded runtime %+v", got, want)
			}
		})
	}
}

// TestFactsFlagErrors: a malformed --approve and --session without a state
// folder are usage errors.
func TestFactsFlagErrors(t *testing.T) {
	for _, args := range [][]string{
		{"--approve", "make deploy"},
		{"--approve", "=make deploy"},
		{"--session", "s1", "--no-state"},
	} {
		var stdout, stderr bytes.Buffer
		args = append([]string{"facts", "--tool", "bash", "--input", `{"command":"ls"}`}, args...)
		if code := Main(args, strings.NewReader(""), &stdout, &stderr); code != exitUsage {
			t.Errorf("regate %s: exit %d; want %d (%s)", strings.Join(args, " "), code, exitUsage, stderr.String())
		}
	}
}
