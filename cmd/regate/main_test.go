package main

import (
	"context"
	"github.com/regate/regate/hosts"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"regate": func() { os.Exit(Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) },
	})
}

// TestScripts runs the CLI end to end: testdata/script/*.txtar. Set
// UPDATE_GOLDEN=1 to rewrite the cmp files of a script from its output.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:           "testdata/script",
		UpdateScripts: os.Getenv("UPDATE_GOLDEN") == "1",
		Setup: func(env *testscript.Env) error {
			env.Setenv("HOME", "/home/u")
			// The hook's state folder, inside the script's own folder.
			env.Setenv("REGATE_STATE_DIR", env.WorkDir+"/state")
			return nil
		},
	})
}

// TestHookInputLimit: a hook input past maxHookInput is refused with the
// host's block, not read on.
func TestHookInputLimit(t *testing.T) {
	codec, err := hosts.Lookup("claude", hosts.Options{})
	if err != nil {
		t.Fatal(err)
	}
	big := strings.NewReader(`{"tool_name": "Bash", "tool_input": {"command": "` + strings.Repeat("a", maxHookInput) + `"}}`)
	ans := runHook(context.Background(), &hookParams{state: stateFlags{off: true}}, codec, big, io.Discard)
	if ans.Exit != 2 || !strings.Contains(ans.Stderr, "over") {
		t.Fatalf("answer %+v", ans)
	}
}
