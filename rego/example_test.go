package rego_test

import (
	"fmt"
	"maps"
	"slices"

	"github.com/regate/regate/rego"
)

// The library's modules, by path, and the ones a query reaches: a
// generated decision module needs only the helpers it imports, which is
// what a fresh hook process prepares. A query that refers to no package of
// the library gets all of it.
func ExampleReachable() {
	lib, err := rego.Modules()
	if err != nil {
		panic(err)
	}
	fmt.Println(slices.Sorted(maps.Keys(lib)))
	fmt.Println(slices.Sorted(maps.Keys(rego.Reachable(lib, "data.regate.gen.decision.decision", "data.regate.lib.decide"))))
	fmt.Println(slices.Sorted(maps.Keys(rego.Reachable(lib, "data.regate.lib.lease.decision"))))
	fmt.Println(len(rego.Reachable(lib, "data.other.x")) == len(lib))
	// Output:
	// [regate/lib/ceiling.rego regate/lib/decide.rego regate/lib/lease.rego regate/lib/message.rego regate/lib/permission.rego regate/lib/profile.rego]
	// [regate/lib/decide.rego]
	// [regate/lib/lease.rego]
	// true
}

// ParseDeps reads a module's package and the library references it
// makes, imports included.
func ExampleParseDeps() {
	pkg, refs, err := rego.ParseDeps(`package regate.gen.example

import data.regate.lib.decide

allow if decide.best({}, [], [])
deny if data.regate.lib.lease.decision
`)
	fmt.Println(pkg, refs, err)
	_, _, err = rego.ParseDeps("package")
	fmt.Println(err != nil)
	// Output:
	// data.regate.gen.example [data.regate.lib.decide data.regate.lib.lease.decision] <nil>
	// true
}
