package statedir_test

import (
	"fmt"
	"os"

	"github.com/regate/regate/cmd/regate/internal/statedir"
	"github.com/regate/regate/compiler"
)

// Two hook processes in a row: the first compiles the policy and stores
// it, the second finds it by the hash of the rule files. An approval is
// filed under the policy's identity and the session, and read back only
// there.
func ExampleDir() {
	root, err := os.MkdirTemp("", "regate-state-")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(root)
	in := compiler.Input{Policy: &compiler.Source{Name: "policy.jsonc", Data: []byte(`{"permission": {"*": "ask"}}`)}}
	for range 2 {
		d, err := statedir.Open(root)
		if err != nil {
			panic(err)
		}
		out, cached, err := d.Compile(in, compiler.WithHome("/home/u"))
		if err != nil {
			panic(err)
		}
		fmt.Println("cached:", cached, "diagnostics:", len(out.Diagnostics))
	}

	d, err := statedir.Open(root)
	if err != nil {
		panic(err)
	}
	const policy = "/home/u/.config/regate/policy.jsonc" // the policy's identity: its path
	if err := d.Approve(policy, "session-1", compiler.Approval{Surface: "bash", Pattern: "make test"}); err != nil {
		panic(err)
	}
	for _, at := range []struct{ policy, session string }{{policy, "session-1"}, {policy, "session-2"}, {"/elsewhere/policy.jsonc", "session-1"}} {
		approvals, err := d.Approvals(at.policy, at.session)
		if err != nil {
			panic(err)
		}
		fmt.Println(at.policy, at.session, approvals)
	}
	// Output:
	// cached: false diagnostics: 0
	// cached: true diagnostics: 0
	// /home/u/.config/regate/policy.jsonc session-1 [{bash make test}]
	// /home/u/.config/regate/policy.jsonc session-2 []
	// /elsewhere/policy.jsonc session-1 []
}
