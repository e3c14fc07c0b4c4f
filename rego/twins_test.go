package rego_test

import (
	"context"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/rego"

	"github.com/regate/regate/compiler"
	"github.com/regate/regate/internal/matchkey"
	regolib "github.com/regate/regate/rego"
)

// decideQuery prepares a query over the library's decide package.
func decideQuery(t *testing.T, query string) rego.PreparedEvalQuery {
	t.Helper()
	lib, err := regolib.Modules()
	if err != nil {
		t.Fatal(err)
	}
	opts := []func(*rego.Rego){rego.Query(query)}
	for p, text := range regolib.Reachable(lib, query) {
		opts = append(opts, rego.Module(p, text))
	}
	q, err := rego.New(opts...).PrepareForEval(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return q
}

// TestRegoKeysAreFactsKeys: the candidate keys the Rego library computes
// for a document without them (regate.lib.decide.value_keys) are the ones
// facts lists (internal/matchkey), in order, for values of every class,
// multi-byte characters included.
func TestRegoKeysAreFactsKeys(t *testing.T) {
	q := decideQuery(t, "x := data.regate.lib.decide.value_keys(input.s, input.v)")
	r := rand.New(rand.NewPCG(3, 4))
	const alphabet = "a /.:é-~"
	runes := []rune(alphabet)
	for i := range 3000 {
		var b strings.Builder
		for range r.IntN(24) {
			b.WriteRune(runes[r.IntN(len(runes))])
		}
		v := b.String()
		s := []string{"bash", "path", "read", "mcp", "skill", "WebFetch"}[i%6]
		want := matchkey.Keys(nil, matchkey.ClassOf(s), v)
		rs, err := q.Eval(context.Background(), rego.EvalInput(map[string]any{"s": s, "v": v}))
		if err != nil || len(rs) != 1 {
			t.Fatalf("%q: %v %v", v, rs, err)
		}
		var got []string
		for _, x := range rs[0].Bindings["x"].([]any) {
			got = append(got, x.(string))
		}
		if !slices.Equal(got, want) {
			t.Fatalf("%s %q: Rego %q, facts %q", s, v, got, want)
		}
	}
}

// TestRegoTailIsCompilerTail: the message tail the Rego library renders for
// the rules a decision makes itself is the one the compiler writes into
// every rule it compiles.
func TestRegoTailIsCompilerTail(t *testing.T) {
	q := decideQuery(t, "x := data.regate.lib.decide.tail(input.p, input.r, input.l)")
	for _, p := range []string{"", "*", "git *", "it's 'quoted'", "<strict-floor>", "é*"} {
		for _, reason := range []string{"", "no", "Keys live in the vault.", "ends with dots...", "."} {
			for _, session := range []bool{false, true} {
				layer := "policy"
				if session {
					layer = "session"
				}
				rs, err := q.Eval(context.Background(), rego.EvalInput(map[string]any{"p": p, "r": reason, "l": layer}))
				if err != nil || len(rs) != 1 {
					t.Fatalf("%q %q: %v %v", p, reason, rs, err)
				}
				tail, _ := rs[0].Bindings["x"].(string)
				if want := compiler.Tail(p, reason, session); tail != want {
					t.Errorf("%q %q %v: Rego %q, compiler %q", p, reason, session, tail, want)
				}
			}
		}
	}
}
