package suggest_test

import (
	"testing"

	"github.com/regate/regate/runtime/suggest"
)

// TestApplyKeepsTheFile: suggestions go after the last member of their
// surface's map, with their evidence as a comment; every comment and line
// of the user's file stays as it was; a missing surface map is added, a
// one-action surface becomes a map keeping its action as "*".
func TestApplyKeepsTheFile(t *testing.T) {
	src := `{
  // my policy
  "permission": {
    "*": "ask",
    "read": "allow", // reading is fine
    "bash": {
      "git status": "allow" // status
    }
  }
}
`
	got, err := suggest.Apply([]byte(src), []suggest.Suggestion{
		{Surface: "bash", Pattern: "pnpm test *", Action: "allow", Approvals: 3, Sessions: []string{"a", "b"}, First: "2026-12-01T10:00:00Z", Last: "2026-12-02T10:00:00Z"},
		{Surface: "mcp", Pattern: "github:*", Action: "allow", Approvals: 2, Sessions: []string{"a"}},
		{Surface: "read", Pattern: "src/*", Action: "allow", Approvals: 2, Sessions: []string{"a"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := `{
  // my policy
  "permission": {
    "*": "ask",
    "read": { "*": "allow",
      // regate suggest: 2 approvals in 1 sessions
      "src/*": "allow"
    }, // reading is fine
    "bash": {
      "git status": "allow", // status
      // regate suggest: 3 approvals in 2 sessions, 2026-12-01T10:00:00Z to 2026-12-02T10:00:00Z
      "pnpm test *": "allow"
    },
    "mcp": {
      // regate suggest: 2 approvals in 1 sessions
      "github:*": "allow"
    }
  }
}
`
	if string(got) != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}
