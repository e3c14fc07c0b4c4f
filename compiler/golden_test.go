package compiler_test

import (
	"encoding/json"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/regate/regate/compiler"
	"github.com/regate/regate/internal/testkit/golden"
)

// TestGolden pins the generated Rego of the policies under testdata/golden.
// Each archive holds rule files (policy.jsonc, hard-guards.jsonc,
// agents/*.md), the places the self floor guards (guarded.json) and the
// expected out/ files: every generated module and the diagnostics.
// UPDATE_GOLDEN=1 rewrites out/.
func TestGolden(t *testing.T) {
	paths, _ := filepath.Glob("testdata/golden/*.txtar")
	if len(paths) < 3 {
		t.Fatalf("want at least three golden policies, have %d", len(paths))
	}
	for _, path := range paths {
		t.Run(filepath.Base(path), func(t *testing.T) {
			a, files := golden.Read(t, path)
			in := inputFromFiles(files)
			got := map[string]string{}
			for i := 0; i < 2; i++ { // twice: the output must be deterministic
				out, err := compiler.Compile(in, compiler.WithHome("/home/u"))
				if err != nil {
					t.Fatal(err)
				}
				run := map[string]string{}
				for _, m := range out.Modules {
					run[m.Path] = m.Text
				}
				files, err := out.DataFiles()
				if err != nil {
					t.Fatal(err)
				}
				for _, f := range files {
					run[f.Path] = f.Text
				}
				var diags []string
				for _, d := range out.Diagnostics {
					diags = append(diags, d.Error())
				}
				run["diagnostics.txt"] = strings.Join(diags, "\n") + "\n"
				if i == 1 {
					for k, v := range run {
						if got[k] != v {
							t.Fatalf("%s differs between two compilations of the same input", k)
						}
					}
				}
				got = run
			}
			golden.Check(t, path, a, "out/", got)
		})
	}
}

func inputFromFiles(files map[string]string) compiler.Input {
	var in compiler.Input
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		src := compiler.Source{Name: n, Data: []byte(files[n])}
		switch {
		case n == "policy.jsonc":
			in.Policy = &src
		case n == "hard-guards.jsonc":
			in.HardGuards = &src
		case strings.HasPrefix(n, "agents/"):
			in.Agents = append(in.Agents, src)
		case n == "guarded.json":
			if err := json.Unmarshal(src.Data, &in.Guarded); err != nil {
				panic("guarded.json: " + err.Error())
			}
		}
	}
	return in
}
