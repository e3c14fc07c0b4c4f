package compiler_test

import (
	"io/fs"
	"slices"
	"strings"
	"testing"

	"github.com/regate/regate/compiler"
	"github.com/regate/regate/internal/testkit/golden"
	"github.com/regate/regate/policies"
)

// FuzzCompile feeds any bytes to the compiler as a policy, a hard-guards
// file and an agent file, with the precedence lint. It must never panic or
// return a Go error; every diagnostic has a position inside the file (the
// lint's are warnings); and a file with an error fails closed (its layer
// gets a floor in the data).
func FuzzCompile(f *testing.F) {
	for _, tc := range badInputs {
		if len(tc.src) < 1<<16 {
			f.Add(tc.src)
		}
	}
	names, _ := fs.Glob(policies.FS, "*.jsonc")
	mds, _ := fs.Glob(policies.FS, "agents/*.md")
	for _, n := range append(names, mds...) {
		b, _ := fs.ReadFile(policies.FS, n)
		f.Add(string(b))
	}
	for _, path := range []string{"testdata/golden/read-only-bash.txtar", "testdata/golden/hard-guards-and-agents.txtar"} {
		_, files := golden.Read(f, path)
		for name, text := range files {
			if !strings.HasPrefix(name, "out/") {
				f.Add(text)
			}
		}
	}
	f.Fuzz(func(t *testing.T, src string) {
		in := compiler.Input{
			Policy:     &compiler.Source{Name: "policy.jsonc", Data: []byte(src)},
			HardGuards: &compiler.Source{Name: "hard-guards.jsonc", Data: []byte(src)},
			Agents:     []compiler.Source{{Name: "agents/a.md", Data: []byte(src)}},
		}
		out, err := compiler.Compile(in, compiler.WithHome("/home/u"), compiler.WithPrecedenceLint())
		if err != nil {
			t.Fatalf("Compile returned a Go error: %v", err)
		}
		lines := strings.Count(src, "\n") + 1
		failed := map[string]bool{}
		for _, d := range out.Diagnostics {
			if d.Pos.Line < 1 || d.Pos.Line > lines || d.Pos.Col < 1 || d.Msg == "" || d.Code == "" {
				t.Fatalf("diagnostic outside the %d-line source or empty: %+v", lines, d)
			}
			switch d.Code {
			case compiler.CodeOutrankedDeny, compiler.CodeOrderDecides, compiler.CodePrecedenceUnchecked:
				if d.Severity != compiler.SeverityWarning {
					t.Fatalf("the precedence lint made an error: %+v", d)
				}
			}
			// An example's error leaves the rules in force (the example is
			// left out); every other error fails its file closed.
			if d.Severity == compiler.SeverityError && !slices.Contains(out.ExampleDiagnostics, d) {
				failed[d.Pos.File] = true
			}
		}
		gen := out.Data["regate"].(map[string]any)["rules"].(map[string]any)
		for file, layer := range map[string]map[string]any{
			"policy.jsonc":      gen["policy"].(map[string]any),
			"hard-guards.jsonc": gen["hardguards"].(map[string]any),
			"agents/a.md":       gen["agents"].(map[string]any)["agents"].(map[string]any)["a"].(map[string]any),
		} {
			if _, floored := layer["floors"]; failed[file] != floored {
				t.Fatalf("%s: errors %v but floors %v", file, failed[file], floored)
			}
		}
	})
}

// FuzzApprovals compiles any session approval: never a panic; an approval
// with a surface compiles or is refused with an error, never silently
// dropped; one without a surface is refused.
func FuzzApprovals(f *testing.F) {
	for _, s := range [][2]string{{"bash", "make deploy"}, {"path", "~/.ssh/*"}, {"mcp", "github:*"}, {"", "x"},
		{"bash", "*"}, {"bash", "**"}, {"path", "[a-"}, {"read", "~"}, {"bash", "a\x00b"}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, surface, pattern string) {
		m, err := compiler.CompileApprovals([]compiler.Approval{{Surface: surface, Pattern: pattern}}, "/home/u")
		switch {
		case surface == "" && err == nil:
			t.Fatal("an approval without a surface compiled")
		case err == nil && m[surface] == nil:
			t.Fatalf("approval %q %q compiled to nothing: %v", surface, pattern, m)
		}
	})
}
