package bashfacts_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/regate/regate/bashfacts"
)

// TestRedirectWrites: how each redirect operator writes its target, and
// the streams that are no file.
func TestRedirectWrites(t *testing.T) {
	for _, c := range []struct{ cmd, target, writes string }{
		{"ls > a", "a", bashfacts.WriteCreate},
		{"ls >| a", "a", bashfacts.WriteCreate},
		{"ls &> a", "a", bashfacts.WriteCreate},
		{"ls >&a", "a", bashfacts.WriteCreate},
		{"ls 1<> a", "a", bashfacts.WriteCreate},
		{"ls >> a", "a", bashfacts.WriteAppend},
		{"ls &>> a", "a", bashfacts.WriteAppend},
		{"cat <<EOF > ~/a\nx\nEOF", "~/a", bashfacts.WriteCreate},
		{"cat < a", "a", ""},
		{"ls > /dev/null", "/dev/null", ""},
		{"ls 2> /dev/stderr", "/dev/stderr", ""},
	} {
		f, err := bashfacts.Extract(c.cmd)
		if err != nil {
			t.Fatalf("%q: %v", c.cmd, err)
		}
		found := false
		for _, tok := range f.Tokens {
			if tok.Kind == bashfacts.TokenRedirect && tok.Value == c.target {
				found = true
				if tok.Writes != c.writes {
					t.Errorf("%q: %s writes %q, want %q", c.cmd, c.target, tok.Writes, c.writes)
				}
			}
		}
		if !found {
			t.Errorf("%q: no redirect token %q in %+v", c.cmd, c.target, f.Tokens)
		}
	}
}

// TestModelWrites: the paths the programs that delete, create, link or
// change files write (a delete, a creation, an overwrite) or edit (times,
// mode, owner), as their argument models read them, each as "value role"
// (with "strict-only" for a path the spec's rules did not take, and the
// names a folder target receives); a mode, an owner or a value is no path.
func TestModelWrites(t *testing.T) {
	for _, c := range []struct {
		cmd  string
		want []string
	}{
		{"rm policy.jsonc", []string{"policy.jsonc write"}},
		{"rm -rf .regate build/*.lock", []string{".regate tree-write", "build/*.lock tree-write"}},
		{"rm -- -f", []string{"-f write strict-only"}},
		{"rmdir d", []string{"d write"}},
		{"unlink f", []string{"f write"}},
		{"shred -u f", []string{"f write"}},
		{"shred --random-source=seed f", []string{"seed read strict-only", "f write"}},
		{"mkdir -p a/b", []string{"a/b write"}},
		{"mkdir -m 700 d", []string{"d write"}},
		{"touch policy.jsonc", []string{"policy.jsonc edit"}},
		{"touch -r ref f", []string{"ref list", "f edit"}},
		{"truncate -s0 policy.jsonc", []string{"policy.jsonc write"}},
		{"truncate --reference=ref f", []string{"ref list strict-only", "f write"}},
		{"chmod 777 policy.jsonc", []string{"policy.jsonc edit"}},
		{"chmod -R u+w src", []string{"src tree-write"}},
		{"chmod -w policy.jsonc", []string{"policy.jsonc edit"}},
		{"chmod 644 -w policy.jsonc", []string{"644 edit", "policy.jsonc edit"}},
		{"chmod --reference=a b", []string{"a list strict-only", "b edit"}},
		{"chown u:g f", []string{"f edit"}},
		{"chgrp -R staff d", []string{"d tree-write"}},
		{"ln -sf x policy.jsonc", []string{"x write into=policy.jsonc", "policy.jsonc write into=x"}},
		{"ln -s /tmp/policy.jsonc", []string{". write strict-only into=policy.jsonc", "/tmp/policy.jsonc write"}},
		{"ln -t dir a", []string{"dir write into=a", "a write into=dir"}},
		{"dd if=/dev/zero of=policy.jsonc", []string{"/dev/zero read strict-only", "policy.jsonc write strict-only"}},
		{"dd if=a of=b.lock conv=notrunc bs=1M", []string{"a read strict-only", "b.lock write strict-only"}},
	} {
		t.Run(c.cmd, func(t *testing.T) {
			f, err := bashfacts.Extract(c.cmd)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, tok := range f.Tokens {
				if tok.Role == "" {
					if !tok.SpecOnly {
						t.Errorf("%s has no role", tok.Value)
					}
					continue
				}
				s := tok.Value + " " + tok.Role
				if tok.StrictOnly {
					s += " strict-only"
				}
				if len(tok.Into) > 0 {
					s += " into=" + strings.Join(tok.Into, ",")
				}
				got = append(got, s)
			}
			if len(f.Units) != 1 || f.Units[0].Strict != "" {
				t.Errorf("units %+v; want one, understood", f.Units)
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("tokens %q; want %q", got, c.want)
			}
		})
	}
}
