package runtime_test

import (
	"context"
	"strings"
	"testing"

	"github.com/regate/regate/facts"
)

// TestShellPayloads: bash, sh, dash, zsh and ksh are argument models
// (bashfacts/argmodel/models/shells.json), so the specification's opaque
// wrapper is found however the shell is told to run a command line, and
// the payload meets the rules. The rows marked "was" were decided
// otherwise when a Go scanner looked for -c: it did not know +c, long
// options that take a value (--rcfile FILE), bash's bundles whose values
// follow (-oc pipefail CMD, where it took pipefail for the payload) or
// bash's long options spelt with one dash, and took zsh --emulate's value
// for a script. Under yoloMode an ask the
// floor gives is approved, so a payload regate did not find ran: every
// row is decided with yolo off and on.
func TestShellPayloads(t *testing.T) {
	const policy = `{
  "yoloMode": %s,
  "permission": {
    "*": "ask",
    "bash": {"*": "ask", "bash *": "allow", "sh *": "allow", "zsh *": "allow", "ls *": "allow", "rm *": "deny"}
  }
}`
	for _, yolo := range []string{"false", "true"} {
		e := newEngine(t, strings.Replace(policy, "%s", yolo, 1))
		for _, c := range []struct{ cmd, want, yolo string }{
			{"bash +c 'rm -rf x'", "deny", "deny"},                       // was allow
			{"bash --rcfile /dev/null -c 'rm -rf x'", "deny", "deny"},    // was allow
			{"bash --init-file /dev/null -c 'rm -rf x'", "deny", "deny"}, // was allow
			{"bash -oc pipefail 'rm -rf x'", "deny", "deny"},             // was ask, and allow under yolo
			{"bash -rcfile /dev/null -c 'rm -rf x'", "deny", "deny"},     // was ask, and allow under yolo
			{"bash -Oc extglob 'rm -rf x'", "deny", "deny"},              // was ask, and allow under yolo
			{"sh +c 'rm -rf x'", "deny", "deny"},                         // was allow
			{"zsh +c 'rm -rf x'", "deny", "deny"},                        // was allow
			{"zsh --emulate sh -c 'rm -rf x'", "deny", "deny"},           // was allow
			{"bash -c 'rm -rf x'", "deny", "deny"},
			{"bash -c 'ls'", "ask", "allow"},
			{"bash +c 'ls'", "ask", "allow"},                    // was allow
			{"bash --rcfile /dev/null -c 'ls'", "ask", "allow"}, // was allow
			{"bash $NOPE -c 'ls'", "ask", "allow"},              // was allow: unset, $NOPE is no word
			{"bash -Z -c 'ls'", "ask", "allow"},                 // bash refuses -Z; the payload is not read
			{"bash build.sh", "allow", "allow"},
			{"bash -e build.sh --fast", "allow", "allow"},
			{"sh -x build.sh", "allow", "allow"},
			{"bash build.sh -c 'rm -rf x'", "allow", "allow"}, // build.sh's arguments
			{"bash $SCRIPT_DIR/build.sh", "allow", "allow"},   // a word of the host's environment and text
			{`bash "$SCRIPT"`, "allow", "allow"},
		} {
			want := c.want
			if yolo == "true" {
				want = c.yolo
			}
			d, err := e.Decide(context.Background(), facts.Call{Tool: "bash", Input: map[string]any{"command": c.cmd}})
			if err != nil {
				t.Fatal(err)
			}
			if string(d.Action) != want {
				t.Errorf("yolo %s: %q: %s (%s, %s); want %s", yolo, c.cmd, d.Action, d.Matched, d.Reason, want)
			}
		}
	}
}
