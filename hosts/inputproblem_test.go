package hosts

import (
	"strings"
	"testing"
)

// TestInputProblemsInJSONWords: a hook input of the wrong shape is refused
// in JSON's words, never with Go's struct and type names.
func TestInputProblemsInJSONWords(t *testing.T) {
	for _, c := range []struct{ host, raw, want string }{
		{"claude", `{"tool_name": ["Bash"]}`, `"tool_name" is an array; it must be a string`},
		{"copilot", `{"toolName": 7}`, `"toolName" is a number; it must be a string`},
		{"opencode", `{"tool": {}}`, `"tool" is an object; it must be a string`},
		{"claude", `{"tool_name": `, "is not JSON"},
	} {
		codec, err := Lookup(c.host, Options{})
		if err != nil {
			t.Fatal(err)
		}
		_, err = codec.Decode([]byte(c.raw))
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "Go ") {
			t.Errorf("%s %s: %v; want %q, in JSON's words", c.host, c.raw, err, c.want)
		}
	}
}
