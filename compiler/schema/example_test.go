package schema_test

import (
	"fmt"

	"github.com/regate/regate/compiler/schema"
)

// A policy with a typo in a key and an action regate does not know: each
// violation says where it is and what is wrong, and the unknown key comes
// back as itself, ready for a "did you mean". A string that is no action
// fits neither shape a rule may take (an action or a rule object), so it
// is reported against both.
func ExampleValidateJSON() {
	policy := []byte(`{
  "permision": {"bash": {"git *": "allow"}},
  "permission": {"bash": {"rm *": "forbid"}}
}`)
	violations, err := schema.ValidateJSON(schema.Policy, policy)
	if err != nil {
		panic(err) // the schemas or the JSON, never the policy's rules
	}
	for _, v := range violations {
		fmt.Printf("%s (key %q)\n", v, v.Key)
	}

	valid, err := schema.ValidateJSON(schema.Policy, []byte(`{"permission": {"bash": {"rm *": "deny"}}}`))
	fmt.Println(len(valid), "violations in a valid policy,", err)
	// Output:
	// /permission/bash/rm *: value must be one of 'allow', 'ask', 'deny' (key "")
	// /permission/bash/rm *: got string, want object (key "")
	// /: unknown key "permision" (key "permision")
	// 0 violations in a valid policy, <nil>
}

// The keys the policy schema names at the top level and inside a rule
// object: the candidates for "did you mean".
func ExampleKeys() {
	top, err := schema.Keys(schema.Policy)
	if err != nil {
		panic(err)
	}
	fmt.Println(top)
	rule, err := schema.Keys(schema.Policy, "permission", "bash", "*")
	if err != nil {
		panic(err)
	}
	fmt.Println(rule)
	_, err = schema.Keys(schema.Policy, "strict", "x") // strict is a boolean
	fmt.Println(err)
	// Output:
	// [$schema annotators authorizerChain autoReview caseInsensitive debugLog doublePressToConfirm examples forwardingTimeoutMs permission permissionReviewLog promptFieldMaxWidth promptMaxRows reviewLogFieldMaxWidth shellTools strict toolInputPreviewMaxLength toolTextSummaryMaxLength yoloMode]
	// [action reason]
	// schema: policy.schema.json describes no object at /strict
}
