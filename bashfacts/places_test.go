package bashfacts_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/regate/regate/bashfacts"
)

// TestPlaces: the places a word names through an expansion or a tilde
// form, each as the token strict mode gates ("s" strict-only, "u" an
// unknown path), and the spec's own tokens beside them. Each token is
// "kind value flags dir".
func TestPlaces(t *testing.T) {
	for _, c := range []struct {
		cmd  string
		want []string
	}{
		{"cat ~+/x", []string{"argument ./x s", "argument ~+/x"}},
		{"cat ~+", []string{"argument . s", "argument ~+"}},
		{"cat ~-/x", []string{"argument ~-/x su", "argument ~-/x"}},
		{"cd /a && cat ~-/x", []string{"argument /a", "argument ./x s", "argument ~-/x dir=/a"}},
		{"cd /a && cd b && cat ~-", []string{"argument /a", "argument b bare dir=/a", "argument /a s", "argument ~- dir=/a/b"}},
		{"cd a; cat $OLDPWD/x", []string{"argument a bare", "argument ./x s"}},
		{"cat ${HOME:-/tmp}/x ${HOME=y} ${HOME:?no}/z", []string{"argument ~/x s", "argument ~ s", "argument ~/z s"}},
		{"cat ${HOME:+/etc}/x ${HOME+.}/y", []string{"argument /etc/x s", "argument ./y s"}},
		{`cat "${HOME%/}/x" ${HOME%%/}`, []string{"argument ~/x s", "argument ~ s"}},
		{"cat ${HOME#/}/x ${HOME/u/v} ${OLDPWD:-/x}", []string{"argument ${HOME#/}/x su", "argument ${HOME/u/v} su", "argument ${OLDPWD:-/x} su"}},
		{"cat ${PWD:-x}/y $PWD", []string{"argument ./y s", "argument . s"}},
		// Any other expansion in a word shaped like a path is unknown.
		{"cat $D/x .en$V ${X}/y ~/$Y", []string{"argument $D/x su", "argument .en$V su", "argument ${X}/y su", "argument ~/$Y su"}},
		{"cat $(ls) `ls` \"$(ls)\"", []string{"argument $(ls) su", "argument `ls` su", "argument $(ls) su"}},
		{"cat $f \"$g\" ${h} $((1+2))", nil},
		{"grep -r --file=$D/x .", []string{"option $D/x su", "argument ."}},
		{"grep $pat file.txt", []string{"argument file.txt bare"}},
		{"cat < $f > \"$g\"", []string{"redirect $f su", "redirect $g su"}},
		{"cat < <(ls)", nil},
		// Variables the command assigns.
		{"X=.env; cat $X", []string{"argument .env s"}},
		{"X=a; X=b/c; cat \"$X\"", []string{"argument a s bare", "argument b/c s"}},
		{"X=$(ls); cat $X", []string{"argument $X su"}},
		{"X='a b'; cat $X \"$X\"", []string{"argument $X su", "argument a b s bare"}},
		{"X=.e*; cat $X", []string{"argument $X su"}},
		{"for f in a b; do cat $f; done", []string{"argument a s bare", "argument b s bare"}},
		{`for f in *.go .env; do cat "$f"; done`, []string{"argument *.go s glob", "argument .env s"}},
		{`for f in '*'.g?; do cat "$f"; done`, []string{`argument *.g? s glob=\*.g?`}},
		{"for f in src/*.go; do cat $f; done", []string{"argument src/*.go s glob split"}},
		{`cd a && for f in *.go; do cat "$f"; done`, []string{"argument a bare", "argument *.go s glob dir=a"}},
		{`for f in *.go; do cd a; cat "$f"; done`, []string{"argument a bare", "argument $f su dir=a"}},
		{`for f in {a,b}.go; do cat "$f"; done`, []string{"argument a.go s bare", "argument b.go s bare"}},
		{`for f in {a,b}*.go; do cat "$f"; done`, []string{"argument $f su"}},
		{`for f; do cat "$f"; done`, []string{"argument $f su"}},
		{`for f in $(ls); do cat "$f"; done`, []string{"argument $f su"}},
		// $(git ls-files …) is a listing facts reads from the index.
		{`wc -l $(git ls-files '*.go')`, []string{"argument $(git ls-files '*.go') s listing=*.go", "argument ls-files bare", "argument *.go bare"}},
		{`wc -l $(git ls-files --cached -- src)`, []string{"argument $(git ls-files --cached -- src) s listing=src", "argument ls-files bare", "argument src bare"}},
		{`wc -l $(git ls-files -o)`, []string{"argument $(git ls-files -o) su", "argument ls-files bare"}},
		{`wc -l "$(git ls-files)"`, []string{"argument $(git ls-files) su", "argument ls-files bare"}},
		{"read -r X; cat $X", []string{"argument X bare", "argument $X su"}},
		{"declare -l X=.ENV; cat $X", []string{"argument $X su"}},
		{"export X=.env; cat $X", []string{"argument .env s"}},
		{"((X=1)); cat $X", []string{"argument $X su"}},
		{"X=.env; cat < $X", []string{"redirect .env s"}},
		// cd follows the places too.
		{"cd ~+/a && cat x", []string{"argument ./a s", "argument ~+/a", "argument x bare dir=a"}},
		{"cd ~user && cat x", []string{"argument ~user", "argument x bare dir=?"}},
		{"cd -P link/.. && cat x", []string{"argument link/..", "argument x bare dir=?"}},
		{"cd a && cd - && cat x", []string{"argument a bare", "argument x bare"}},
	} {
		t.Run(c.cmd, func(t *testing.T) {
			f, err := bashfacts.Extract(c.cmd)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, tok := range f.Tokens {
				got = append(got, describe(tok))
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("tokens\n got %q\nwant %q", got, c.want)
			}
		})
	}
}

func describe(t bashfacts.Token) string {
	s := t.Kind + " " + t.Value
	flags := ""
	if t.StrictOnly {
		flags += "s"
	}
	if t.Unknown != "" {
		flags += "u"
	}
	if flags != "" {
		s += " " + flags
	}
	if t.Bare {
		s += " bare"
	}
	if t.Pattern {
		s += " glob"
		if t.Glob != "" && t.Glob != t.Value {
			s += "=" + t.Glob
		}
	}
	if t.Split {
		s += " split"
	}
	if t.Listing != nil {
		s += " listing=" + strings.Join(t.Listing.Pathspecs, ",")
	}
	switch {
	case t.Dir.Unknown:
		s += " dir=?"
	case t.Dir.Path != "":
		s += " dir=" + t.Dir.Path
	}
	return s
}

// TestRedirectedFDs: the descriptors a command's redirects open or
// duplicate onto, which /dev/fd/N then names.
func TestRedirectedFDs(t *testing.T) {
	for cmd, want := range map[string][]int{
		"cat /dev/fd/3 3<x":     {3},
		"cat /dev/stdin < x":    {0},
		"ls > x 2>&1":           {1, 2},
		"ls &> x":               {1, 2},
		"cat <<EOF\nx\nEOF":     nil,
		"cat <<< x":             nil,
		"ls {fd}>x":             nil,
		"(cat <&4) 4<x; ls 9>y": {0, 4, 9},
	} {
		f, err := bashfacts.Extract(cmd)
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(f.FDs) != fmt.Sprint(want) {
			t.Errorf("%q: fds %v, want %v", strings.ReplaceAll(cmd, "\n", `\n`), f.FDs, want)
		}
	}
}
