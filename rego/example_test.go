package rego_test

import (
	"fmt"
	"maps"
	"slices"

	"github.com/regate/regate/rego"
)

// The library's modules, by path, and the ones a query reaches: the
// permission decision needs only a part of the library, which is what a
// fresh hook process prepares. A query that refers to no package of the
// library gets all of it.
func ExampleReachable() {
	lib, err := rego.Modules()
	if err != nil {
		panic(err)
	}
	fmt.Println(slices.Sorted(maps.Keys(lib)))
	for _, query := range []string{"data.regate.lib.permission.decision", "data.regate.lib.match.best", "data.other.x"} {
		fmt.Println(query, slices.Sorted(maps.Keys(rego.Reachable(lib, query))))
	}
	// Output:
	// [regate/lib/ceiling.rego regate/lib/checks.rego regate/lib/gate.rego regate/lib/lease.rego regate/lib/match.rego regate/lib/message.rego regate/lib/permission.rego regate/lib/profile.rego regate/lib/sets.rego]
	// data.regate.lib.permission.decision [regate/lib/checks.rego regate/lib/gate.rego regate/lib/match.rego regate/lib/permission.rego regate/lib/sets.rego]
	// data.regate.lib.match.best [regate/lib/match.rego]
	// data.other.x [regate/lib/ceiling.rego regate/lib/checks.rego regate/lib/gate.rego regate/lib/lease.rego regate/lib/match.rego regate/lib/message.rego regate/lib/permission.rego regate/lib/profile.rego regate/lib/sets.rego]
}

// The embedded runtime's library: the same paths, with each module that
// has a twin under fast/ replaced by it (the gate's twin calls the
// runtime's Go builtin).
func ExampleFastModules() {
	lib, err := rego.Modules()
	if err != nil {
		panic(err)
	}
	fast, err := rego.FastModules()
	if err != nil {
		panic(err)
	}
	for _, p := range slices.Sorted(maps.Keys(fast)) {
		if fast[p] != lib[p] {
			fmt.Println(p, "differs")
		}
	}
	// Output:
	// regate/lib/gate.rego differs
	// regate/lib/sets.rego differs
}

// ParseDeps reads a module's package and the library references it
// makes, imports included.
func ExampleParseDeps() {
	pkg, refs, err := rego.ParseDeps(`package regate.gen.example

import data.regate.lib.match

allow if match.best
deny if data.regate.lib.gate.decide(input, {})
`)
	fmt.Println(pkg, refs, err)
	_, _, err = rego.ParseDeps("package")
	fmt.Println(err != nil)
	// Output:
	// data.regate.gen.example [data.regate.lib.gate.decide data.regate.lib.match] <nil>
	// true
}
