package bashfacts_test

import (
	"strings"
	"testing"

	"github.com/regate/regate/bashfacts"
)

// TestShellStateFacts: the strict reason of one unit of each command (the
// unit whose text is given), from the shell state that statements before
// it set and from expansions that evaluate a stored string. An empty want
// means the unit is not floored. Real bash proves what these constructs do
// in runtime's TestStrictShellState.
func TestShellStateFacts(t *testing.T) {
	for _, c := range []struct{ cmd, unit, want string }{
		// Options.
		{"shopt -s dotglob; cat *", "cat *", "shopt changed dotglob"},
		{"shopt -s extglob nullglob\nls", "ls", "shopt changed extglob"},
		{"shopt -u globskipdots; ls .*", "ls .*", "shopt changed globskipdots"},
		{"shopt -s failglob; ls *.x", "ls *.x", "shopt changed failglob"},
		{"shopt -s expand_aliases; ls", "ls", "shopt changed expand_aliases"},
		{"shopt -s histappend checkwinsize; ls", "ls", ""},
		{"shopt -q extglob && ls", "ls", ""},
		{"shopt -o -s noglob; ls", "ls", "shopt changed noglob"},
		{"shopt -s $opt; ls", "ls", "cannot read"},
		{"set -f; ls", "ls", "set -o noglob"},
		{"set +f; ls", "ls", "set +o noglob"},
		{"set -k; ls", "ls", "set -o keyword"},
		{"set -o posix; ls", "ls", "set -o posix"},
		{"set +o interactive-comments; ls", "ls", "interactive-comments"},
		{"set -euo pipefail; ls", "ls", ""},
		{"set -ex; set +x; ls", "ls", ""},
		{"set -- a b; ls", "ls", ""},
		// Aliases, functions, builtins that change what a name runs.
		{"alias ls='rm -rf ~'; ls", "ls", "alias ls was defined"},
		{"alias; ls", "ls", ""},
		{"ls() { rm -rf x; }; ls", "ls", "calls the function ls"},
		{"f() { cd /; }; f; cat x", "cat x", "the function f changed directory"},
		{"command_not_found_handle() { :; }; ls", "ls", "command_not_found_handle"},
		{"hash -p /tmp/x ls; ls", "ls", "hash -p"},
		{"hash -r; ls", "ls", ""},
		{"enable -f ./x.so cat; cat a", "cat a", "enable"},
		{"source ./env.sh; ls", "ls", "source ran a file"},
		{". venv/bin/activate && pytest", "pytest", ". ran a file"},
		{"declare -n r=HOME; r=/tmp; ls", "ls", "declare -n made r"},
		// Variables assigned by name.
		{"HOME=/tmp/x; cat ~/a", "cat ~/a", "HOME was set"},
		{"HOME=/tmp/x git status", "git status", "runs with HOME set"},
		{"export GOFLAGS=-toolexec=x; go test", "go test", "GOFLAGS was set"},
		{"MAKEFLAGS=-e make", "make", "MAKEFLAGS"},
		{"npm_config_userconfig=x npm test", "npm test", "npm_config_userconfig"},
		{"GLOBIGNORE=x; cat *", "cat *", "GLOBIGNORE"},
		{"PWD=/; cat $PWD/x", "cat $PWD/x", "PWD"},
		{"read -r HOME < f; cat ~/a", "cat ~/a", "HOME was set"},
		{"printf -v PATH %s /tmp; ls", "ls", "PATH was set"},
		{"mapfile -t PATH < f; ls", "ls", "PATH was set"},
		{"for HOME in /tmp; do cat ~/a; done", "cat ~/a", "HOME was set"},
		{"read -r line; echo $line", "echo $line", ""},
		{"CC=clang make", "make", "CC"},
		{"CGO_ENABLED=0 go build", "go build", ""},
		{"LC_ALL=C sort f", "sort f", ""},
		// Directories: pushd and popd, CDPATH, a glob.
		{"pushd /tmp; ls", "ls", "pushd changed directory"},
		{"popd; ls", "ls", "popd changed directory"},
		{"CDPATH=/tmp; cd x; ls", "ls", "CDPATH"},
		{"cd ~/.ss?; ls", "ls", "cd went to what a glob matches"},
		{"cd src; ls", "ls", ""},
		// Loops: a change later in the body reaches the next iteration.
		{"for i in 1 2; do cat *; shopt -s dotglob; done", "cat *", "runs again in a loop"},
		{"while true; do ls; export PATH=/x; done", "ls", "runs again in a loop"},
		// Payloads start from the state and hand theirs back.
		{"eval 'alias ls=x'; ls", "ls", "alias ls was defined"},
		{"shopt -s dotglob; eval 'cat *'", "cat *", "shopt changed dotglob"},
		// Expansions that evaluate a stored string.
		{"echo $((x))", "echo $((x))", "arithmetic"},
		{"echo $(($x + 1))", "echo $(($x + 1))", "arithmetic"},
		{"x=1; echo $((x + 1))", "echo $((x + 1))", ""},
		{"x=$((2 * 3)); echo $((x))", "echo $((x))", ""},
		{"x=abc; echo $((x))", "echo $((x))", "arithmetic"},
		{"x=1; x=$y; echo $((x))", "echo $((x))", "arithmetic"},
		{"read -r x; echo $((x))", "echo $((x))", "arithmetic"},
		{"for f in *; do echo $((f)); done", "echo $((f))", "arithmetic"},
		{"for f in 1 2; do echo $((f)); done", "echo $((f))", ""},
		{"echo $(( $(wc -l < f) + 1 ))", "echo $(( $(wc -l < f) + 1 ))", "arithmetic"},
		{"echo $((RANDOM % 6)) $(($# + $?)) ${#PATH}", "echo $((RANDOM % 6)) $(($# + $?)) ${#PATH}", ""},
		{"echo ${!x}", "echo ${!x}", "${!x}"},
		{"x=HOME; echo ${!x}", "echo ${!x}", ""},
		{"echo ${!a[@]} ${!BASH*}", "echo ${!a[@]} ${!BASH*}", ""},
		{"echo ${x@P}", "echo ${x@P}", "${x@P}"},
		{"x='\\u@\\h'; echo ${x@P}", "echo ${x@P}", ""},
		{"echo ${x@Q} ${x@E}", "echo ${x@Q} ${x@E}", ""},
		{"echo ${a[i]}", "echo ${a[i]}", "arithmetic"},
		{"echo ${a[0]} ${a[@]}", "echo ${a[0]} ${a[@]}", ""},
		{"declare -A h; echo ${h[$k]}", "echo ${h[$k]}", ""},
		{"echo ${s:x:1}", "echo ${s:x:1}", "arithmetic"},
		{"echo ${s:1:2}", "echo ${s:1:2}", ""},
		{"a[x]=1; ls", "a[x]=1", "arithmetic"},
		{"y=$((x)); ls", "y=$((x))", "arithmetic"},
		{"((x))", "((x))", "arithmetic"},
		{"((i = 0)); ((i++))", "((i++))", ""},
		{"let y=x", "let y=x", "arithmetic"},
		{"for ((i = 0; i < n; i++)); do :; done", "for ((i = 0; i < n; i++)); do :; done", "arithmetic"},
		{"for ((i = 0; i < 3; i++)); do :; done", "for ((i = 0; i < 3; i++)); do :; done", ""},
		{"[[ $x -eq 1 ]]", "[[ $x -eq 1 ]]", "arithmetic"},
		{"[[ $? -eq 0 ]]", "[[ $? -eq 0 ]]", ""},
		{"[[ -v $x ]]", "[[ -v $x ]]", "names the variable $x"},
		{"[[ -v HOME ]]", "[[ -v HOME ]]", ""},
		{"test -v 'a[$(id)]'", "test -v a[$(id)]", "names the variable a[$(id)]"},
		{"[ -v a[0] ]", "[ -v a[0] ]", ""},
		{"unset 'a[$(id)]'", "unset a[$(id)]", "names the variable"},
		{"unset -f 'f[x]'", "unset -f f[x]", ""},
		{"read \"$x\" < f", "read $x", "names the variable $x"},
		{"wait -n -p \"$x\"", "wait -n -p $x", "names the variable"},
		{"declare -i n=x", "declare -i n=x", "arithmetic"},
		{"declare -i n; n=$x; ls", "n=$x", "arithmetic"},
		{"declare -i n=5; ls", "declare -i n=5", ""},
		{"declare -n r=$x", "declare -n r=$x", "declare -n makes r"},
		{`declare -a "b=($x)"`, `declare -a "b=($x)"`, "re-parses"},
		{"declare -a b=(1 2)", "declare -a b=(1 2)", ""},
		{"a=([x]=1)", "a=([x]=1)", "arithmetic"},
		{"case $((x)) in 1) ;; esac", "case $((x)) in 1) ;; esac", "arithmetic"},
		{"cat < ${a[x]}", "cat", "arithmetic"},
	} {
		f, err := bashfacts.Extract(c.cmd)
		if err != nil {
			t.Errorf("%q: %v", c.cmd, err)
			continue
		}
		found := false
		for _, u := range f.Units {
			if u.Text != c.unit {
				continue
			}
			found = true
			// A floor for the unit's own prefix is on the unit spelt
			// with it (Unit.PrefixStrict).
			strict := strings.TrimPrefix(u.Strict+"; "+u.PrefixStrict, "; ")
			switch {
			case c.want == "" && strict != "":
				t.Errorf("%q: unit %q floored: %s", c.cmd, u.Text, strict)
			case c.want != "" && !strings.Contains(strict, c.want):
				t.Errorf("%q: unit %q has strict %q; want it to say %q", c.cmd, u.Text, strict, c.want)
			}
		}
		if !found {
			var texts []string
			for _, u := range f.Units {
				texts = append(texts, u.Text)
			}
			t.Errorf("%q: no unit %q in %q", c.cmd, c.unit, texts)
		}
	}
}

