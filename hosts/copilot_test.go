package hosts

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/regate/regate/facts"
)

// Copilot CLI names MCP tools SERVER-TOOL; the codec finds the server among
// those Copilot's MCP config files name (the longest that fits).
func TestCopilotMCPTools(t *testing.T) {
	home, work := t.TempDir(), t.TempDir()
	t.Setenv("COPILOT_HOME", home)
	write := func(p, s string) {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(home, "mcp-config.json"), `{"mcpServers": {"fake": {"type": "local", "command": "srv"}, "my": {"command": "a"}}}`)
	write(filepath.Join(work, ".mcp.json"), `{"my-srv": {"url": "http://localhost:1"}}`)
	codec, err := Lookup("copilot", Options{})
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]facts.Call{
		"fake-touch":                    mcpOf("fake", "touch", in{"file": "x"}),
		"my-srv-get":                    mcpOf("my-srv", "get", in{"file": "x"}),
		"my-get":                        mcpOf("my", "get", in{"file": "x"}),
		"github-mcp-server-search_code": mcpOf("github-mcp-server", "search_code", in{"file": "x"}),
		"other-tool":                    call("other-tool", in{"file": "x"}),
		"fake-":                         call("fake-", in{"file": "x"}),
	} {
		raw := `{"cwd": "` + work + `", "toolName": "` + name + `", "toolArgs": {"file": "x"}}`
		req, err := codec.Decode([]byte(raw))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !reflect.DeepEqual(req.Calls, []facts.Call{want}) {
			t.Errorf("%s: %+v; want %+v", name, req.Calls, want)
		}
	}
}
