package argmodel_test

import (
	"reflect"
	"testing"

	"github.com/regate/regate/bashfacts/argmodel"
)

// changeCases: the programs that delete, create, link or change files
// (GNU coreutils). What they delete, create or overwrite is a write, what
// they change in place (times, mode, owner) an edit, a file they only
// stat (--reference) a list.
var changeCases = []parseCase{
	// rm, rmdir, unlink, shred: a delete (or an overwrite) is a write; rm
	// -r deletes the folder it names.
	{[]string{"rm", "policy.jsonc"}, "write", ""},
	{[]string{"rm", "-rf", "D"}, "- tree-write", ""},
	{[]string{"rm", "--recur", "D", "x.lock"}, "- tree-write tree-write", ""},
	{[]string{"rm", "--", "-f"}, "- write", ""},
	{[]string{"rm", "-f", "--interactive=never", "a"}, "- value write", ""},
	{[]string{"rm", "---presume-input-tty", "a"}, "- write", ""},
	// rm takes n (never, no and none mean the same); the model asks.
	{[]string{"rm", "--interactive=n", "a"}, "", "rm: n is not a value of --interactive"},
	{[]string{"rm", "-x", "a"}, "", "rm: the option -x (in -x) is not"},
	{[]string{"rm", "$f"}, "", "rm: $f is an expansion where rm reads options"},
	{[]string{"rm", "--", "$f"}, "- write", ""},
	{[]string{"rmdir", "d"}, "write", ""},
	{[]string{"rmdir", "-p", "a/b/c"}, "- write", ""},
	{[]string{"rmdir", "--pa", "a"}, "- write", ""}, // --parents and --path are one option
	{[]string{"unlink", "f"}, "write", ""},
	{[]string{"unlink", "--", "-f"}, "- write", ""},
	{[]string{"unlink", "a", "b"}, "write ", "unlink: the operand b is more than unlink takes"},
	{[]string{"unlink", "-f"}, "", "unlink: the option -f (in -f) is not"},
	{[]string{"shred", "-u", "f"}, "- write", ""},
	{[]string{"shred", "-n", "3", "-zu", "f"}, "- value - write", ""},
	{[]string{"shred", "--random-source=/dev/urandom", "-s4", "f"}, "read value write", ""},
	{[]string{"shred", "--remove=w", "f"}, "", "shred: w is not a value of --remove"},
	// mkdir creates its operands.
	{[]string{"mkdir", "-p", "a/b"}, "- write", ""},
	{[]string{"mkdir", "-m", "700", "d"}, "- value write", ""},
	{[]string{"mkdir", "--mode=700", "-Z", "d"}, "value - write", ""},
	{[]string{"mkdir", "--context=x", "d"}, "value write", ""},
	{[]string{"mkdir", "-Zx", "d"}, "", "mkdir: the option -x (in -Zx) is not"},
	// touch changes times (and creates what is absent); -r only stats.
	{[]string{"touch", "policy.jsonc"}, "edit", ""},
	{[]string{"touch", "-r", "ref", "f"}, "- list edit", ""},
	{[]string{"touch", "--ref=ref", "f"}, "list edit", ""},
	{[]string{"touch", "-d", "yesterday", "-t", "202001010000", "f"}, "- value - value edit", ""},
	{[]string{"touch", "--time=modify", "f"}, "value edit", ""},
	// touch takes m (mtime and modify mean the same); the model asks.
	{[]string{"touch", "--time=m", "f"}, "", "touch: m is not a value of --time"},
	// truncate overwrites.
	{[]string{"truncate", "-s0", "policy.jsonc"}, "value write", ""},
	{[]string{"truncate", "-r", "ref", "-s", "+1", "f"}, "- list - value write", ""},
	{[]string{"truncate", "--ref=ref", "f"}, "list write", ""},
	{[]string{"truncate", "--si", "0", "f"}, "- value write", ""},
	// chmod, chown, chgrp: the first operand is the mode, owner or group
	// unless --reference gives it; the files are edits. A chmod option
	// made of mode letters (-w, -rwx, -644) is the mode: then every
	// operand is a file, as chmod reads them (chmod 644 -w f changes a
	// file named 644).
	{[]string{"chmod", "777", "policy.jsonc"}, "value edit", ""},
	{[]string{"chmod", "-R", "u+w", "D"}, "- value tree-write", ""},
	{[]string{"chmod", "-Rv", "go-w", "D", "E"}, "- value tree-write tree-write", ""},
	{[]string{"chmod", "-w", "f"}, "- edit", ""},
	{[]string{"chmod", "-rwx", "f"}, "value edit", ""},
	{[]string{"chmod", "-644", "f"}, "value edit", ""},
	{[]string{"chmod", "-=r", "f"}, "value edit", ""},
	{[]string{"chmod", "644", "-w", "f"}, "edit - edit", ""},
	{[]string{"chmod", "-w", "-x", "f"}, "- - edit", ""},
	{[]string{"chmod", "--", "-w", "f"}, "- value edit", ""},
	{[]string{"chmod", "--reference=a", "b", "c"}, "list edit edit", ""},
	{[]string{"chmod", "--ref", "a", "b"}, "- list edit", ""},
	{[]string{"chmod", "-w", "--reference=a", "b"}, "- list edit", "chmod cannot combine a mode with --reference"},
	{[]string{"chmod", "--r", "f"}, "", "chmod: --r is an ambiguous abbreviation"},
	{[]string{"chmod", "-q", "f"}, "", "chmod: the option -q (in -q) is not"},
	{[]string{"chown", "u:g", "f"}, "value edit", ""},
	{[]string{"chown", "-hR", "u:g", "D"}, "- value tree-write", ""},
	{[]string{"chown", "--from=root", "u", "f"}, "value value edit", ""},
	{[]string{"chown", "--reference", "a", "b"}, "- list edit", ""},
	{[]string{"chown", "--", "-u", "f"}, "- value edit", ""},
	{[]string{"chgrp", "staff", "f"}, "value edit", ""},
	{[]string{"chgrp", "--ref=a", "b"}, "list edit", ""},
	{[]string{"chgrp", "--from=root", "g", "f"}, "", "chgrp: the option --from is not"},
	// ln: every operand is written (the link, and the file a hard link
	// shares), -t's folder too.
	{[]string{"ln", "-sf", "x", "policy.jsonc"}, "- write write", ""},
	{[]string{"ln", "-t", "dir", "a", "b"}, "- write write write", ""},
	{[]string{"ln", "--target-directory=dir", "a"}, "write write", ""},
	{[]string{"ln", "-sS", ".bak", "x", "y"}, "- value write write", ""},
	{[]string{"ln", "-snrvT", "x", "y"}, "- write write", ""},
	{[]string{"ln", "--backup=numbered", "-F", "a", "b"}, "value - write write", ""},
	{[]string{"ln", "--backup=n", "a", "b"}, "", "ln: n is not a value of --backup"},
	// dd: NAME=value operands, a file read (if=) or written (of=) or a
	// value; no options but --help and --version.
	{[]string{"dd", "if=/dev/zero", "of=policy.jsonc"}, "read write", ""},
	{[]string{"dd", "if=a", "of=b", "bs=1M", "count=1", "conv=notrunc,fsync", "status=none"}, "read write value value value value", ""},
	{[]string{"dd", "--", "of=x", "oseek=1"}, "- write value", ""},
	{[]string{"dd", "of=a=b"}, "write", ""},
	{[]string{"dd", "--help"}, "-", ""},
	{[]string{"dd", "if=a", "x"}, "read ", "dd: the operand x is not NAME=value"},
	{[]string{"dd", "if=a", "bogus=1"}, "read ", "dd: the operand bogus=1 is not NAME=value"},
	{[]string{"dd", "IF=a"}, "", "dd: the operand IF=a is not NAME=value"},
	{[]string{"dd", "of"}, "", "dd: the operand of is not NAME=value"},
	{[]string{"dd", "-x", "of=a"}, "", "dd: the option -x (in -x) is not"},
	{[]string{"dd", "$op"}, "", "dd: $op is an expansion where dd reads options"},
	{[]string{"dd", "@of=*.img"}, "", "dd: bash expands the glob of=*.img"},
}

