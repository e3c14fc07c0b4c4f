package main

import (
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/regate/regate/hosts"

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
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){"exitcode": exitcodeCmd},
	})
}

// exitcodeCmd is the script command "exitcode N PROGRAM ARGS…": it runs
// PROGRAM as exec does (stdin, then stdout and stderr for the commands
// after it) and requires exit code N, so that scripts hold every command
// to the exit-code contract, not only to "failed".
func exitcodeCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: exitcode N PROGRAM [ARGS…]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("exitcode: %q is not a number", args[0])
	}
	got := 0
	if err := ts.Exec(args[1], args[2:]...); err != nil {
		var exit *exec.ExitError
		if !errors.As(err, &exit) {
			ts.Fatalf("exitcode: %v", err)
		}
		got = exit.ExitCode()
	}
	if got != want {
		ts.Fatalf("%s exited %d; want %d", args[1], got, want)
	}
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
