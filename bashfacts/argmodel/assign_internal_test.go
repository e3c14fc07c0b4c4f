package argmodel

import (
	"strings"
	"testing"
	"testing/fstest"
)

// TestAssignChecks: a slot of NAME=value operands takes its roles from
// assign alone, each one known, and has no default or floor.
func TestAssignChecks(t *testing.T) {
	for _, c := range []struct{ slot, err string }{
		{`{"many": true, "assign": {"if": "read", "of": "write"}}`, ""},
		{`{"role": "write", "many": true, "assign": {"of": "write"}}`, "takes its roles from assign"},
		{`{"many": true, "default": ".", "assign": {"of": "write"}}`, "takes its roles from assign"},
		{`{"many": true, "floor": "x", "assign": {"of": "write"}}`, "takes its roles from assign"},
		{`{"many": true, "assign": {}}`, "names no assignment"},
		{`{"many": true, "assign": {"of": "frob"}}`, `assign gives of the unknown role "frob"`},
		{`{"many": true, "assign": {"a=b": "write"}}`, `assign names "a=b", which is no NAME`},
		{`{"many": true, "assign": {"": "write"}}`, `assign names "", which is no NAME`},
		{`{"many": true}`, `unknown role ""`},
	} {
		fsys := fstest.MapFS{"models/x.json": {Data: []byte(`{"programs": [{"names": ["x"], "operands": [` + c.slot + `]}]}`)}}
		_, err := decode(fsys)
		switch {
		case c.err == "" && err != nil:
			t.Errorf("%s: %v", c.slot, err)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%s: %v; want an error with %q", c.slot, err, c.err)
		}
	}
}
