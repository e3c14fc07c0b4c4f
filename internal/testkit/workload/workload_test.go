package workload

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/regate/regate/bashfacts"
)

// Sizes are the policy sizes benchmarks run at.
var Sizes = []int{33, 100, 1000, 10000}

// TestFilesAreCurrent holds testdata/bench to what the generator makes;
// UPDATE_GOLDEN=1 rewrites it.
func TestFilesAreCurrent(t *testing.T) {
	files := map[string][]byte{}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	for _, c := range Calls(Seed, 1000) {
		if err := enc.Encode(c); err != nil {
			t.Fatal(err)
		}
	}
	files["calls.jsonl"] = b.Bytes()
	for _, n := range Sizes {
		files[fmt.Sprintf("policy-%d.jsonc", n)] = []byte(Policy(n))
	}
	dir := filepath.Join("..", "..", "..", "testdata", "bench")
	for name, want := range files {
		path := filepath.Join(dir, name)
		if os.Getenv("UPDATE_GOLDEN") == "1" {
			if err := os.WriteFile(path, want, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := os.ReadFile(path)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s is not what the generator makes (UPDATE_GOLDEN=1 rewrites it)", path)
		}
	}
}

// TestMix checks the generator's shape: the commands parse, and the share
// of chains, pipelines, substitutions and heredocs is roughly the one asked.
func TestMix(t *testing.T) {
	cmds := Commands(Seed, 1000)
	if len(cmds) != 1000 {
		t.Fatalf("%d commands", len(cmds))
	}
	heredoc, subst := 0, 0
	for _, c := range cmds {
		if _, err := bashfacts.Extract(c); err != nil {
			t.Errorf("%q does not parse: %v", c, err)
		}
		if strings.Contains(c, "<<") {
			heredoc++
		}
		if strings.ContainsAny(c, "$`(") {
			subst++
		}
	}
	if heredoc < 50 || heredoc > 110 {
		t.Errorf("%d heredocs in 1000, want about 80", heredoc)
	}
	if subst < 150 {
		t.Errorf("%d commands with substitutions or subshells, want at least 150", subst)
	}
	if BaseRules != 33 {
		t.Errorf("the base policy has %d rules, want 33", BaseRules)
	}
}
