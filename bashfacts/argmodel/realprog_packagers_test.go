package argmodel_test

import (
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/regate/regate/bashfacts/argmodel"
)

// TestPackagerBuiltinsAreModelled: yarn and pnpm run a word that names no
// command of theirs as a script of package.json (the models'
// default_subcommand: yarn build is yarn run build), so every command
// they have must be a subcommand of the model, or yarn config set, yarn
// global add, pnpm setup and pnpm create would be read as scripts of the
// project. The commands are read from the real programs' help (yarn
// 1.22.22 and pnpm 10.34.9, pinned with the other npm runtimes); each must
// parse as a subcommand, or not be understood (a floor).
func TestPackagerBuiltinsAreModelled(t *testing.T) {
	for _, c := range []struct {
		prog string
		help []string
		re   *regexp.Regexp
		stop string
	}{
		{"yarn", []string{"help"}, regexp.MustCompile(`^\s+- ([a-zA-Z-]+)(?: / ([a-zA-Z-]+))?$`), ""},
		{"pnpm", []string{"help", "--all"}, regexp.MustCompile(`^ {2,6}((?:[a-z][a-z-]*, )?[a-z][a-z-]*)(?: [a-z-]+)? {2,}\S`), "Options:"},
	} {
		t.Run(c.prog, func(t *testing.T) {
			bin, err := exec.LookPath(c.prog)
			if err != nil {
				t.Skip(c.prog + " is not installed")
			}
			run := exec.Command(bin, c.help...)
			run.Dir, run.Env = t.TempDir(), append(os.Environ(), "HOME="+t.TempDir(), "COREPACK_ENABLE_STRICT=0")
			out, err := run.CombinedOutput()
			if err != nil {
				t.Fatalf("%s %s: %v\n%s", c.prog, strings.Join(c.help, " "), err, out)
			}
			var names []string
			for _, line := range strings.Split(string(out), "\n") {
				if c.stop != "" && strings.HasPrefix(line, c.stop) {
					break
				}
				if m := c.re.FindStringSubmatch(line); m != nil {
					for _, g := range m[1:] {
						for _, n := range strings.Split(g, ", ") {
							if n != "" {
								names = append(names, n)
							}
						}
					}
				}
			}
			if len(names) < 25 {
				t.Fatalf("read %d commands from %s's help, too few to be its list:\n%s", len(names), c.prog, out)
			}
			for _, n := range names {
				r := argmodel.Parse(c.prog, []argmodel.Arg{{Text: n}})
				if r.Problem == "" && r.Words[0].Role != argmodel.Subcommand {
					t.Errorf("%s %s is read as %s (%s), not as %s's own command", c.prog, n, r.Words[0].Role, r.Words[0].Value, c.prog)
				}
			}
		})
	}
}
