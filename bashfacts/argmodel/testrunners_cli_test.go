package argmodel_test

import (
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/regate/regate/bashfacts/argmodel"
)

// jest's and vitest's models (models/testrunners.json) are generated from
// the help each prints: these tests read the help of the installed
// programs (pinned in testdata/runtimes) again and hold every option's
// name and arity to it, so that a newer jest or vitest, or a hand edit,
// shows as a difference rather than as a call misread.

// loadTestRunner is the model of program in models/testrunners.json.
func loadTestRunner(t *testing.T, program string) *argmodel.Program {
	t.Helper()
	for _, p := range loadModels(t, "models/testrunners.json") {
		if slices.Contains(p.Names, program) {
			return p
		}
	}
	t.Fatalf("models/testrunners.json has no %s", program)
	return nil
}

// programHelp is what program prints for args.
func programHelp(t *testing.T, program string, args ...string) string {
	t.Helper()
	cmd := exec.Command(program, args...)
	cmd.Env = append(os.Environ(), "NO_COLOR=1", "FORCE_COLOR=0")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", program, strings.Join(args, " "), err, out)
	}
	return string(out)
}

// modelArities is each option name of opts with its arity, and with its
// choices after a "|" when it has some.
func modelArities(opts []*argmodel.Opt) map[string]string {
	got := map[string]string{}
	for _, o := range opts {
		a := o.Arg
		if a == "" {
			a = "none"
		}
		if a == "until" && o.UntilOption && !o.UntilOpen && len(o.Until) == 0 {
			a = "array"
		}
		if len(o.Choices) > 0 && !slices.Equal(o.Choices, []string{"true", "false"}) {
			a += "|" + strings.Join(o.Choices, ",")
		}
		for _, n := range o.Names {
			got[n] = a
		}
	}
	return got
}

// jestOptionStart is the first line of an option in jest's help (yargs):
// "  -c, --config", "      --testEnvironment, --env". Its type ends the
// description, maybe lines below: [boolean], [string], [number], [array]
// or [choices: "a", "b"].
var (
	jestOptionStart = regexp.MustCompile(`^ {2}(?:(-\w), | {4})(--\w+)(?:, (--\w+))?(?:\s|$)`)
	jestOptionType  = regexp.MustCompile(`\[(boolean|string|number|array|choices: [^\]]*)\]\s*$`)
	quotedChoice    = regexp.MustCompile(`"([^"]+)"`)
)

// jestHelpArities reads jest --help as the model spells arities: a long
// boolean takes a next word true or false (yargs), a letter none (the
// model's reading of a bundle); an array every word up to the next option.
func jestHelpArities(t *testing.T) map[string]string {
	help := programHelp(t, "jest", "--help")
	want := map[string]string{}
	var names []string
	var text strings.Builder
	flush := func() {
		if names == nil {
			return
		}
		m := jestOptionType.FindStringSubmatch(strings.TrimSpace(text.String()))
		if m == nil {
			t.Errorf("jest --help: no type for %v", names)
			names = nil
			return
		}
		for _, n := range names {
			switch {
			case m[1] == "boolean" && strings.HasPrefix(n, "--"):
				want[n] = "choice"
			case m[1] == "boolean":
				want[n] = "none"
			case m[1] == "array":
				want[n] = "array"
			case strings.HasPrefix(m[1], "choices:"):
				var cs []string
				for _, c := range quotedChoice.FindAllStringSubmatch(m[1], -1) {
					cs = append(cs, c[1])
				}
				want[n] = "required|" + strings.Join(cs, ",")
			default:
				want[n] = "required"
			}
		}
		names = nil
	}
	for _, line := range strings.Split(help, "\n") {
		if m := jestOptionStart.FindStringSubmatch(line); m != nil {
			flush()
			for _, n := range m[1:] {
				if n != "" {
					names = append(names, n)
				}
			}
			text.Reset()
			text.WriteString(line[len(m[0]):])
			continue
		}
		if names != nil && strings.TrimSpace(line) == "" {
			flush()
			continue
		}
		text.WriteString(" " + strings.TrimSpace(line))
	}
	flush()
	if len(want) < 50 {
		t.Fatalf("jest --help: only %d options read", len(want))
	}
	return want
}

func TestJestModelIsTheCLI(t *testing.T) {
	if _, err := exec.LookPath("jest"); err != nil {
		t.Skip("jest is not installed (.ci/run installs testdata/runtimes)")
	}
	p := loadTestRunner(t, "jest")
	want, got := jestHelpArities(t), modelArities(p.Options)
	for n, a := range want {
		if got[n] != a {
			t.Errorf("jest %s: the CLI's arity is %s, the model's %q", n, a, got[n])
		}
	}
	for n := range got {
		if _, ok := want[n]; !ok {
			t.Errorf("jest: the model has %s, the CLI does not", n)
		}
	}
}