// TestGlobTokens: a token is a pattern exactly when bash would expand it,
// and carries the pattern in bash's notation when quoting made it differ
// from its value.
func TestGlobTokens(t *testing.T) {
	for _, c := range []struct {
		cmd, value string
		pattern    bool
		glob       string
		strictOnly bool
	}{
		{cmd: "cat .en?", value: ".en?", pattern: true},
		{cmd: "cat '.en?'", value: ".en?"},
		{cmd: `cat .en\?`, value: ".en?"},
		{cmd: `cat "*".e?v`, value: "*.e?v", pattern: true, glob: `\*.e?v`},
		{cmd: `cat .e[n]v`, value: ".e[n]v", pattern: true},
		{cmd: `cat [a`, value: "[a"},
		{cmd: `cat ~/.ss[!x]/id_*`, value: "~/.ss[!x]/id_*", pattern: true},
		{cmd: `cat "$HOME"/.ss?/*`, value: "$HOME/.ss?/*", pattern: true},
		{cmd: `cat @(.env|x)`, value: "@(.env|x)", pattern: true, strictOnly: true},
		{cmd: `cat ./?(.)env`, value: "./?(.)env", pattern: true, strictOnly: true},
		{cmd: `cat < .en?`, value: ".en?", pattern: true},
		{cmd: `grep {S,.env}`, value: ".env", strictOnly: true},
		{cmd: `grep .e* README`, value: ".e*", pattern: true, strictOnly: true},
		{cmd: `grep -e .e* README`, value: ".e*", pattern: true, strictOnly: true},
	} {
		f, err := bashfacts.Extract(c.cmd)
		if err != nil {
			t.Errorf("%q: %v", c.cmd, err)
			continue
		}
		var tok *bashfacts.Token
		for i := range f.Tokens {
			if f.Tokens[i].Value == c.value {
				tok = &f.Tokens[i]
			}
		}
		switch {
		case tok == nil:
			t.Errorf("%q: no token %q in %+v", c.cmd, c.value, f.Tokens)
		case tok.Pattern != c.pattern || tok.Glob != c.glob || tok.StrictOnly != c.strictOnly:
			t.Errorf("%q: token %q pattern=%v glob=%q strict-only=%v; want %v %q %v", c.cmd, c.value,
				tok.Pattern, tok.Glob, tok.StrictOnly, c.pattern, c.glob, c.strictOnly)
		}
	}
}

// TestUnitlessCommandKeepsItsWholeUnit: a command of assignments alone has
// no unit for the spec, which decides its whole text; when strict mode
// adds a unit of its own, the whole text is still there for the spec.
func TestUnitlessCommandKeepsItsWholeUnit(t *testing.T) {
	f, err := bashfacts.Extract("x=1; y=$((z))")
	if err != nil {
		t.Fatal(err)
	}
	var spec []string
	for _, u := range f.Units {
		if !u.StrictOnly {
			spec = append(spec, u.Text)
		}
	}
	if len(spec) != 1 || spec[0] != "x=1; y=$((z))" {
		t.Errorf("the units the spec decides are %q; want the whole text", spec)
	}
}
