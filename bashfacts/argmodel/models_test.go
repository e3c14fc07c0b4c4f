package argmodel_test

import (
	"os"
	"strings"
	"testing"

	"github.com/regate/regate/bashfacts/argmodel"
)

// TestModelsLoad: every embedded model decodes and passes its checks
// (known roles and arities, no option or program listed twice, a slot
// either many or last, subcommands only under a program that stops at its
// first operand), and the programs the brief names have one, those that
// delete, create or change files among them.
func TestModelsLoad(t *testing.T) {
	if err := argmodel.LoadError(); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"cat", "head", "tail", "less", "more", "grep", "egrep", "fgrep", "ls", "tree", "stat",
		"wc", "diff", "sed", "awk", "gawk", "mawk", "sort", "uniq", "cut", "echo", "printf", "test", "[", "tee",
		"cp", "mv", "install", "pwd", "true", "false",
		"rm", "rmdir", "unlink", "shred", "mkdir", "touch", "truncate", "chmod", "chown", "chgrp", "ln", "dd"} {
		if !argmodel.Has(p) {
			t.Errorf("%s has no model", p)
		}
	}
}

// TestIndexIsCurrent: index_table.go is what `go generate
// ./bashfacts/argmodel` writes from the model files, and every program of
// the index decodes to the model of the same name that decoding every file
// gives.
func TestIndexIsCurrent(t *testing.T) {
	want, err := argmodel.IndexTable()
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("index_table.go")
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Fatal("bashfacts/argmodel/index_table.go is stale: run go generate ./bashfacts/argmodel")
	}
	for _, p := range argmodel.Programs() {
		a := argmodel.Parse(p, []argmodel.Arg{{Text: "--help"}, {Text: "x"}})
		if strings.HasPrefix(a.Problem, "regate's argument models failed to load") {
			t.Errorf("%s: %s", p, a.Problem)
		}
	}
}
