// Command gendeps writes rego/deps_table.go: for every embedded library
// module, its package and the library references OPA's parser finds in it,
// keyed by the module text's hash, so that regolib.Reachable picks the
// modules a query needs without parsing the whole library in every
// process. Run by `go generate ./rego`; TestDepsTableIsCurrent fails when
// the table is stale.
package main

import (
	"fmt"
	"os"

	regolib "github.com/regate/regate/rego"
)

func main() {
	text, err := regolib.DepsTable()
	if err != nil {
		fmt.Fprintln(os.Stderr, "gendeps:", err)
		os.Exit(1)
	}
	if err := os.WriteFile("deps_table.go", []byte(text), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "gendeps:", err)
		os.Exit(1)
	}
}
