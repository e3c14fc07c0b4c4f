package main

import (
	"os"
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
