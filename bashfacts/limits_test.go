package bashfacts_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/regate/regate/bashfacts"
)

// TestShapeLimits: a command that nests brackets or chains operators up
// to the limit is decomposed; one past it is refused with ErrLimit before
// the parse (which the caller treats as unparseable: it asks), and a
// command of the worst shape near MaxBytes is refused too, instead of
// taking the process down with a stack overflow (issue 20).
func TestShapeLimits(t *testing.T) {
	n, ops := bashfacts.MaxNesting, bashfacts.MaxOperators
	for _, c := range []struct {
		name string
		cmd  string
		over bool
	}{
		{"subshells at the limit", strings.Repeat("(", n) + "a" + strings.Repeat(")", n), false},
		{"subshells past it", strings.Repeat("(", n+1) + "a" + strings.Repeat(")", n+1), true},
		{"arithmetic at the limit", "echo $" + strings.Repeat("(", n-1) + "1" + strings.Repeat(")", n-1), false},
		{"arithmetic past it", "echo $" + strings.Repeat("(", n+1) + "1" + strings.Repeat(")", n+1), true},
		{"groups past it", strings.Repeat("{ ", n+1) + "a" + strings.Repeat("; }", n+1), true},
		{"a pipeline at the limit", strings.Repeat("a|", ops) + "a", false},
		{"a pipeline past it", strings.Repeat("a|", ops+1) + "a", true},
		{"an && chain at the limit", strings.Repeat("a&&", ops) + "a", false},
		{"an && chain past it", strings.Repeat("a&&", ops+1) + "a", true},
		{"a mixed chain past it", strings.Repeat("a||b|&", ops/2+1) + "a", true},
		{"1 MiB of pipes", strings.Repeat("a|", bashfacts.MaxBytes/2-1), true},
		{"1 MiB of arithmetic", strings.Repeat("((", bashfacts.MaxBytes/4) + strings.Repeat("))", bashfacts.MaxBytes/4-1), true},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := bashfacts.Extract(c.cmd)
			switch {
			case c.over && !errors.Is(err, bashfacts.ErrLimit):
				t.Fatalf("%d bytes: err %v; want ErrLimit", len(c.cmd), err)
			case !c.over && errors.Is(err, bashfacts.ErrLimit):
				t.Fatalf("%d bytes: refused at the limit: %v", len(c.cmd), err)
			}
		})
	}
}
