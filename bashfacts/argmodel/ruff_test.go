package argmodel_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/regate/regate/bashfacts/argmodel"
)

// ruffCases: the model of ruff (models/ruff.json), in the notation of
// parseCases. No ruff binary could be installed where the model was
// written, so it was read from ruff's source at the release tag 0.16.4
// (github.com/astral-sh/ruff, commit
// 11c76bf48fdac06b2f240cba502eda96da4dce77):
//   - crates/ruff/src/args.rs: the clap derive of the command line (the
//     Command enum; CheckCommand, FormatCommand, ServerCommand,
//     AnalyzeGraphCommand; GlobalConfigArgs and LogLevelArgs, whose
//     -v, -q, -s, --config, --isolated and --color are global = true,
//     read before and after the subcommand; ConfigArgumentParser: a
//     --config value is a file when one exists, after shellexpand::full
//     expands its variables and ~, else inline TOML);
//   - crates/ruff/src/main.rs: argfile::expand_args_from replaces every
//     word @FILE by the lines of FILE before clap reads them;
//   - crates/ruff/src/lib.rs: check's fix mode (--diff never writes;
//     --show-files and --show-settings return before fixing; otherwise
//     the fix and fix-only settings, which a configuration file may turn
//     on, apply fixes; --add-noqa and --add-ignore edit); --output-file
//     is created;
//   - crates/ruff/src/commands/clean.rs: clean removes every .ruff_cache
//     folder below the current one;
//   - crates/ruff_workspace/src/settings.rs: the files a folder is read
//     for (INCLUDE, INCLUDE_PREVIEW);
//   - crates/ruff_linter/src/settings/types.rs (OutputFormat,
//     PythonVersion) and crates/ruff_graph/src/settings.rs (Direction):
//     the values of --output-format, --target-version and --direction.
//
// clap takes long options only exactly (no abbreviations), bundles short
// options (-ne), reads -o=FILE as -o FILE, and --add-noqa's reason only
// after "=" (require_equals).
var ruffCases = []parseCase{
	// check: its operands are edited unless the command makes sure ruff
	// does not fix (a configuration file's fix = true applies fixes to a
	// plain ruff check): --diff, --show-files, --show-settings, or both
	// --no-fix and --no-fix-only with no --fix.
	{[]string{"ruff", "check"}, "sub", ""},
	{[]string{"ruff", "check", "src"}, "sub edit", ""},
	{[]string{"ruff", "check", "--fix", "~/.config/x.py"}, "sub - edit", ""},
	{[]string{"ruff", "check", "--unsafe-fixes", "--fix-only", "src"}, "sub - - edit", ""},
	{[]string{"ruff", "check", "--diff", "src"}, "sub - tree", ""},
	{[]string{"ruff", "check", "--fix", "--diff", "src"}, "sub - - tree", ""},
	{[]string{"ruff", "check", "src", "--diff"}, "sub tree -", ""},
	{[]string{"ruff", "check", "--show-files", "src"}, "sub - tree", ""},
	{[]string{"ruff", "check", "--show-settings", "x.py"}, "sub - tree", ""},
	{[]string{"ruff", "check", "--no-fix", "--no-fix-only", "src"}, "sub - - tree", ""},
	{[]string{"ruff", "check", "--no-fix", "src"}, "sub - edit", ""},
	{[]string{"ruff", "check", "--no-fix", "--no-fix-only", "--fix", "src"}, "sub - - - edit", ""},
	{[]string{"ruff", "check", "--add-noqa", "src"}, "sub - edit", ""},
	{[]string{"ruff", "check", "--add-noqa=TODO", "src"}, "sub value edit", ""},
	{[]string{"ruff", "check", "--add-noqa", "TODO", "src"}, "sub - edit edit", ""}, // the reason only after =
	{[]string{"ruff", "check", "--add-ignore", "--no-fix", "--no-fix-only", "src"}, "sub - - - edit", ""},
	{[]string{"ruff", "check", "--diff", "--", "-x.py"}, "sub - - tree", ""},
	{[]string{"ruff", "check", "--diff", "@*.py"}, "sub - tree", ""},
	{[]string{"ruff", "check", "--diff", "--stdin-filename", "x.py", "-"}, "sub - - value tree", ""},
	// Options with values: --opt value, --opt=value, -o VALUE, -oVALUE,
	// -o=VALUE, and in a bundle.
	{[]string{"ruff", "check", "--output-file", "~/.bashrc", "."}, "sub - write edit", ""},
	{[]string{"ruff", "check", "--output-file=~/.bashrc", "."}, "sub write edit", ""},
	{[]string{"ruff", "check", "-o", "out.txt", "--diff"}, "sub - write -", ""},
	{[]string{"ruff", "check", "-oout.txt", "--diff"}, "sub write -", ""},
	{[]string{"ruff", "check", "-o=out.txt", "--diff"}, "sub write -", ""},
	{[]string{"ruff", "check", "-neo", "out.txt", "src"}, "sub - write edit", ""},
	{[]string{"ruff", "check", "-wn", "--diff"}, "sub - -", ""},
	{[]string{"ruff", "check", "--select", "E,F", "--ignore=E501", "--diff", "."}, "sub - value value - tree", ""},
	{[]string{"ruff", "check", "--extend-select", "UP", "--fixable=ALL", "--unfixable", "F401", "--diff"}, "sub - value value - value -", ""},
	{[]string{"ruff", "check", "--per-file-ignores", "__init__.py:F401", "--diff"}, "sub - pattern -", ""},
	{[]string{"ruff", "check", "--exclude", "build", "--extend-exclude=dist", "--diff"}, "sub - pattern pattern -", ""},
	{[]string{"ruff", "check", "--cache-dir", "/tmp/c", "--diff"}, "sub - write -", ""},
	{[]string{"ruff", "check", "--extension", "ipy:ipynb", "--diff", "nb"}, "sub - value - tree", ""},
	{[]string{"ruff", "check", "--output-format", "json", "--target-version=py312", "--diff"}, "sub - value value -", ""},
	{[]string{"ruff", "check", "--line-length", "100", "--dummy-variable-rgx", "^_$", "--diff"}, "sub - value - pattern -", ""},
	{[]string{"ruff", "check", "--statistics", "-e", "--exit-non-zero-on-fix", "--diff"}, "sub - - - -", ""},
	{[]string{"ruff", "check", "--preview", "--no-preview", "--respect-gitignore", "--no-respect-gitignore", "--diff"}, "sub - - - - -", ""},
	{[]string{"ruff", "check", "--force-exclude", "--no-force-exclude", "--ignore-noqa", "--show-fixes", "--no-show-fixes", "--no-unsafe-fixes", "--diff"}, "sub - - - - - - -", ""},
	{[]string{"ruff", "check", "--output-format", "xml"}, "", "ruff check: xml is not a value of --output-format"},
	{[]string{"ruff", "check", "--exclude", "@*.py"}, "", "ruff check: bash expands the glob *.py"},
	// Not understood: unknown options, abbreviations (clap takes none),
	// a value given to a flag, a missing value, an expansion.
	{[]string{"ruff", "check", "--frob", "."}, "", "ruff check: the option --frob is not in regate's model of ruff check"},
	{[]string{"ruff", "check", "--fi", "x.py"}, "", "ruff check: the option --fi is not"},
	{[]string{"ruff", "check", "--output", "x"}, "", "ruff check: the option --output is not"},
	{[]string{"ruff", "check", "--out=x"}, "", "ruff check: the option --out is not"},
	{[]string{"ruff", "check", "--fix=true"}, "", "ruff check: the option --fix takes no value"},
	{[]string{"ruff", "check", "-x"}, "", "ruff check: the option -x (in -x) is not"},
	{[]string{"ruff", "check", "-nx"}, "", "ruff check: the option -x (in -nx) is not"},
	{[]string{"ruff", "check", "-o"}, "", "ruff check: the option -o needs a value"},
	{[]string{"ruff", "check", "--show-source"}, "", "ruff check: the option --show-source is not"}, // removed in 0.5
	{[]string{"ruff", "check", "$X"}, "", "ruff check: $X is an expansion"},
	{[]string{"ruff", "check", "--check"}, "", "ruff check: the option --check is not"},

	// Global options, before and after the subcommand.
	{[]string{"ruff", "-q", "check", "--diff", "."}, "- sub - tree", ""},
	{[]string{"ruff", "check", "--diff", ".", "-q"}, "sub - tree -", ""},
	{[]string{"ruff", "check", "-qn", "--diff"}, "sub - -", ""},
	{[]string{"ruff", "--verbose", "--isolated", "--color", "never", "check", "--diff"}, "- - - value sub -", ""},
	{[]string{"ruff", "check", "--color=always", "-s", "--diff"}, "sub value - -", ""},
	{[]string{"ruff", "--config", "ruff.toml", "format", "--check"}, "- read sub -", ""},
	{[]string{"ruff", "format", "--config=ruff.toml", "src"}, "sub read edit", ""},
	{[]string{"ruff", "check", "--config", "~/.config/ruff/ruff.toml", "--diff"}, "sub - read -", ""},
	{[]string{"ruff", "--colour", "never", "check"}, "", "ruff: the option --colour is not"},
	{[]string{"ruff", "--verb", "check"}, "", "ruff: the option --verb is not"},
	// --config takes inline TOML (KEY = VALUE), which can move the cache or
	// widen what is read, and expands variables in a path: both floor.
	{[]string{"ruff", "check", "--config", "lint.line-length = 100", "."}, "sub - read edit", "ruff check --config takes inline TOML settings"},
	{[]string{"ruff", "--config", "cache-dir = '/home/u/.x'", "check"}, "", "ruff --config takes inline TOML settings"},
	{[]string{"ruff", "format", "--config=$HOME/ruff.toml"}, "", "ruff format --config takes inline TOML settings"},
	// (A word @FILE, which ruff replaces by the lines of FILE, is in
	// TestRuffArgumentFiles: in this notation "@" marks a glob.)

	// format: its operands are edited unless --check or --diff.
	{[]string{"ruff", "format"}, "sub", ""},
	{[]string{"ruff", "format", "~/.bashrc"}, "sub edit", ""},
	{[]string{"ruff", "format", "--check", "."}, "sub - tree", ""},
	{[]string{"ruff", "format", "--diff", "src", "--line-length=100"}, "sub - tree value", ""},
	{[]string{"ruff", "format", "--range", "1:1-2:1", "x.py"}, "sub - value edit", ""},
	{[]string{"ruff", "format", "--exit-non-zero-on-fix", "--exit-non-zero-on-format", "x.py"}, "sub - - edit", ""},
	{[]string{"ruff", "format", "-n", "--cache-dir=.cache", "src"}, "sub - write edit", ""},
	{[]string{"ruff", "format", "--stdin-filename", "x.py", "--target-version", "py39", "--preview", "-"}, "sub - value - value - edit", ""},
	{[]string{"ruff", "format", "--check", "--extension=ipy:ipynb", "--exclude", "build", "--force-exclude", "--output-format", "github"}, "sub - value - pattern - - value", ""},
	{[]string{"ruff", "format", "--fix", "x.py"}, "", "ruff format: the option --fix is not"},
	{[]string{"ruff", "format", "-o", "x"}, "", "ruff format: the option -o (in -o) is not"},
	{[]string{"ruff", "format", "--che", "."}, "", "ruff format: the option --che is not"},

	// The other subcommands.
	{[]string{"ruff", "rule", "F401"}, "sub value", ""},
	{[]string{"ruff", "rule", "--all", "--output-format", "json"}, "sub - - value", ""},
	{[]string{"ruff", "rule", "F401", "E501"}, "", "ruff rule: the operand E501 is more than ruff rule takes"},
	{[]string{"ruff", "rule", "--output-format=yaml", "F401"}, "", "ruff rule: yaml is not a value of --output-format"},
	{[]string{"ruff", "config", "lint.select"}, "sub value", ""},
	{[]string{"ruff", "config", "--output-format", "json"}, "sub - value", ""},
	{[]string{"ruff", "linter", "--output-format=text"}, "sub value", ""},
	{[]string{"ruff", "linter", "x"}, "", "ruff linter: the operand x is more than ruff linter takes"},
	{[]string{"ruff", "clean"}, "sub", ""},
	{[]string{"ruff", "-q", "clean"}, "- sub", ""},
	{[]string{"ruff", "clean", "~/.bashrc"}, "", "ruff clean ~/.bashrc is no operand of ruff clean"},
	{[]string{"ruff", "clean", "--all"}, "", "ruff clean: the option --all is not"},
	{[]string{"ruff", "server"}, "sub", "ruff server runs the language server"},
	{[]string{"ruff", "server", "--preview"}, "sub -", "ruff server runs the language server"},
	{[]string{"ruff", "analyze", "graph"}, "sub sub", ""},
	{[]string{"ruff", "analyze", "graph", "src"}, "sub sub tree", ""},
	{[]string{"ruff", "analyze", "graph", "--direction", "dependents", "--python", ".venv", "src"}, "sub sub - value - list tree", ""},
	{[]string{"ruff", "analyze", "-v", "graph", "--detect-string-imports", "--min-dots=2", "--type-checking-imports", "--no-type-checking-imports"}, "sub - sub - value - -", ""},
	{[]string{"ruff", "analyze", "graph", "--target-version", "py311", "--preview", "--no-preview", "--config", "ruff.toml"}, "sub sub - value - - - read", ""},
	{[]string{"ruff", "analyze", "graph", "--direction=up"}, "", "ruff analyze graph: up is not a value of --direction"},
	{[]string{"ruff", "analyze", "graph", "--fix"}, "", "ruff analyze graph: the option --fix is not"},
	{[]string{"ruff", "analyze", "frob"}, "", "ruff analyze: the subcommand frob is not"},
	{[]string{"ruff", "analyze", "help", "graph"}, "sub sub value", ""},
	{[]string{"ruff", "version"}, "sub", ""},
	{[]string{"ruff", "version", "--output-format", "json"}, "sub - value", ""},
	{[]string{"ruff", "--version"}, "-", ""},
	{[]string{"ruff", "-V"}, "-", ""},
	{[]string{"ruff", "check", "-V"}, "", "ruff check: the option -V (in -V) is not"},
	{[]string{"ruff", "generate-shell-completion", "bash"}, "sub value", ""},
	{[]string{"ruff", "help", "check"}, "sub value", ""},
	{[]string{"ruff", "-h"}, "-", ""},
	{[]string{"ruff", "check", "--help"}, "sub -", ""},
	// A subcommand is named exactly; there is no default one (ruff PATH
	// was ruff check PATH before 0.5).
	{[]string{"ruff", "src"}, "", "ruff: the subcommand src is not"},
	{[]string{"ruff", "chec", "src"}, "", "ruff: the subcommand chec is not"},
	{[]string{"ruff", "lint", "src"}, "", "ruff: the subcommand lint is not"},
}

