package schema_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"go.yaml.in/yaml/v3"

	"github.com/regate/regate/compiler/schema"
)

// TestBundledPoliciesValidate: every policy regate ships validates against
// its schema, and names it in "$schema", so an editor opening one checks
// it as the user edits.
func TestBundledPoliciesValidate(t *testing.T) {
	files, err := filepath.Glob("../../policies/*.jsonc")
	if err != nil || len(files) < 5 {
		t.Fatalf("bundled policies: %v %v", files, err)
	}
	for _, f := range files {
		k, ref := schema.Policy, "../compiler/schema/policy.schema.json"
		if strings.HasPrefix(filepath.Base(f), "hard-guards") {
			k, ref = schema.HardGuards, "../compiler/schema/hard-guards.schema.json"
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		doc := jsonc(t, string(b))
		expectValid(t, f, k, doc)
		if got, _ := doc.(map[string]any)["$schema"].(string); got != ref {
			t.Errorf("%s: $schema is %q, want %q", f, got, ref)
		} else if _, err := os.Stat(filepath.Join(filepath.Dir(f), ref)); err != nil {
			t.Errorf("%s: $schema names a file that is not there: %v", f, err)
		}
	}
	agents, err := filepath.Glob("../../policies/agents/*.md")
	if err != nil || len(agents) == 0 {
		t.Fatalf("bundled agents: %v %v", agents, err)
	}
	for _, f := range agents {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		expectValid(t, f, schema.Agent, frontmatter(t, f, b))
	}
}

// TestCorpusPoliciesValidate: every rule document the conformance corpus
// holds validates, except those that are wrong on purpose, which must
// not: the schema and the cases agree on what a valid document is.
func TestCorpusPoliciesValidate(t *testing.T) {
	// invalidOnPurpose are the cases whose documents test what happens to
	// a document the schema refuses.
	invalidOnPurpose := map[string]bool{
		"subset-unknown-field-fails":      true, // a field outside the table fails subset
		"subset-window-24-00-invalid":     true, // an invalid window is a problem, not a decoding error
		"narrow-rate-leading-zero-errors": true, // 010/hour is not a rate
		"narrow-rate-bad-unit-errors":     true, // nor is 1/fortnight
		"reason-non-string-ignored":       true, // a reason that is no string is ignored, with a warning
	}
	invalid := map[string]bool{}
	seen := 0
	check := func(id string, k schema.Kind, doc any) {
		t.Helper()
		seen++
		vs, err := schema.Validate(k, doc)
		if err != nil {
			t.Fatal(err)
		}
		if len(vs) > 0 {
			invalid[id] = true
			if !invalidOnPurpose[id] {
				t.Errorf("case %s: the %s document does not validate: %v", id, k, vs)
			}
		}
	}
	defer func() {
		for id := range invalidOnPurpose {
			if !invalid[id] {
				t.Errorf("case %s is listed as invalid on purpose, but every document of it validates (or it is gone)", id)
			}
		}
	}()
	for _, c := range readCases(t, "permission.jsonl") {
		check(c.ID, schema.Policy, c.raw["policy"])
		if hg, ok := c.raw["hardGuards"]; ok {
			check(c.ID, schema.HardGuards, hg)
		}
		if a, ok := c.raw["agent"]; ok {
			check(c.ID, schema.Agent, a)
		}
	}
	for _, c := range readCases(t, "delegation.jsonl") {
		in, _ := c.raw["inputs"].(map[string]any)
		for _, key := range []string{"parent", "child"} {
			if p, ok := in[key]; ok {
				check(c.ID, schema.Delegation, p)
			}
		}
		if ps, ok := in["policies"].(map[string]any); ok {
			for _, p := range ps {
				check(c.ID, schema.Delegation, p)
			}
		}
		if a, ok := in["args"]; ok && c.raw["op"] == "narrow" {
			check(c.ID, schema.DelegationRequest, a)
		}
	}
	for _, c := range readCases(t, "profile.jsonl") {
		for _, scope := range []string{"global", "project"} {
			cfg, ok := c.raw[scope].(map[string]any)
			if !ok || expectsConfigDiagnostic(c.raw) {
				continue // no file, raw text, or a config that is wrong on purpose
			}
			if _, has := cfg["version"]; !has {
				cfg["version"] = json.Number("1") // the corpus's convenience: an object without version is version 1
			}
			check(c.ID, schema.ProfileConfig, cfg)
		}
	}
	if seen < 500 {
		t.Errorf("only %d documents checked; the corpus has more", seen)
	}
}

// expectsConfigDiagnostic reports whether a profile case expects a
// diagnostic of its config files (config-*): their documents are wrong on
// purpose.
func expectsConfigDiagnostic(c map[string]any) bool {
	exp, _ := c["expect"].(map[string]any)
	codes, _ := exp["diagnosticsContain"].([]any)
	for _, code := range codes {
		if s, _ := code.(string); strings.HasPrefix(s, "config-") {
			return true
		}
	}
	return false
}

type corpusCase struct {
	ID  string
	raw map[string]any
}

func readCases(t *testing.T, name string) []corpusCase {
	t.Helper()
	f, err := os.Open(filepath.Join("../../testdata/conformance", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []corpusCase
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		v, err := jsonschema.UnmarshalJSON(bytes.NewReader(sc.Bytes()))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		m := v.(map[string]any)
		id, _ := m["id"].(string)
		out = append(out, corpusCase{id, m})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(out) == 0 {
		t.Fatalf("%s holds no case", name)
	}
	return out
}

func expectValid(t *testing.T, file string, k schema.Kind, doc any) {
	t.Helper()
	vs, err := schema.Validate(k, doc)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range vs {
		t.Errorf("%s: %s", file, v)
	}
}

// frontmatter decodes an agent file's frontmatter as the compiler reads it:
// YAML between two "---" lines, where a repeated key's later value wins.
func frontmatter(t *testing.T, file string, src []byte) any {
	t.Helper()
	rest, ok := bytes.CutPrefix(src, []byte("---\n"))
	if !ok {
		t.Fatalf("%s: no frontmatter", file)
	}
	body, _, ok := bytes.Cut(rest, []byte("\n---\n"))
	if !ok {
		t.Fatalf("%s: frontmatter never closed", file)
	}
	var n yaml.Node
	if err := yaml.Unmarshal(body, &n); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return yamlValue(t, n.Content[0])
}

func yamlValue(t *testing.T, n *yaml.Node) any {
	switch n.Kind {
	case yaml.MappingNode:
		m := map[string]any{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			m[n.Content[i].Value] = yamlValue(t, n.Content[i+1])
		}
		return m
	case yaml.SequenceNode:
		var s []any
		for _, e := range n.Content {
			s = append(s, yamlValue(t, e))
		}
		return s
	case yaml.ScalarNode:
		var v any
		if err := n.Decode(&v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	t.Fatalf("unsupported YAML node %v", n.Kind)
	return nil
}
