package bashfacts_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// wrapperCases are commands that run the program rec through a wrapper,
// spelt as an agent might: abbreviated long options, bundles, attached
// values, a command line the wrapper hands to a shell. want is what rec
// is run with, as regate reads it: the words after rec in the unit it
// finds for rec, or "-" when it finds none (the wrapper has no command).
// real, when set, is what bash runs rec with where that is not want: the
// names find and fd put in place of {} or after the command, and a
// command xargs -r does not run on no input.
var wrapperCases = []struct {
	cmd, want, real string
}{
	{"timeout 5 rec a b", "a b", ""},
	{"timeout --sig KILL 5 rec a", "a", ""},
	{"timeout -sKILL -k1 5 rec -x", "-x", ""},
	{"timeout --fore --preserve 5 rec a", "a", ""},
	{"nice rec a", "a", ""},
	{"nice --adj 5 rec a", "a", ""},
	{"nice -n5 rec a", "a", ""},
	{"nice -5 rec a", "a", ""},
	{"nohup rec a", "a", ""},
	{"env --un X rec a", "a", ""},
	{"env -u X -C / rec a", "a", ""},
	{"env A=1 B=2 rec a C=3", "a C=3", ""},
	{"env - REC/rec a", "a", ""},
	{"env -i A=1 REC/rec a", "a", ""},
	{"env -S 'REC/rec a b' c", "a b c", ""},
	{"env --split-string='REC/rec a' b", "a b", ""},
	{"env -- rec a", "a", ""},
	{"xargs rec a", "a", ""},
	{"xargs --max-a 1 rec a", "a", ""},
	{"xargs -0n1 rec a", "a", ""},
	{"xargs -e rec a", "a", ""},
	{"xargs -E END -r rec a", "a", "-"},
	{"xargs -l rec a", "a", ""},
	{"xargs -s 100 -- rec a", "a", ""},
	{"sudo REC/rec a", "a", ""},
	{"sudo -u root REC/rec a", "a", ""},
	{"sudo --us root REC/rec a", "a", ""},
	{"sudo -E -- REC/rec a", "a", ""},
	{"sudo A=1 REC/rec a", "a", ""},
	{"sudo -l REC/rec a", "-", ""},
	{"setsid -w rec a", "a", ""},
	{"setsid --wa rec a", "a", ""},
	{"stdbuf -oL rec a", "a", ""},
	{"stdbuf --out=L -e0 rec a", "a", ""},
	{"flock F rec a", "a", ""},
	{"flock -w 1 F rec a", "a", ""},
	{"flock --nb -x F rec a", "a", ""},
	{"flock F -c 'rec a b'", "a b", ""},
	{"flock F --command 'rec a; rec b'", "a", ""},
	{"\\time rec a", "a", ""},
	{"\\time -f %e -o T rec a", "a", ""},
	{"\\time --out=T --app rec a", "a", ""},
	{"command time -p rec a", "a", ""},
	{"find F -exec rec {} ';'", "{}", "F"},
	{"find F -exec rec a {} +", "a {}", "a F"},
	{"find F -name F -execdir rec {} ';'", "{}", "./F"},
	{"parallel --will-cite rec ::: a", "", "a"},
	{"parallel --will-cite -j2 -k rec x {} ::: a", "x {}", "x a"},
	{"parallel --will-cite --jo 2 rec ::: a", "-", ""},
	{"parallel --will-cite --jobs=2 --max-a 1 rec ::: a", "", "a"},
	{"parallel --will-cite -e rec x ::: a", "-", ""},
	{"parallel --will-cite -i rec {} ::: a", "-", ""},
	{"parallel --will-cite ::: 'rec q'", "q", ""},
	{"parallel --will-cite -q rec a ::: v", "a", "a v"},
	{"parallel --will-cite rec a :::: F", "a", "-"},
	{"rush -j2 'rec a' -k", "a", ""},
	{"rush rec -k a", "a", ""},
	{"rush --jobs=2 -- rec -k", "-k", ""},
	{"rust-parallel -j2 rec a ::: b", "a", ""},
	{"rust-parallel -s 'rec a' ::: b", "a", ""},
	{"rust-parallel ::: 'rec a'", "a", ""},
	// Strict mode's wrappers: their commands are decided in strict mode.
	{"ionice -c 3 rec a", "a", ""},
	{"ionice --cl 3 rec a", "-", ""},
	{"ionice --classd 7 rec a", "a", ""},
	{"chrt -o 0 rec a", "a", ""},
	{"chrt --ot 0 rec a", "a", ""},
	{"taskset 1 rec a", "a", ""},
	{"taskset -c 0 rec a", "a", ""},
	{"script -qc 'rec a' /dev/null", "a", ""},
	{"script -q --comm 'rec a' /dev/null", "a", ""},
	{"runuser -u root -- REC/rec a", "a", ""},
	{"su root -c 'REC/rec a'", "a", ""},
	{"su - root -c 'REC/rec a'", "a", ""},
	{"su -c 'REC/rec a' root", "a", ""},
	{`env -S 'rec\_a'`, "a", ""},
	{`env -S 'rec "a b" c'`, "a b c", ""},
	{`env -S '-u X A=1 rec a'`, "a", ""},
	{`env -S 'rec a #b'`, "a", ""},
	{`env -S 'rec a' b`, "a b", ""},
	{`env -S 'rec a\cb'`, "a", ""},
	{`env -S 'rec x; rec y'`, "x; rec y", ""},
	{`env -vS'rec a'`, "a", ""},
	{"strace -f -o /dev/null rec a", "a", ""},
	{"strace -qq -e trace=none -s 100 rec a", "a", ""},
	{"strace --string-lim 10 -o /dev/null rec a", "a", ""},
	{"strace -yyo /dev/null -- rec a", "a", ""},
	{"strace --str 10 rec a", "-", ""},
	{"ltrace -n 2 -o /dev/null rec a", "a", ""},
	{"systemd-run --user --scope -p MemoryMax=1G rec a", "a", ""},
	{"npx --yes -p x rec a", "a", ""},
	{"npm exec --yes -- rec a", "a", ""},
	{"fdfind '^F$' -HX rec", "", "./F"},
	{"fdfind '^F$' -tf -x rec a", "a", "a ./F"},
	{"fdfind '^F$' --exec=rec", "", "./F"},
	{"trap -- 'rec a' EXIT", "a", ""},
	{"trap 'rec a; rec b' EXIT INT", "a", "a b"},
	{"trap -p EXIT", "-", ""},
}

