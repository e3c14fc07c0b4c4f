package ask_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/regate/regate/runtime"
	"github.com/regate/regate/runtime/ask"
)

func answer(action string) ask.Authorizer {
	return ask.AuthorizerFunc(func(context.Context, ask.Ask) (ask.Verdict, error) {
		return ask.Verdict{Action: action, Reason: action + " reason"}, nil
	})
}

// TestChainInvariants: config order wins, a missing link is skipped with a
// warning, registration alone grants nothing, failures defer, the terminal
// always decides, and only asks reach the chain.
func TestChainInvariants(t *testing.T) {
	askCall := ask.Ask{Decision: runtime.Decision{Action: "ask"}}
	for _, c := range []struct {
		name     string
		order    []string
		links    map[string]ask.Authorizer
		terminal ask.Authorizer
		ask      ask.Ask
		want, by string
		warns    string
	}{
		{"config order, not registration order", []string{"b", "a"}, map[string]ask.Authorizer{"a": answer("allow"), "b": answer("deny")}, nil, askCall, "deny", "b", ""},
		{"defer moves on", []string{"a", "b"}, map[string]ask.Authorizer{"a": answer("defer"), "b": answer("allow")}, nil, askCall, "allow", "b", ""},
		{"a missing link is skipped with a warning", []string{"ghost", "a"}, map[string]ask.Authorizer{"a": answer("allow")}, nil, askCall, "allow", "a", "ghost"},
		{"registered but not named: nothing", nil, map[string]ask.Authorizer{"a": answer("allow")}, nil, askCall, "deny", "terminal", ""},
		{"a failing link defers", []string{"a"}, map[string]ask.Authorizer{"a": ask.AuthorizerFunc(func(context.Context, ask.Ask) (ask.Verdict, error) {
			return ask.Verdict{}, errors.New("boom")
		})}, answer("allow"), askCall, "allow", "terminal", "boom"},
		{"a nonsense answer defers", []string{"a"}, map[string]ask.Authorizer{"a": answer("maybe")}, answer("deny"), askCall, "deny", "terminal", ""},
		{"the terminal always decides", nil, nil, answer("defer"), askCall, "deny", "terminal", ""},
		{"a policy deny never reaches a link", []string{"a"}, map[string]ask.Authorizer{"a": answer("allow")}, nil,
			ask.Ask{Decision: runtime.Decision{Action: "deny", Layer: "hard-guard"}}, "deny", "policy", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			var warned []string
			ch := ask.NewChain(c.order, c.terminal, func(f string, a ...any) {
				warned = append(warned, strings.TrimSpace(f)+" "+strings.Trim(strings.Join(strs(a), " "), " "))
			})
			for n, l := range c.links {
				ch.Register(n, l)
			}
			v := ch.Resolve(context.Background(), c.ask)
			if v.Action != c.want || v.By != c.by {
				t.Errorf("verdict %+v; want %s by %s", v, c.want, c.by)
			}
			if c.warns != "" && !strings.Contains(strings.Join(warned, "\n"), c.warns) {
				t.Errorf("warnings %q lack %q", warned, c.warns)
			}
		})
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if v := ask.NewChain(nil, answer("allow"), nil).Resolve(ctx, askCall); v.Action != "deny" {
		t.Errorf("a cancelled ask: %+v", v)
	}
}

func strs(a []any) []string {
	out := make([]string, len(a))
	for i, x := range a {
		switch v := x.(type) {
		case string:
			out[i] = v
		case error:
			out[i] = v.Error()
		}
	}
	return out
}
