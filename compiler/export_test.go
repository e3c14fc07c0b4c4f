package compiler_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/regate/regate/compiler"
)

// TestExportGolden exports the spec's Read-Only Bash Command Allowlist
// recipe in the three formats; UPDATE_GOLDEN=1 rewrites the goldens.
func TestExportGolden(t *testing.T) {
	const name = "policies/read-only-bash-allowlist.jsonc"
	src, err := os.ReadFile(filepath.Join("..", name))
	if err != nil {
		t.Fatal(err)
	}
	out, err := compiler.Compile(compiler.Input{Policy: &compiler.Source{Name: name, Data: src}}, compiler.WithHome("/home/u"), compiler.WithPrecedenceLint())
	if err != nil {
		t.Fatal(err)
	}
	audit, err := out.Export()
	if err != nil {
		t.Fatal(err)
	}
	for ext, write := range map[string]func(*bytes.Buffer) error{
		"json": func(b *bytes.Buffer) error { return audit.WriteJSON(b) },
		"csv":  func(b *bytes.Buffer) error { return audit.WriteCSV(b) },
		"md":   func(b *bytes.Buffer) error { return audit.WriteMarkdown(b) },
	} {
		var got bytes.Buffer
		if err := write(&got); err != nil {
			t.Fatal(err)
		}
		golden := filepath.Join("..", "testdata", "export", "read-only-bash-allowlist."+ext)
		if os.Getenv("UPDATE_GOLDEN") == "1" {
			if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(golden, got.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatalf("%v (UPDATE_GOLDEN=1 writes it)", err)
		}
		if !bytes.Equal(got.Bytes(), want) {
			t.Errorf("%s differs from the export; UPDATE_GOLDEN=1 rewrites it:\n%s", golden, got.String())
		}
	}
}

// TestExportFindsRulesThatNeverDecide: a hard guard over a policy rule, a
// more specific rule covering a less specific one (one pattern spelt two
// ways: the later written ranks higher), and a key written twice.
func TestExportFindsRulesThatNeverDecide(t *testing.T) {
	out, err := compiler.Compile(compiler.Input{
		Policy: &compiler.Source{Name: "p.jsonc", Data: []byte(`{"permission": {
			"path": {"~/.ssh/*": "deny", "/home/u/.ssh/*": "ask", "*.env": "allow"},
			"bash": {"git *": "allow", "git": "ask", "ls": "allow", "ls": "deny"}}}`)}, // "git" decides the bare git, "git *" the rest
		HardGuards: &compiler.Source{Name: "h.jsonc", Data: []byte(`{"permission": {"path": {"*.env": "deny"}}}`)},
	}, compiler.WithHome("/home/u"), compiler.WithPrecedenceLint())
	if err != nil {
		t.Fatal(err)
	}
	audit, err := out.Export()
	if err != nil {
		t.Fatal(err)
	}
	// "~/.ssh/*" and "/home/u/.ssh/*" are one pattern: only key order ranks them.
	if len(audit.Precedence) != 1 || audit.Precedence[0].Code != compiler.CodeOrderDecides || audit.Precedence[0].Pos != "p.jsonc:2:33" {
		t.Errorf("precedence %+v; want the order_decides of /home/u/.ssh/* at p.jsonc:2:33", audit.Precedence)
	}
	never := map[string]string{}
	for _, r := range audit.Rules {
		if r.NeverDecides {
			never[r.Layer+" "+r.Surface+" "+r.Pattern] = r.ShadowedBy
		}
	}
	for _, want := range []string{"policy path *.env", "policy path ~/.ssh/*"} {
		if _, ok := never[want]; !ok {
			t.Errorf("%s is not reported as never deciding: %v", want, never)
		}
	}
	if len(never) != 2 {
		t.Errorf("never deciding: %v; want 2", never)
	}
	if len(audit.Duplicates) != 1 {
		t.Errorf("duplicates %v; want the second ls", audit.Duplicates)
	}
}