// TestWrappersRunWhatTheProgramRuns runs each command in bash, where the
// program is installed, with rec recording the words it is run with,
// and requires regate's reading of the command to run rec with those
// words: a wrapper's model that misread an option's arity, an
// abbreviation or a bundle would find another command, and a rule that
// denies the command would not meet it.
func TestWrappersRunWhatTheProgramRuns(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	dir := t.TempDir()
	out := writeRec(t, dir)
	if err := os.WriteFile(filepath.Join(dir, "F"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range wrapperCases {
		cmd := strings.ReplaceAll(c.cmd, "REC/", dir+"/")
		t.Run(c.cmd, func(t *testing.T) {
			if got := recRun(t, cmd); got != c.want {
				t.Errorf("regate reads rec's words as %q; the row says %q", got, c.want)
			}
			prog := strings.Fields(strings.TrimPrefix(c.cmd, "\\"))[0]
			if prog == "command" {
				prog = "time"
			}
			needsRoot := prog == "sudo" || prog == "su" || prog == "runuser"
			_, err := exec.LookPath(prog)
			if prog == "trap" {
				err = nil // bash's own
			}
			if err != nil || (needsRoot && os.Geteuid() != 0) || prog == "npx" || prog == "npm" || prog == "systemd-run" {
				return // the reading is checked; the program is not here to run (npx and npm would fetch packages, systemd-run needs systemd running)
			}
			os.Remove(out)
			run := exec.Command(bash, "-c", cmd)
			run.Dir, run.Stdin = dir, strings.NewReader("")
			run.Env = append(os.Environ(), "PATH="+dir+":"+os.Getenv("PATH"))
			msg, _ := run.CombinedOutput()
			real := recorded(out, 0)
			if c.cmd == "flock F --command 'rec a; rec b'" {
				real = strings.Fields(real)[0] // rec ran twice, a then b
			}
			want := c.want
			if c.real != "" {
				want = c.real
			}
			if real != want {
				t.Errorf("bash ran rec with %q; the row says %q\n%s", real, want, msg)
			}
		})
	}
}
