package schema_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/regate/regate/compiler"
	"github.com/regate/regate/compiler/delegation"
	"github.com/regate/regate/compiler/profile"
	"github.com/regate/regate/compiler/schema"
	"github.com/regate/regate/internal/testkit/gosrc"
)

// TestSchemaKeys holds every decoder to its schema: the keys a decoder
// reads are exactly the properties its schema names, at every object of
// every rule file. The compiler's and the profile decoder's key lists are
// the ones their own tests hold to their switches (TestDecoderKeys) and
// their reports (TestUnknownKeys); the delegation decoder's keys are read
// from its source.
func TestSchemaKeys(t *testing.T) {
	type pair struct {
		kind    schema.Kind
		path    []string
		decoder []string
	}
	var pairs []pair
	kinds := map[string]schema.Kind{"policy": schema.Policy, "hard-guards": schema.HardGuards, "agent": schema.Agent, "config": schema.ProfileConfig}
	add := func(lists map[string][]string) {
		for where, keys := range lists {
			root, rest, _ := strings.Cut(where, "/")
			k, ok := kinds[root]
			if !ok {
				t.Fatalf("key list %q: no schema for %q", where, root)
			}
			var path []string
			if rest != "" {
				path = strings.Split(rest, "/")
			}
			pairs = append(pairs, pair{k, path, keys})
		}
	}
	add(compiler.KeyLists())
	add(profile.KeyLists())

	const dec = "../delegation/decode.go"
	top := cases(t, dec, "(*decoder).policy", "key")
	top = append(top, list(t, "../delegation/policy.go", "opaqueFields")...)
	slices.Sort(top)
	budget := cases(t, dec, "(*decoder).budget", "key")
	// The delegation package's own lists, which check's "did you mean"
	// reads, are the decoder's switches too.
	if got := delegation.Keys(); !slices.Equal(got, top) {
		t.Errorf("delegation.Keys() = %v\nthe decoder reads %v", got, top)
	}
	if got := delegation.Keys("amplification_budget"); !slices.Equal(got, sorted(budget)) {
		t.Errorf("delegation.Keys(amplification_budget) = %v\nthe decoder reads %v", got, budget)
	}
	pairs = append(pairs,
		pair{schema.Delegation, nil, top},
		pair{schema.Delegation, []string{"amplification_budget"}, budget},
		pair{schema.DelegationRequest, nil, cases(t, dec, "DecodeRequest", "key")},
		pair{schema.DelegationRequest, []string{"amplification_budget"}, budget},
	)

	for _, p := range pairs {
		got, err := schema.Keys(p.kind, p.path...)
		if err != nil {
			t.Errorf("%s /%s: %v", p.kind, strings.Join(p.path, "/"), err)
			continue
		}
		if diff := cmp.Diff(p.decoder, got); diff != "" {
			t.Errorf("%s /%s: the decoder's keys and the schema's differ (-decoder +schema):\n%s", p.kind.FileName(), strings.Join(p.path, "/"), diff)
		}
	}
}

// TestEveryObjectIsListed: every object of a schema that names its keys
// (has properties and no room for others) is held to a decoder by
// TestSchemaKeys, so a nested object added to a schema without a decoder
// list fails here.
func TestEveryObjectIsListed(t *testing.T) {
	listed := map[string]bool{}
	for where := range compiler.KeyLists() {
		listed[where] = true
	}
	for where := range profile.KeyLists() {
		listed[where] = true
	}
	for _, where := range []string{
		"delegation", "delegation/amplification_budget", "delegation-request", "delegation-request/amplification_budget",
	} {
		listed[where] = true
	}
	roots := map[schema.Kind]string{
		schema.Policy: "policy", schema.HardGuards: "hard-guards", schema.Agent: "agent", schema.ProfileConfig: "config",
		schema.Delegation: "delegation", schema.DelegationRequest: "delegation-request",
	}
	for k, root := range roots {
		var walk func(path []string, depth int)
		walk = func(path []string, depth int) {
			keys, err := schema.Keys(k, path...)
			if err != nil || depth > 6 {
				return
			}
			where := strings.Join(append([]string{root}, path...), "/")
			if len(keys) > 0 && !listed[where] {
				t.Errorf("%s names keys %v at %s, which no decoder list covers", k.FileName(), keys, where)
			}
			for _, key := range append(keys, "*") {
				if key == "permission" && depth == 0 && k != schema.ProfileConfig {
					// The permission map: its keys are surfaces, the user's own.
					walk(append(slices.Clone(path), key, "*", "*"), depth+3)
					continue
				}
				walk(append(slices.Clone(path), key), depth+1)
			}
		}
		walk(nil, 0)
	}
}

func sorted(l []string) []string {
	l = slices.Clone(l)
	slices.Sort(l)
	return l
}

func cases(t *testing.T, file, fn, tag string) []string {
	t.Helper()
	cs, err := gosrc.SwitchCases(file, fn, tag)
	if err != nil {
		t.Fatal(err)
	}
	return cs
}

func list(t *testing.T, file, name string) []string {
	t.Helper()
	l, err := gosrc.StringList(file, name)
	if err != nil {
		t.Fatal(err)
	}
	return l
}
