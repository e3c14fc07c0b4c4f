package argmodel_test

import (
	"fmt"
	"strings"

	"github.com/regate/regate/bashfacts/argmodel"
)

func literal(words ...string) []argmodel.Arg {
	args := make([]argmodel.Arg, len(words))
	for i, w := range words {
		args[i] = argmodel.Arg{Text: w}
	}
	return args
}

// grep's arguments read as grep reads them: bundled short options, an
// option's value (a filter on what the search reads), the pattern operand and the folder a recursive search
// reads, with the default operand when none is given. A word the model
// does not understand is a Problem: strict mode then asks.
func ExampleParse() {
	for _, words := range [][]string{
		{"-rn", "--include=*.go", "TODO", "src"},
		{"-r", "-e", "secret"},
		{"--frobnicate", "x", "y"},
	} {
		r := argmodel.Parse("grep", literal(words...))
		var roles []string
		for i, w := range r.Words {
			role := words[i] + "=" + w.Role
			if w.Filter != "" {
				role += "(" + w.Filter + " filter)"
			}
			roles = append(roles, role)
		}
		fmt.Printf("grep %s: %s defaults %v problem %q\n", strings.Join(words, " "), strings.Join(roles, " "), r.Defaults, r.Problem)
	}
	fmt.Println("a program without a model is not known:", argmodel.Parse("frob", literal("-x")).Known)
	// Output:
	// grep -rn --include=*.go TODO src: -rn=option --include=*.go=read(include filter) TODO=pattern src=tree defaults [] problem ""
	// grep -r -e secret: -r=option -e=option secret=pattern defaults [{tree . []}] problem ""
	// grep --frobnicate x y: --frobnicate= x= y= defaults [] problem "grep: the option --frobnicate is not in regate's model of grep"
	// a program without a model is not known: false
}