func TestRuff(t *testing.T) {
	runParseCases(t, ruffCases)
}

// TestRuffArgumentFiles: ruff replaces a word @FILE by the lines of FILE
// (argfile, in main.rs) before clap reads it, wherever it stands: an
// operand or an option's value floors, a subcommand is not understood.
func TestRuffArgumentFiles(t *testing.T) {
	for _, c := range []struct {
		words []string
		want  string
	}{
		{[]string{"check", "@args.txt"}, "ruff check @args.txt may name a file of more arguments"},
		{[]string{"check", "--diff", "--", "@args.txt"}, "ruff check @args.txt may name a file of more arguments"},
		{[]string{"format", "@args.txt"}, "ruff format @args.txt may name a file of more arguments"},
		{[]string{"check", "--select", "@sel.txt"}, "ruff check --select may name a file of more arguments"},
		{[]string{"check", "-o", "@out.txt"}, "ruff check -o may name a file of more arguments"},
		{[]string{"--config", "@cfg", "check"}, "ruff --config takes inline TOML settings"},
		{[]string{"rule", "@r"}, "ruff rule @r may name a file of more arguments"},
		{[]string{"analyze", "graph", "@g"}, "ruff analyze graph @g may name a file of more arguments"},
		{[]string{"@args.txt"}, "ruff: the subcommand @args.txt is not"},
	} {
		args := make([]argmodel.Arg, len(c.words))
		for i, w := range c.words {
			args[i] = argmodel.Arg{Text: w}
		}
		if got := argmodel.Parse("ruff", args).Problem; !strings.HasPrefix(got, c.want) {
			t.Errorf("ruff %v: problem %q; want %q…", c.words, got, c.want)
		}
	}
}

