package conformance

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strings"

	"github.com/regate/regate/compiler/delegation"
)

// delegationCase is one case of the delegation suite (FORMAT.md); each op
// reads its own inputs and expect.
type delegationCase struct {
	ID     string          `json:"id"`
	Op     string          `json:"op"`
	Inputs json.RawMessage `json:"inputs"`
	Expect json.RawMessage `json:"expect"`
}

func runDelegation(ctx context.Context, raw []byte) Result {
	var c delegationCase
	if err := json.Unmarshal(raw, &c); err != nil {
		return Result{Want: "a delegation case", Got: err.Error()}
	}
	var err error
	switch c.Op {
	case "narrow":
		err = runNarrow(c)
	case "subset":
		err = runSubset(c)
	case "ceiling":
		err = runCeiling(ctx, c, RegoCeiling)
	case "budget":
		err = runBudget(ctx, c)
	case "lease":
		err = runLease(ctx, c)
	default:
		err = fmt.Errorf("op %q is not implemented yet", c.Op)
	}
	if err != nil {
		return Result{Want: "the expected " + c.Op + " outcome", Got: err.Error()}
	}
	return Result{Passed: true}
}

// policyOf decodes a case's policy object through the same decoder policy
// files use.
func policyOf(name string, raw json.RawMessage) (*delegation.Policy, error) {
	if len(raw) == 0 || string(raw) == "null" {
		raw = json.RawMessage("{}")
	}
	return delegation.Decode(name, raw)
}

func runNarrow(c delegationCase) error {
	var in struct {
		Parent json.RawMessage `json:"parent"`
		Args   json.RawMessage `json:"args"`
	}
	var want struct {
		Error   *string                    `json:"error"`
		Policy  map[string]json.RawMessage `json:"policy"`
		Admits  []string                   `json:"admits"`
		Refuses []string                   `json:"refuses"`
	}
	if err := decodeBoth(c, &in, &want); err != nil {
		return err
	}
	parent, err := policyOf(c.ID+"/parent", in.Parent)
	if err != nil {
		return err
	}
	if len(in.Args) == 0 || string(in.Args) == "null" {
		in.Args = json.RawMessage("{}") // no request
	}
	req, err := delegation.DecodeRequest(c.ID+"/args", in.Args)
	if err != nil {
		return err
	}
	narrowed, err := parent.Narrow(req)
	if want.Error != nil {
		if err == nil {
			return fmt.Errorf("narrow succeeded; want an error containing %q", *want.Error)
		}
		if !strings.Contains(err.Error(), *want.Error) {
			return fmt.Errorf("error %q does not contain %q", err, *want.Error)
		}
		return nil
	}
	if err != nil {
		return err
	}
	if err := partialPolicyEqual(narrowed, want.Policy); err != nil {
		return err
	}
	for _, tool := range want.Admits {
		if !narrowed.Admits(tool) {
			return fmt.Errorf("the narrowed policy refuses %q", tool)
		}
	}
	for _, tool := range want.Refuses {
		if narrowed.Admits(tool) {
			return fmt.Errorf("the narrowed policy admits %q", tool)
		}
	}
	if len(parent.Unknown) == 0 {
		if ps := delegation.SubsetProblems(narrowed, parent); len(ps) > 0 {
			return fmt.Errorf("the narrowed policy is not a subset of its parent: %v", ps)
		}
	}
	return nil
}

func runSubset(c delegationCase) error {
	var in struct {
		Child  json.RawMessage `json:"child"`
		Parent json.RawMessage `json:"parent"`
	}
	var want struct {
		Subset          bool     `json:"subset"`
		ProblemsContain []string `json:"problemsContain"`
	}
	if err := decodeBoth(c, &in, &want); err != nil {
		return err
	}
	child, err := policyOf(c.ID+"/child", in.Child)
	if err != nil {
		return err
	}
	parent, err := policyOf(c.ID+"/parent", in.Parent)
	if err != nil {
		return err
	}
	ps := delegation.SubsetProblems(child, parent)
	if got := len(ps) == 0; got != want.Subset || got != child.IsSubsetOf(parent) {
		return fmt.Errorf("subset %v (problems %v); want %v", got, ps, want.Subset)
	}
	for _, s := range want.ProblemsContain {
		found := false
		for _, p := range ps {
			found = found || strings.Contains(p.String(), s)
		}
		if !found {
			return fmt.Errorf("no problem contains %q: %v", s, ps)
		}
	}
	return nil
}

func decodeBoth(c delegationCase, in, want any) error {
	if err := json.Unmarshal(c.Inputs, in); err != nil {
		return fmt.Errorf("inputs: %w", err)
	}
	if err := json.Unmarshal(c.Expect, want); err != nil {
		return fmt.Errorf("expect: %w", err)
	}
	return nil
}

// partialPolicyEqual compares the keys of want with p's effective values:
// lists as sets, maps and objects exactly.
func partialPolicyEqual(p *delegation.Policy, want map[string]json.RawMessage) error {
	b, err := json.Marshal(p)
	if err != nil {
		return err
	}
	var got map[string]any
	if err := json.Unmarshal(b, &got); err != nil {
		return err
	}
	for key, raw := range want {
		var w any
		if err := json.Unmarshal(raw, &w); err != nil {
			return err
		}
		if !sameJSON(got[key], w) {
			g, _ := json.Marshal(got[key])
			return fmt.Errorf("%s is %s; want %s", key, g, raw)
		}
	}
	return nil
}

func sameJSON(a, b any) bool {
	as, aok := a.([]any)
	bs, bok := b.([]any)
	if aok && bok {
		return reflect.DeepEqual(sortedJSON(as), sortedJSON(bs))
	}
	return reflect.DeepEqual(a, b)
}

func sortedJSON(xs []any) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		b, _ := json.Marshal(x)
		out[i] = string(b)
	}
	sort.Strings(out)
	return slices.Compact(out)
}
