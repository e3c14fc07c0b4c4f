package runtime_test

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/regate/regate/bashfacts/argmodel"
)

// TestStrictOverblocks keeps the calls that name .env as a pattern or a
// string, not as a file read, from being denied under the bundled default
// policy with strict mode on (issue 19, "Roles cut both ways"): the
// program's argument model reads the word, so the spec's path reading of
// it (which denies, as the plain column shows) is dropped under strict
// mode. Each is allowed, or asked where the program is not on the bash
// allowlist or the command writes a file. Each row first runs in real
// bash to prove it does not print the secret. A row whose program has no
// model yet is skipped.
func TestStrictOverblocks(t *testing.T) {
	engines := newDefaultEngines(t, modelFS())
	bash, _ := exec.LookPath("bash")

	for _, c := range []struct {
		cmd         string
		want, plain string
	}{
		{"find . -name .env", "allow", "deny"},
		// A recursive read asks where what it reads holds a denied path
		// (docs/strict.md, "Recursive reads"); grep's own filters decide
		// what it reads, as grep matches them.
		{"grep -r X . --exclude=.env", "allow", "deny"},
		{"grep -rn X --exclude=.env --exclude-dir=.git .", "allow", "deny"},
		{"grep -rn X --exclude='[.]env' .", "allow", "allow"},
		{"grep -rn X --exclude='*' .", "allow", "allow"},
		{"grep -rn TODO --include='*.go' .", "allow", "allow"},
		{"echo .env >> .gitignore", "ask", "deny"}, // asks: it appends to .gitignore
		{"git check-ignore .env", "allow", "deny"},
		{"[ -f .env ]", "allow", "deny"},
		{"test -f .env", "allow", "deny"},
		{"test -e .env && echo present", "allow", "deny"},
		{"grep -n '\\.env' README.md", "allow", "allow"},
		{"grep -F .env README.md", "allow", "allow"},
		{"grep -e .env README.md", "allow", "allow"},
		// bash replaces a glob by what it matches: .env.example, which
		// the policy allows, not the name as written, which *.env.*
		// denies.
		{"grep -e X .env.exa?ple", "allow", "deny"},
		{"cat .env.exampl[e]", "allow", "deny"},
		{"ls --hide=.env", "allow", "deny"},
		{"ls -I .env -a", "allow", "deny"},
		// Examined, not read (the stat role): a file's name, size and times.
		{"ls -la .env", "allow", "deny"},
		{"stat .env", "allow", "deny"},
		{"echo .env", "allow", "deny"},
		{"printf '%s\\n' .env", "allow", "deny"},
	} {
		t.Run(c.cmd, func(t *testing.T) {
			program, _, _ := strings.Cut(c.cmd, " ")
			if !argmodel.Has(program) {
				t.Skipf("%s has no argument model yet", program)
			}
			if bash != "" {
				if eff := runInFixture(t, bash, c.cmd); !keepsSecret.holds(eff) {
					t.Fatalf("bash -c %q prints the secret: %+v", c.cmd, eff)
				}
			}
			engines.check(t, c.cmd, c.want, c.plain)
		})
	}
}
