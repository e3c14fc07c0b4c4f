package argmodel_test

import (
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/regate/regate/bashfacts/argmodel"
)

// bun's and deno's models are generated from the help each prints for
// itself and its subcommands (docs/strict.md): these tests read the help
// of the installed programs (pinned in testdata/runtimes) again and hold
// every option's name and arity to it, so that a newer bun or deno, or a
// hand edit, shows as a difference rather than as a call misread.

// bunOption is a line of bun's help: "-e, --eval=<val>", "--hot", "-i",
// and bun x's "-p, --package <package>".
var bunOption = regexp.MustCompile(`^\s{2,}(?:(-\w), )?(--[A-Za-z0-9.\-]+)(=<val>| <[\w-]+>)?(?:\s|$)|^\s{2,}(-\w)\s{2,}\S`)

// denoOption is a line of deno's help (clap): "-c, --config <VALUE>",
// "--check[=<VALUE>]" (a value after = only), "--lock [<VALUE>]" (the next
// word unless it begins with "-"). Deeper lines are descriptions.
var denoOption = regexp.MustCompile(`^ {2,6}(?:(-\w), )?(--[A-Za-z0-9-]+)(\[=<?\w+>?(?:\.\.\.)?\]| <\w+>(?:\.\.\.)?| \[<\w+>\])?(?:\s|$)`)

// helpArities reads the options of program's help for args: each name
// with its arity as the model spells it. A name listed twice keeps its
// first line (deno outdated lists -r for --recursive and --reload).
func helpArities(t *testing.T, program string, re *regexp.Regexp, args ...string) map[string]string {
	t.Helper()
	cmd := exec.Command(program, append(args, "--help")...)
	cmd.Env = []string{"NO_COLOR=1", "PATH=/usr/bin:/bin"}
	out, _ := cmd.CombinedOutput() // bun x prints its help on stderr
	got := map[string]string{}
	for _, line := range strings.Split(string(out), "\n") {
		m := re.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		arity := "none"
		switch v := m[3]; {
		case strings.HasPrefix(v, "[="):
			arity = "optional"
		case strings.HasPrefix(v, " ["):
			arity = "maybe"
		case v != "":
			arity = "required"
		}
		names := []string{m[1], m[2]}
		if len(m) > 4 {
			names = append(names, m[4]) // bun's "-i" alone
		}
		for _, n := range names {
			if _, seen := got[n]; n != "" && !seen {
				got[n] = arity
			}
		}
	}
	return got // none for a help the program fetches from the network (deno deploy)
}

// compareArities fails for each option of want the model lacks or reads
// with another arity, and each the model has that want does not.
func compareArities(t *testing.T, what string, opts []*argmodel.Opt, want map[string]string) {
	t.Helper()
	got := map[string]string{}
	for _, o := range opts {
		arity := o.Arg
		if arity == "" {
			arity = "none"
		}
		for _, n := range o.Names {
			got[n] = arity
		}
	}
	for n, a := range want {
		if got[n] != a {
			t.Errorf("%s %s: the CLI's arity is %s, the model's %q", what, n, a, got[n])
		}
	}
	for n := range got {
		if _, ok := want[n]; !ok {
			t.Errorf("%s: the model has %s, the CLI does not", what, n)
		}
	}
}

func TestBunModelIsTheCLI(t *testing.T) {
	if _, err := exec.LookPath("bun"); err != nil {
		t.Skip("bun is not installed (.ci/run installs testdata/runtimes)")
	}
	p := loadModel(t, "models/bun.json")
	compareArities(t, "bun", p.Options, helpArities(t, "bun", bunOption))
	for _, s := range p.Subcommands {
		want := helpArities(t, "bun", bunOption, s.Names[0])
		if s.Names[0] == "test" {
			// bun test reads the runtime's options too (--watch, --preload).
			for n, a := range helpArities(t, "bun", bunOption, "run") {
				if _, ok := want[n]; !ok {
					want[n] = a
				}
			}
		}
		compareArities(t, "bun "+s.Names[0], s.Options, want)
	}
}

func TestDenoModelIsTheCLI(t *testing.T) {
	if _, err := exec.LookPath("deno"); err != nil {
		t.Skip("deno is not installed (.ci/run installs testdata/runtimes)")
	}
	p := loadModel(t, "models/deno.json")
	compareArities(t, "deno", p.Options, helpArities(t, "deno", denoOption))
	for _, s := range p.Subcommands {
		compareArities(t, "deno "+s.Names[0], s.Options, helpArities(t, "deno", denoOption, s.Names[0]))
	}
}
