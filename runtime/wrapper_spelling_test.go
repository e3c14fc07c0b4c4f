package runtime_test

import (
	"context"
	"strings"
	"testing"

	"github.com/regate/regate/facts"
	"github.com/regate/regate/runtime"
)

// TestWrapperSpellings: a wrapper runs the command its own option parser
// finds (bashfacts/argmodel/models/wrappers.json), so a rule that denies
// that command denies it however the wrapper's options are spelt: an
// abbreviated long option (timeout --sig KILL), a bundle that ends in
// fd's -x, the time program rather than bash's keyword (\time,
// command time, /usr/bin/time). Before the wrappers were argument models,
// the first two rows of each group asked (a deny lowered) or were allowed
// by fd *: allow and time *: allow (a silent allow). A wrapper is still
// floored to ask whatever its command (the specification's indirection
// floor), in strict mode and without it.
func TestWrapperSpellings(t *testing.T) {
	const policy = `{
  %s
  "permission": {
    "*": "ask",
    "bash": {
      "*": "ask",
      "rm *": "deny",
      "ls": "allow",
      "ls *": "allow",
      "fd *": "allow",
      "fdfind *": "allow",
      "find *": "allow",
      "time *": "allow"
    }
  }
}`
	for _, c := range []struct{ cmd, want string }{
		{"fd -Hx rm x", "deny"},
		{"fd -HX rm", "deny"},
		{"fdfind -x rm", "deny"},
		{"fd --exec=rm", "deny"},
		{"fd -Hx ls", "ask"},
		{"fd -H x", "allow"},
		{`\time rm x`, "deny"},
		{"command time rm x", "deny"},
		{"/usr/bin/time -o log rm x", "deny"},
		{"time rm x", "deny"},
		{`\time ls`, "ask"},
		{"timeout --sig KILL 5 rm x", "deny"},
		{"timeout $T rm x", "deny"},
		{"nice --adj 5 rm x", "deny"},
		{"nice -5 rm x", "deny"},
		{"env --un X rm x", "deny"},
		{"env - rm x", "deny"},
		{"env -S 'rm x'", "deny"},
		{`env -S 'rm\_x'`, "deny"},
		{`env -S '-C /tmp A=1 rm x'`, "deny"},
		{"sudo --us root rm x", "deny"},
		{"sudo -l rm x", "ask"},
		{"xargs --max-a 1 rm", "deny"},
		{"xargs -0r rm", "deny"},
		{"stdbuf --out L rm x", "deny"},
		{"setsid --wa rm x", "deny"},
		{"watch 'ls; rm x'", "deny"},
		{"watch ls '; rm x'", "deny"},
		{"flock /tmp/l -c 'rm x'", "deny"},
		{"parallel --will-cite rm ::: a", "deny"},
		{"parallel --jobs=2 -k rm ::: a", "deny"},
		{"parallel ::: 'rm x'", "deny"},
		{"parallel -q rm x ::: a", "deny"},
		{"rush ls -k 'x; rm y'", "deny"},
		{"rust-parallel -j2 rm ::: a", "deny"},
		{"find . -exec rm {} +", "deny"},
		{"find . -exec ls {} +", "ask"},
		{"find . -name x", "allow"},
	} {
		for _, strict := range []string{"", `"strict": true,`} {
			e := newEngine(t, strings.Replace(policy, "%s", strict, 1), runtime.WithFS(facts.MapFS{"/home/u/repo/x": "file"}))
			d, err := e.Decide(context.Background(), facts.Call{Tool: "bash", Input: map[string]any{"command": c.cmd}})
			if err != nil {
				t.Fatal(err)
			}
			if string(d.Action) != c.want {
				t.Errorf("%s (strict %v): %s (%s, %s); want %s", c.cmd, strict != "", d.Action, d.Matched, d.Reason, c.want)
			}
		}
	}
	// Strict mode's own wrappers (their commands are strict mode's
	// business alone): with strict on, the command they run meets the rule
	// that denies it; without, the specification's reading stands.
	for _, c := range []struct{ cmd, strict, plain string }{
		{"npx --yes -p x rm x", "deny", "ask"},
		{"npm exec --yes -- rm x", "deny", "ask"},
		{"pnpm dlx rm x", "deny", "ask"},
		{"ionice --classd 7 rm x", "deny", "ask"},
		{"chrt --ot 0 rm x", "deny", "ask"},
		{"su - root -c 'rm x'", "deny", "ask"},
		{"runuser -u root -- rm x", "deny", "ask"},
		{"script -qc 'rm x' /dev/null", "deny", "ask"},
		{"strace -s 100 -e trace=open rm x", "deny", "ask"},
		{"strace --string-lim 10 -fo /dev/null rm x", "deny", "ask"},
		{"ltrace -n 2 rm x", "deny", "ask"},
		{"systemd-run -p MemoryMax=1G --scope rm x", "deny", "ask"},
	} {
		for _, strict := range []string{"", `"strict": true,`} {
			e := newEngine(t, strings.Replace(policy, "%s", strict, 1), runtime.WithFS(facts.MapFS{"/home/u/repo/x": "file"}))
			d, err := e.Decide(context.Background(), facts.Call{Tool: "bash", Input: map[string]any{"command": c.cmd}})
			if err != nil {
				t.Fatal(err)
			}
			want := c.plain
			if strict != "" {
				want = c.strict
			}
			if string(d.Action) != want {
				t.Errorf("%s (strict %v): %s (%s, %s); want %s", c.cmd, strict != "", d.Action, d.Matched, d.Reason, want)
			}
		}
	}
	// A wrapper that starts its command in another folder (env -C, sudo
	// -D): the command's relative paths are that folder's.
	const paths = `{
  "permission": {
    "*": "ask",
    "bash": {"*": "ask", "cat *": "allow"},
    "path": {"*": "allow", "~/.ssh/*": "deny"}
  }
}`
	fsys := facts.MapFS{"/home/u/.ssh/id_rsa": "file", "/home/u/repo/id_rsa": "file", "/home/u/repo/sub/x": "file"}
	e := newEngine(t, paths, runtime.WithFS(fsys))
	for _, c := range []struct{ cmd, want string }{
		{"env -C ~/.ssh cat id_rsa", "deny"},
		{"env --chdir=/home/u/.ssh cat ./id_rsa", "deny"},
		{"env -C .. cat .ssh/id_rsa", "deny"},
		{"sudo -D /home/u/.ssh cat id_rsa", "deny"},
		{"env -C sub cat x", "ask"},
		{"sudo -i cat .ssh/id_rsa", "ask"},
	} {
		d, err := e.Decide(context.Background(), facts.Call{Tool: "bash", Input: map[string]any{"command": c.cmd}})
		if err != nil {
			t.Fatal(err)
		}
		if string(d.Action) != c.want {
			t.Errorf("%s: %s (%s); want %s", c.cmd, d.Action, d.Matched, c.want)
		}
	}
}