// vitestOption is a line of vitest's help (cac): "-r, --root <path>",
// "--api [port]", "--inspect [[host:]port]", "--run".
var vitestOption = regexp.MustCompile(`^ {2}((?:-\w, )?--\S+)(?: (<[^>]*>|\[.*?\]+))?(?: {2,}|$)`)

// vitestHelpArities reads vitest's help for args as the model spells
// arities: cac gives a long boolean a next word true or false, [value]
// the next word unless it begins with "-", <value> the next word; in a
// bundle only the last letter takes a value, so the model reads a letter
// whose value is optional alone. It also returns the --no-NAME words the
// help's descriptions name (--no-file-parallelism).
func vitestHelpArities(t *testing.T, args ...string) (map[string]string, map[string]bool) {
	help := programHelp(t, "vitest", args...)
	want, named := map[string]string{}, map[string]bool{}
	for _, line := range strings.Split(help, "\n") {
		for _, n := range regexp.MustCompile(`--no-[a-z][a-z-]*[a-z]`).FindAllString(line, -1) {
			named[n] = true
		}
		m := vitestOption.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		for _, n := range strings.Split(m[1], ", ") {
			long := strings.HasPrefix(n, "--")
			switch v := m[2]; {
			case strings.HasPrefix(v, "<"):
				want[n] = "required"
			case strings.HasPrefix(v, "[") && long:
				want[n] = "maybe"
			case long && !strings.HasPrefix(n, "--no-"):
				want[n] = "choice"
			default:
				want[n] = "none"
			}
		}
	}
	if len(want) < 50 {
		t.Fatalf("vitest %s: only %d options read", strings.Join(args, " "), len(want))
	}
	return want, named
}

// vitestOutputFiles are the reporters that read --outputFile.NAME:
// vitest's json, junit and blob, and @vitest/ui's html.
var vitestOutputFiles = []string{"blob", "html", "json", "junit"}

// compareVitest holds the options of a vitest model to want: every option
// of the help with its arity, and besides them only --no-NAME (cac: NAME
// false) of an option that takes no value or an optional one, or one the
// help names, and --outputFile.NAME of a reporter that reads it.
func compareVitest(t *testing.T, what string, opts []*argmodel.Opt, want map[string]string, named map[string]bool) {
	t.Helper()
	got := modelArities(opts)
	for n, a := range want {
		if got[n] != a {
			t.Errorf("%s %s: the CLI's arity is %s, the model's %q", what, n, a, got[n])
		}
	}
	for n, a := range got {
		if _, ok := want[n]; ok {
			continue
		}
		if base, ok := strings.CutPrefix(n, "--no-"); ok && a == "none" {
			if w := want["--"+base]; w == "choice" || w == "maybe" || named[n] {
				continue
			}
		}
		if key, ok := strings.CutPrefix(n, "--outputFile."); ok && want["--outputFile"] != "" && slices.Contains(vitestOutputFiles, key) && a == "required" {
			continue
		}
		t.Errorf("%s: the model has %s, the CLI does not", what, n)
	}
}

func TestVitestModelIsTheCLI(t *testing.T) {
	if _, err := exec.LookPath("vitest"); err != nil {
		t.Skip("vitest is not installed (.ci/run installs testdata/runtimes)")
	}
	p := loadTestRunner(t, "vitest")
	global, named := vitestHelpArities(t, "--help", "--expand-help")
	compareVitest(t, "vitest", p.Persistent, global, named)
	if len(p.Options) > 0 {
		t.Errorf("vitest: every option is persistent (cac reads them before and after the command)")
	}

	// The commands: those the help lists, but the default one.
	help := programHelp(t, "vitest", "--help")
	commands, _, _ := strings.Cut(help, "For more info")
	_, commands, _ = strings.Cut(commands, "Commands:")
	var want []string
	for _, line := range strings.Split(commands, "\n") {
		if f := strings.Fields(line); len(f) > 0 && !strings.HasPrefix(f[0], "[") {
			want = append(want, f[0])
		}
	}
	var got []string
	for _, s := range p.Subcommands {
		got = append(got, s.Names...)
	}
	slices.Sort(want)
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("vitest's commands are %v, the model's %v", want, got)
	}

	// list's own options: what its help has beyond the global options,
	// and the ones it declares again.
	for _, s := range p.Subcommands {
		if s.Names[0] != "list" {
			if len(s.Options) > 0 {
				t.Errorf("vitest %s has no options of its own", s.Names[0])
			}
			continue
		}
		all, named := vitestHelpArities(t, "list", "--help", "--expand-help")
		own := map[string]string{}
		for n, a := range all {
			if _, ok := global[n]; !ok {
				own[n] = a
			}
		}
		for _, o := range s.Options {
			for _, n := range o.Names {
				if a, ok := global[n]; ok {
					own[n] = a // declared again: the same arity
				}
			}
		}
		compareVitest(t, "vitest list", s.Options, own, named)
	}
}
