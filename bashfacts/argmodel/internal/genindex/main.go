// Command genindex writes bashfacts/argmodel/index_table.go: where each
// program's model stands in the embedded model files, so that a process
// decodes only the models its calls use. Run by `go generate
// ./bashfacts/argmodel`; TestIndexIsCurrent fails when the table is stale.
package main

import (
	"fmt"
	"os"

	"github.com/regate/regate/bashfacts/argmodel"
)

func main() {
	text, err := argmodel.IndexTable()
	if err != nil {
		fmt.Fprintln(os.Stderr, "genindex:", err)
		os.Exit(1)
	}
	if err := os.WriteFile("index_table.go", []byte(text), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "genindex:", err)
		os.Exit(1)
	}
}
