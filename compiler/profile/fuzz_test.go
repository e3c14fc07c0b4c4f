package profile

import (
	"bufio"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/regate/regate/compiler"
)

// FuzzConfig compiles any bytes as the global and the project profile
// configuration: never a panic or a Go error, every diagnostic positioned
// inside its file, and a binding to a profile only when it compiled.
func FuzzConfig(f *testing.F) {
	for _, s := range []string{`{"version": 1}`, `{"version": 1, "bindings": [{"profile": "a", "provider": "p"}]}`,
		`{"version": 1, "selection": {"mode": "first"}, "defaultProfile": "a"}`, `[]`, `{`, "{\"version\": 1 // c\n}"} {
		f.Add(s)
	}
	if file, err := os.Open("../../testdata/conformance/profile.jsonl"); err == nil {
		sc := bufio.NewScanner(file)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			var c struct {
				Global, Project json.RawMessage
			}
			if json.Unmarshal(sc.Bytes(), &c) == nil {
				for _, raw := range []json.RawMessage{c.Global, c.Project} {
					if len(raw) > 0 {
						f.Add(string(raw))
					}
				}
			}
		}
		file.Close()
	}
	f.Fuzz(func(t *testing.T, src string) {
		out, err := Compile(Input{
			Global:         &compiler.Source{Name: "g.json", Data: []byte(src)},
			Project:        &compiler.Source{Name: "p.json", Data: []byte(src)},
			ProjectTrusted: true,
			Profiles:       map[string]map[string]string{"global": {"a": "body"}, "project": {"a": "body"}},
		})
		if err != nil {
			t.Fatalf("Compile returned a Go error: %v", err)
		}
		lines := strings.Count(src, "\n") + 1
		for _, d := range out.Diagnostics {
			if d.Pos.Line < 1 || d.Pos.Line > lines || d.Pos.Col < 1 || d.Code == "" || d.Msg == "" {
				t.Fatalf("diagnostic outside the %d-line source or empty: %+v", lines, d)
			}
		}
	})
}