func TestParseChanges(t *testing.T) {
	runParseCases(t, changeCases)
}

// TestParseChangeValues: dd's assignments give the path after "=", and ln
// with one operand links into the working folder, as ln TARGET . does.
func TestParseChangeValues(t *testing.T) {
	r := argmodel.Parse("dd", literal("if=/dev/zero", "of=policy.jsonc", "bs=1M"))
	want := []argmodel.Word{{Role: argmodel.Read, Value: "/dev/zero"}, {Role: argmodel.Write, Value: "policy.jsonc"}, {Role: argmodel.Value, Value: "1M"}}
	if r.Problem != "" || !reflect.DeepEqual(r.Words, want) {
		t.Errorf("dd: %+v; want %+v", r, want)
	}
	r = argmodel.Parse("dd", []argmodel.Arg{{Text: "of=$X", Dynamic: true}})
	if r.Problem != "" || r.Words[0] != (argmodel.Word{Role: argmodel.Write, Value: "$X"}) {
		t.Errorf("dd of=$X: %+v", r)
	}
	for _, c := range []struct {
		words    []string
		defaults []argmodel.Default
	}{
		{[]string{"-s", "/etc/policy.jsonc"}, []argmodel.Default{{Role: argmodel.Write, Value: "."}}},
		{[]string{"-s", "a", "b"}, nil},
		{[]string{"-t", "d", "a"}, nil},
	} {
		r := argmodel.Parse("ln", literal(c.words...))
		if r.Problem != "" || !reflect.DeepEqual(r.Defaults, c.defaults) {
			t.Errorf("ln %q: %+v; want the defaults %+v", c.words, r, c.defaults)
		}
	}
}
