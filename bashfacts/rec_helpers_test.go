package bashfacts_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/regate/regate/bashfacts"
)

// The real-program tests (wrappers, shells, multiplexers) run a command
// in which a recording program, rec, stands for the command a wrapper
// runs, and compare the words rec was run with to regate's reading.

// writeRec puts in dir a program rec that appends the words it is run
// with to a file, and returns that file's path.
func writeRec(t *testing.T, dir string) string {
	t.Helper()
	out := filepath.Join(dir, "out")
	rec := "#!/bin/sh\nprintf '%s\\n' \"$@\" >> '" + out + "'\n"
	if err := os.WriteFile(filepath.Join(dir, "rec"), []byte(rec), 0o755); err != nil {
		t.Fatal(err)
	}
	return out
}

// recorded returns the words rec was run with, on one line, or "-" when
// it did not run; it waits up to wait for a program that runs rec later
// (a multiplexer's server).
func recorded(out string, wait time.Duration) string {
	for deadline := time.Now().Add(wait); ; time.Sleep(20 * time.Millisecond) {
		if b, _ := os.ReadFile(out); len(b) > 0 {
			return strings.Join(strings.Fields(string(b)), " ")
		}
		if !time.Now().Before(deadline) {
			return "-"
		}
	}
}

// recRun returns the words after rec in the first unit of rec regate
// finds in cmd, or "-".
func recRun(t *testing.T, cmd string) string {
	t.Helper()
	f, err := bashfacts.Extract(cmd)
	if err != nil {
		t.Fatalf("%q: %v", cmd, err)
	}
	for _, u := range f.Units {
		if u.Program == "rec" {
			words := strings.Fields(u.Text)
			return strings.Join(words[1:], " ")
		}
	}
	return "-"
}
