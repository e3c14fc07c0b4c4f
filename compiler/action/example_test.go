package action_test

import (
	"fmt"

	"github.com/regate/regate/compiler/action"
)

// Several decisions for one host answer (the units of a bash chain, the
// calls of a batch): the most restrictive wins. A word regate does not
// know ranks above deny, so keeping the strictest fails closed.
func ExampleAction_Stricter() {
	decisions := []action.Action{action.Allow, action.Ask, action.Allow}
	strictest := action.Allow
	for _, d := range decisions {
		if d.Stricter(strictest) {
			strictest = d
		}
	}
	fmt.Println("allow, ask, allow:", strictest)

	unknown := action.Action("warn")
	fmt.Println("warn stricter than deny:", unknown.Stricter(action.Deny))
	// Output:
	// allow, ask, allow: ask
	// warn stricter than deny: true
}

// The order of restriction as numbers: allow 0, ask 1, deny 2, anything
// else 3.
func ExampleAction_Severity() {
	for _, a := range []action.Action{action.Allow, action.Ask, action.Deny, "forbid"} {
		fmt.Println(a, a.Severity())
	}
	// Output:
	// allow 0
	// ask 1
	// deny 2
	// forbid 3
}

// Parse reads an action as written in a rule file: only the three words,
// lower case.
func ExampleParse() {
	for _, s := range []string{"deny", "Deny", "block"} {
		a, ok := action.Parse(s)
		fmt.Printf("%q %q %v\n", s, a, ok)
	}
	// Output:
	// "deny" "deny" true
	// "Deny" "Deny" false
	// "block" "block" false
}
