package delegation_test

import (
	"errors"
	"fmt"

	"github.com/regate/regate/compiler/delegation"
)

const planner = `{
  // the parent: what a planner agent may do
  "allowed_tools": ["read_*", "write_file"],
  "denied_tools": ["read_secrets"],
  "rate_limits": {"*": "100/hour"}
}`

// A parent policy and a request (both JSONC, as `regate delegate narrow`
// reads them) in, the child's policy out: the allowlist intersected with
// the request, the request's denials and rates added.
func ExamplePolicy_Narrow() {
	parent, err := delegation.Decode("planner.jsonc", []byte(planner))
	if err != nil {
		panic(err)
	}
	req, err := delegation.DecodeRequest("request.jsonc", []byte(`{
  "allowed_tools": ["read_notes", "search"], // search is not the planner's: dropped
  "denied_tools": ["read_notes_private"],
  "rate_limits": {"*": "10/hour"}
}`))
	if err != nil {
		panic(err)
	}
	child, err := parent.Narrow(req)
	if err != nil {
		panic(err)
	}
	fmt.Println(child.AllowedTools, child.DeniedTools, child.RateLimits)
	for _, tool := range []string{"read_notes", "write_file", "search", "read_secrets"} {
		fmt.Println(tool, child.Admits(tool))
	}
	fmt.Println("within the planner:", child.IsSubsetOf(parent))
	// Output:
	// [read_notes] [read_secrets read_notes_private] map[*:10/hour]
	// read_notes true
	// write_file false
	// search false
	// read_secrets false
	// within the planner: true
}

// A request that would widen the parent is refused with a *WidensError
// listing each problem: the field, the entry and what is wrong. A Request
// is not a file, so these problems carry no position (SubsetProblems of
// two decoded files does).
func ExamplePolicy_Narrow_widens() {
	parent, err := delegation.Decode("planner.jsonc", []byte(planner))
	if err != nil {
		panic(err)
	}
	_, err = parent.Narrow(delegation.Request{RateLimits: map[string]string{"*": "10/minute"}})
	var widens *delegation.WidensError
	if errors.As(err, &widens) {
		for _, p := range widens.Problems {
			fmt.Printf("%s %q: %s\n", p.Field, p.Entry, p.Msg)
		}
	}
	fmt.Println(err)
	// Output:
	// rate_limits "*": rate_limits["*"]: 10/minute is looser than the parent's 100/hour for "*"
	// narrow: the request widens the policy: rate_limits["*"]: 10/minute is looser than the parent's 100/hour for "*"
}

// A child written in its own file is proven within its parent, or each
// problem comes back positioned where the child wrote it.
func ExampleSubsetProblems() {
	parent, err := delegation.Decode("planner.jsonc", []byte(planner))
	if err != nil {
		panic(err)
	}
	child, err := delegation.Decode("researcher.jsonc", []byte(`{
  "allowed_tools": ["read_*", "deploy"],
  "denied_tools": ["read_secrets"],
  "rate_limits": {"*": "200/hour"}
}`))
	if err != nil {
		panic(err)
	}
	for _, p := range delegation.SubsetProblems(child, parent) {
		fmt.Println(p)
	}
	// Output:
	// researcher.jsonc:2:31: allowed_tools: "deploy" is not within the parent's ["read_*" "write_file"]
	// researcher.jsonc:4:19: rate_limits["*"]: 200/hour is looser than the parent's 100/hour for "*"
}

// A file with a bad value is a positioned error, and no policy.
func ExampleDecode() {
	p, err := delegation.Decode("planner.jsonc", []byte(`{
  "allowed_tools": "read_*"
}`))
	fmt.Println(p == nil, err)
	// Output:
	// true planner.jsonc:2:20: error: want a list of strings [wrong_type]
}
