package runtime_test

import (
	"context"
	"io/fs"
	"strings"
	"testing"

	"github.com/regate/regate/facts"
	"github.com/regate/regate/policies"
	"github.com/regate/regate/runtime"
)

// defaultEngines are the bundled default policy (strict on) and the same
// policy with strict off: the strict tables decide each row with both.
type defaultEngines struct {
	strict, plain *runtime.Engine
}

func newDefaultEngines(t *testing.T, fsys facts.FS) defaultEngines {
	t.Helper()
	src, err := fs.ReadFile(policies.FS, "default.jsonc")
	if err != nil {
		t.Fatal(err)
	}
	strictPolicy := string(src)
	plainPolicy := strings.Replace(strictPolicy, `"strict": true`, `"strict": false`, 1)
	if plainPolicy == strictPolicy {
		t.Fatal(`the default policy no longer says "strict": true; update the strict tables`)
	}
	return defaultEngines{
		strict: newEngine(t, strictPolicy, runtime.WithFS(fsys)),
		plain:  newEngine(t, plainPolicy, runtime.WithFS(fsys)),
	}
}

// check decides a bash command: want with strict mode, plain without it.
func (e defaultEngines) check(t *testing.T, cmd, want, plain string) {
	t.Helper()
	call := facts.Call{Tool: "bash", Input: map[string]any{"command": cmd}}
	if d, err := e.strict.Decide(context.Background(), call); err != nil || string(d.Action) != want {
		t.Errorf("strict: %s (%s, %v); want %s", d.Action, d.Matched, err, want)
	}
	if d, err := e.plain.Decide(context.Background(), call); err != nil || string(d.Action) != plain {
		t.Errorf("without strict mode: %s (%s, %v); want %s", d.Action, d.Matched, err, plain)
	}
}
