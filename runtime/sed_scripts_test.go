package runtime_test

import (
	"context"
	"testing"

	"github.com/regate/regate/facts"
	"github.com/regate/regate/policies"
	"github.com/regate/regate/runtime"
)

// TestSedScripts: in strict mode a sed script's r and R files are reads
// and its w and W files (and s///w's) writes, decided by the path rules
// like any other; its e commands ask. The script is found by sed's
// argument model, however the options before it are spelt. Before the
// scripts were read this way, every deny row below but the plain -e ones
// was allowed by sed *: allow (sed --expr= and sed -l 5 hid the script,
// and r was not read at all), and a w file asked whatever the write rules
// said.
func TestSedScripts(t *testing.T) {
	fsys := facts.MapFS{"/home/u/.ssh/id_rsa": "file", "/home/u/repo/f": "file", "/home/u/repo/.env": "file"}
	developer := newEngine(t, readPolicy(t, "developer.jsonc"), runtime.WithFS(fsys))
	def := newEngine(t, string(policies.Default()), runtime.WithFS(fsys))
	rows := []policyRow{
		{"sed '1r /home/u/.ssh/id_rsa' f", "deny", "deny"},
		{"sed -e '1r /home/u/.ssh/id_rsa' f", "deny", "deny"},
		{"sed --expr='1r /home/u/.ssh/id_rsa' f", "deny", "deny"},
		{"sed --expression '1R /home/u/.ssh/id_rsa' f", "deny", "deny"},
		{"sed -l 5 '1r /home/u/.ssh/id_rsa' f", "deny", "deny"},
		{"sed -s -E '1r /home/u/.ssh/id_rsa' f", "deny", "deny"},
		{"sed -ne 'p;1r .env' f", "deny", "deny"},
		{`sed "1r $HOME/.ssh/id_rsa" f`, "deny", "deny"},
		{"sed -n '/x/w .env' f", "deny", "deny"},
		{"sed 's/a/b/w .env' f", "deny", "deny"},
		{"sed --expr='1e rm x' f", "ask", "ask"},
		{"sed -l 5 '1e rm x' f", "ask", "ask"},
		{"sed 's/a/rm x/e' f", "ask", "ask"},
		{"sed --fil=s.sed f", "ask", "ask"},
		{"for s in a b; do sed \"1r $s\" f; done", "ask", "ask"},
		// sed reads ~ as a folder named "~" in the working folder.
		{"sed '1r ~/.ssh/id_rsa' f", "allow", "allow"},
		// A write the rules allow, and the text of a, i and c.
		{"sed -n '/x/w out.txt' f", "allow", "ask"},
		{"sed -e 'a\\' -e '1r .env' f", "allow", "allow"},
		{"sed -n 's/a/b/p' f", "allow", "allow"},
		{"sed ':a;N;$!ba;s/\\n/ /g' f", "allow", "allow"},
		{"sed -n '1{p;q}' f", "allow", "allow"},
		{"sed -i 's/a/b/g' f", "allow", "ask"},
	}
	decideUnderBoth(t, developer, def, rows)
}

// policyRow is a command and its decision under the developer policy and
// under the bundled default.
type policyRow struct{ cmd, developer, def string }

// decideUnderBoth decides each row's command under both policies.
func decideUnderBoth(t *testing.T, developer, def *runtime.Engine, rows []policyRow) {
	t.Helper()
	for _, c := range rows {
		for _, p := range []struct {
			name string
			e    *runtime.Engine
			want string
		}{{"developer", developer, c.developer}, {"default", def, c.def}} {
			d, err := p.e.Decide(context.Background(), facts.Call{Tool: "bash", Input: map[string]any{"command": c.cmd}})
			if err != nil {
				t.Fatal(err)
			}
			if string(d.Action) != p.want {
				t.Errorf("%s (%s policy): %s (%s, %s); want %s", c.cmd, p.name, d.Action, d.Matched, d.Reason, p.want)
			}
		}
	}
}