// TestRuffResults: what a ruff call reads besides its words: the folder
// it checks by default, the files a folder is read for (all of them
// under --extension, which maps other extensions to Python), the caches
// ruff clean removes, and the global options a policy rule may see
// through (-q, -v, -s are inert; --config takes a value).
func TestRuffResults(t *testing.T) {
	parse := func(words ...string) argmodel.Result {
		args := make([]argmodel.Arg, len(words))
		for i, w := range words {
			args[i] = argmodel.Arg{Text: w}
		}
		return argmodel.Parse("ruff", args)
	}
	defaults := func(r argmodel.Result) string {
		var out []string
		for _, d := range r.Defaults {
			out = append(out, d.Role+" "+d.Value)
		}
		return strings.Join(out, ", ")
	}
	for _, c := range []struct {
		words    []string
		defaults string
		include  bool
	}{
		{[]string{"check"}, "edit .", false},
		{[]string{"check", "--diff"}, "tree .", true},
		{[]string{"check", "--diff", "src"}, "", true},
		{[]string{"check", "--diff", "--extension", "ipy:ipynb"}, "tree .", false},
		{[]string{"format"}, "edit .", false},
		{[]string{"format", "--check"}, "tree .", true},
		{[]string{"analyze", "graph"}, "tree .", true},
		{[]string{"clean"}, "write .ruff_cache", false},
	} {
		r := parse(c.words...)
		if r.Problem != "" {
			t.Errorf("ruff %v: %s", c.words, r.Problem)
			continue
		}
		if got := defaults(r); got != c.defaults {
			t.Errorf("ruff %v: defaults %q, want %q", c.words, got, c.defaults)
		}
		if got := slices.Contains(r.Include, "*.py") && slices.Contains(r.Include, "*.ipynb"); got != c.include {
			t.Errorf("ruff %v: include %v, want the Python files: %v", c.words, r.Include, c.include)
		}
	}
	if r := parse("check", "-o=out.txt", "--output-file=x", "-oy"); r.Words[0].Value != "check" || r.Words[1].Value != "out.txt" || r.Words[2].Value != "x" || r.Words[3].Value != "y" {
		t.Errorf("ruff check -o=out.txt --output-file=x -oy: %+v", r.Words)
	}
	for _, c := range []struct {
		name         string
		value, inert bool
	}{
		{"-q", false, true}, {"--quiet", false, true}, {"-v", false, true}, {"-s", false, true},
		{"--config", true, false}, {"--color", true, false}, {"--isolated", false, false},
	} {
		value, inert, known := argmodel.Global("ruff", c.name)
		if !known || value != c.value || inert != c.inert {
			t.Errorf("Global(ruff, %s) = %v, %v, %v; want %v, %v, true", c.name, value, inert, known, c.value, c.inert)
		}
	}
	if !argmodel.Has("ruff") {
		t.Error("ruff has no model")
	}
}
