package argmodel_test

import (
	"testing"

	"github.com/regate/regate/bashfacts/argmodel"
)

// TestModelsLoad: every embedded model decodes and passes its checks
// (known roles and arities, no option or program listed twice, a slot
// either many or last, subcommands only under a program that stops at its
// first operand), and the programs the brief names have one.
func TestModelsLoad(t *testing.T) {
	if err := argmodel.LoadError(); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"cat", "head", "tail", "less", "more", "grep", "egrep", "fgrep", "ls", "tree", "stat",
		"wc", "diff", "sed", "awk", "gawk", "mawk", "sort", "uniq", "cut", "echo", "printf", "test", "[", "tee",
		"cp", "mv", "install", "pwd", "true", "false"} {
		if !argmodel.Has(p) {
			t.Errorf("%s has no model", p)
		}
	}
	if argmodel.Has("rm") {
		t.Errorf("rm has a model; the table tests must cover it")
	}
}
