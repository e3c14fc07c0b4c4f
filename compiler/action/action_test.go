package action_test

import (
	"encoding/json"
	"testing"

	"github.com/regate/regate/compiler/action"
)

func TestOrderOfRestriction(t *testing.T) {
	order := []action.Action{action.Allow, action.Ask, action.Deny, "bogus"}
	for i, a := range order {
		for j, b := range order {
			if got, want := a.Stricter(b), i > j; got != want {
				t.Errorf("%q.Stricter(%q) = %v, want %v", a, b, got, want)
			}
		}
	}
}

func TestParse(t *testing.T) {
	for _, c := range []struct {
		in string
		ok bool
	}{{"allow", true}, {"ask", true}, {"deny", true}, {"", false}, {"Deny", false}, {"none", false}, {"warn", false}} {
		a, ok := action.Parse(c.in)
		if ok != c.ok || (ok && a.String() != c.in) {
			t.Errorf("Parse(%q) = %q, %v", c.in, a, ok)
		}
	}
}

// TestJSON: an action encodes as the word, so decisions keep their JSON.
func TestJSON(t *testing.T) {
	b, err := json.Marshal(struct {
		Action action.Action `json:"action"`
	}{action.Deny})
	if err != nil || string(b) != `{"action":"deny"}` {
		t.Errorf("%s, %v", b, err)
	}
}
