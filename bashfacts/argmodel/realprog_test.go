package argmodel_test

import (
	"cmp"
	"context"
	"errors"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/regate/regate/bashfacts/argmodel"
)

// realCases tie a model's reading to what the real program does: each
// command runs in a scratch folder holding F ("a\nx line\n"), G ("a\n"),
// D/, D/sub.txt (last modified in January 2001) and the empty folder E/,
// and the row's claim about the run must hold; then the model
// must read the words as the row says ("" for a command it does not
// understand, which the program rejects too or which regate asks for).
var realCases = []realCase{
	{[]string{"grep", "--regex=x", "F"}, "--regex is --regexp: F is read", printed("x line"), "pattern read"},
	{[]string{"grep", "--exp=x", "F"}, "--exp is no option of grep", rejects, ""},
	{[]string{"grep", "--ex=x", "F"}, "--ex is ambiguous", rejects, ""},
	{[]string{"grep", "", "F"}, "the empty word is the pattern: F is read", printed("x line"), "pattern read"},
	{[]string{"grep", "-d", "rec", "sub", "D"}, "-d rec is -d recurse: D is read recursively", printed("D/sub.txt"), "- value pattern tree"},
	{[]string{"grep", "x", "F", "-c"}, "options after operands (GNU permutation)", printed("1"), "pattern read -"},
	{[]string{"grep", "-hA1", "a", "F"}, "-A takes the rest of the bundle", printed("x line"), "value pattern read"},
	{[]string{"grep", "-e", "x", "--", "-f"}, "-- ends options: -f is a file", rejects, "- pattern - read"},
	{[]string{"sed", "-ie.", "s/a/b/", "F"}, "-i takes e. as its suffix: F is edited, Fe. is its backup", wrote("Fe."), "value code edit"},
	{[]string{"sed", "-ie.", "F"}, "F is the script (sed's F command): no input file", rejects, "value code"},
	{[]string{"sed", "-n", "--exp=p", "F"}, "--exp is --expression: F is read", printed("x line"), "- code read"},
	{[]string{"sed", "--in-place=.bak", "s/a/b/", "G"}, "--in-place takes its suffix after =", wrote("G.bak"), "value code edit"},
	{[]string{"head", "-1", "F"}, "-1 first is -n 1", printed("a"), "value read"},
	{[]string{"head", "F", "-1"}, "-NUM is read only first", rejects, ""},
	{[]string{"tail", "+2", "F"}, "+2 first is -n +2", printed("x line"), "value read"},
	{[]string{"awk", "{print}", "-v", "F"}, "options end at the program: -v is a file", rejects, "code read read"},
	{[]string{"awk", "{print}", "x=1", "F"}, "NAME=value is an assignment, not a file", printed("x line"), "code value read"},
	{[]string{"tee", "-a", "G"}, "tee -a appends to G", wrote("G"), "- edit"},
	{[]string{"cp", "-t", "D", "F"}, "-t names the folder written", wrote("D/F"), "- write read"},
	{[]string{"cp", "F", "H"}, "the last operand is written", wrote("H"), "read write"},
	{[]string{"cp", "-s", "F", "L"}, "-s makes L a link to F: what is written to L lands in F, so F is a write", func(dir, _ string, _ bool) bool {
		target, err := os.Readlink(filepath.Join(dir, "L"))
		return err == nil && target == "F"
	}, "- write write"},
	{[]string{"cp", "--link", "F", "L"}, "--link makes L another name of F", func(dir, _ string, _ bool) bool {
		a, errA := os.Stat(filepath.Join(dir, "F"))
		b, errB := os.Stat(filepath.Join(dir, "L"))
		return errA == nil && errB == nil && os.SameFile(a, b)
	}, "- write write"},
	{[]string{"uniq", "F", "O", "-c"}, "uniq's second operand is written (options may follow)", wrote("O"), "read write -"},
	{[]string{"sort", "-o", "O", "F"}, "-o names the file written", wrote("O"), "- write read"},
	{[]string{"sort", "--out=O", "F"}, "--out is --output", wrote("O"), "write read"},
	{[]string{"ls", "--hide=F", "-I", "G"}, "--hide and -I take patterns, not files", func(_, out string, _ bool) bool { return !strings.Contains(out, "F") && strings.Contains(out, "D") }, "pattern - pattern"},
	{[]string{"printf", "%s\n", "-x"}, "printf's options end at the format", printed("-x"), "string string"},
	{[]string{"cut", "-d", " ", "-f1", "F"}, "-d takes the next word", printed("x"), "- value value read"},
	{[]string{"diff", "-ru", "D", "D"}, "-r compares folders", func(_, _ string, failed bool) bool { return !failed }, "- tree tree"},
	{[]string{"wc", "--li", "F"}, "--li is --lines", printed("2 F"), "- read"},
	// rm, rmdir, unlink, shred: what they delete (or overwrite) is written.
	{[]string{"rm", "F"}, "F is deleted", removed("F"), "write"},
	{[]string{"rm", "-rf", "D"}, "-rf deletes the folder D", removed("D"), "- tree-write"},
	{[]string{"rm", "--recur", "D"}, "--recur is --recursive", removed("D"), "- tree-write"},
	{[]string{"rm", "--interactive=never", "F"}, "--interactive takes its value after =", removed("F"), "value write"},
	{[]string{"rm", "--", "-f"}, "-- ends options: -f is a file (there is none)", both(rejects, printed("'-f'")), "- write"},
	{[]string{"rm", "--frob", "F"}, "--frob is no option of rm", both(rejects, wrote("F")), ""},
	{[]string{"rmdir", "E"}, "the empty folder E is deleted", removed("E"), "write"},
	{[]string{"rmdir", "-pv", "E"}, "-p and -v bundled", both(removed("E"), printed("removing directory, 'E'")), "- write"},
	{[]string{"rmdir", "--pa", "E"}, "--pa is --parents (or --path, the same option)", removed("E"), "- write"},
	{[]string{"rmdir", "--", "-p"}, "-- ends options: -p is a folder (there is none)", both(rejects, printed("'-p'")), "- write"},
	{[]string{"rmdir", "D"}, "D is not empty: rmdir fails", both(rejects, wrote("D/sub.txt")), "write"},
	{[]string{"rmdir", "--frob", "E"}, "--frob is no option of rmdir", both(rejects, wrote("E")), ""},
	{[]string{"unlink", "F"}, "F is deleted", removed("F"), "write"},
	{[]string{"unlink", "--he"}, "--he is --help", printed("display this help"), "-"},
	{[]string{"unlink", "--", "-f"}, "-- ends options: -f is a file (there is none)", both(rejects, printed("'-f'")), "- write"},
	{[]string{"unlink", "F", "G"}, "unlink takes one operand", both(rejects, wrote("F")), ""},
	{[]string{"unlink", "-f", "F"}, "-f is no option of unlink", both(rejects, wrote("F")), ""},
	{[]string{"shred", "G"}, "G is overwritten (to a full block)", sized("G", 4096), "write"},
	{[]string{"shred", "-zun1", "F"}, "-n takes the rest of the bundle; -u deletes F", removed("F"), "value write"},
	{[]string{"shred", "--rem=unlink", "F"}, "--rem is --remove, its value after =", removed("F"), "value write"},
	{[]string{"shred", "-n", "1", "--random-source=/dev/zero", "G"}, "--random-source takes its value after =; G is overwritten", holding("G", strings.Repeat("\x00", 4096)), "- value read write"},
	{[]string{"shred", "--", "-u"}, "-- ends options: -u is a file (there is none)", both(rejects, printed("-u")), "- write"},
	{[]string{"shred", "--remove=w", "F"}, "w is ambiguous (wipe, wipesync)", both(rejects, wrote("F")), ""},
	// python and node: inline code wherever the options before it put it
	// (floored, so read as not understood); the script and its arguments.
	{[]string{"python3", "--check-hash-based-pycs", "always", "-c", "print('inline')"}, "--check-hash-based-pycs takes a value: -c runs code", printed("inline"), ""},
	{[]string{"python3", "-Bc", "print('bundled')"}, "-c ends a bundle and takes the next word", printed("bundled"), ""},
	{[]string{"python3", "-c", "import sys; print(sys.argv)", "-x", "--foo"}, "-c ends options: -x and --foo are arguments", printed("['-c', '-x', '--foo']"), ""},
	{[]string{"python3", "-m", "platform", "--terse"}, "-m ends options: --terse is the module's", func(_, out string, failed bool) bool { return !failed && out != "" }, "- value args"},
	{[]string{"python3", "-I", "F", "G"}, "F is the script (not Python: it fails), G its argument", both(rejects, printed("SyntaxError")), "- read args"},
	{[]string{"python3", "--vers"}, "python takes no abbreviations", rejects, ""},
	{[]string{"node", "--title", "x", "-e", "console.log('inline')"}, "--title takes a value: -e runs code", printed("inline"), ""},
	{[]string{"node", "--input-type", "commonjs", "-p", "6*7"}, "--input-type takes a value: -p prints the code's value", printed("42"), ""},
	{[]string{"node", "-pe", "6*7"}, "-pe is --print --eval", printed("42"), ""},
	{[]string{"node", "--max-old-space-size=64", "F", "G"}, "a V8 option with its value after =; F is the script (not JavaScript: it fails)", both(rejects, printed("SyntaxError")), "value read args"},
	{[]string{"node", "--max-old-space-size", "64", "-e", "1"}, "a V8 option takes its value only after =: node refuses", rejects, "- read args args"},
	{[]string{"node", "--", "-e"}, "-- ends options: -e is a script file (there is none)", rejects, "- read"},

	// perl: values attached to their letter (-l, -0 take octal digits and
	// the bundle goes on; -i, -C, -M take the rest of it).
	{[]string{"perl", "-lne", "print", "F"}, "-l takes no digits here: -n and -e follow, -e's value the next word", printed("x line"), ""},
	{[]string{"perl", "-l", "-ne", "print", "F"}, "-l alone takes no next word", printed("x line"), ""},
	{[]string{"perl", "-0777", "-ne", "print length", "F"}, "-0 takes its octal digits: the whole file is one record", printed("9"), ""},
	{[]string{"perl", "-CSD", "-le", "print 42"}, "-C takes the rest of its bundle", printed("42"), ""},
	{[]string{"perl", "-pi.bak", "-e", "s/a/b/", "G"}, "-i takes .bak: G is edited, G.bak its backup", wrote("G.bak"), ""},
	{[]string{"perl", "-pie", "s/a/b/", "G"}, "-i takes e as its extension: s/a/b/ is the script (there is none)", rejects, "value read edit"},
	{[]string{"perl", "-M", "strict", "-e", "1"}, "-M takes its module attached: perl refuses", rejects, "- read args args"},
	{[]string{"perl", "-x", "F"}, "-x looks for a #!perl line in F (there is none)", rejects, "- read"},

	// php: a script, inline code (-r, -B, -R, -E: floored), or, with
	// none, the program on standard input; php takes no abbreviations and
	// strips an "=" after a short option's letter.
	{[]string{"php", "-r", "echo 'inline';"}, "-r runs its value", printed("inline"), ""},
	{[]string{"php", "-r=echo 'eq';"}, "-r=CODE is -r CODE", printed("eq"), ""},
	{[]string{"php", "-n", "-d", "display_errors=1", "-r", "echo 'x';"}, "-d takes the next word: -r runs code", printed("x"), ""},
	{[]string{"php", "--run", "echo 'long';"}, "--run is -r", printed("long"), ""},
	{[]string{"php", "--ru", "echo 1;"}, "php takes no abbreviations", rejects, ""},
	{[]string{"php", "-dmemory_limit=-1", "F", "G"}, "-d takes the rest of its word; F is the script (text outside <?php is printed), G its argument", printed("x line"), "value read args"},
	{[]string{"php", "-f", "F", "G"}, "-f names the script", printed("x line"), "- read args"},
	{[]string{"php", "-l", "F"}, "-l checks F's syntax", printed("No syntax errors"), "- read"},
	{[]string{"php", "--", "F"}, "after --, F is an argument: the program is standard input (empty here)", func(_, out string, failed bool) bool { return !failed && !strings.Contains(out, "x line") }, ""},
	{[]string{"php", "-d", "auto_prepend_file=G", "F"}, "auto_prepend_file runs G before F (floored)", printed("a\na\nx line"), ""},
	// lua: -e's code attached or in the next word, a script, its arguments.
	{[]string{"lua", "-e", "print('inline')"}, "-e runs its value", printed("inline"), ""},
	{[]string{"lua", "-eprint(42)"}, "-e's value may be attached", printed("42"), ""},
	{[]string{"lua", "-l", "string", "-e", "print(1)"}, "-l takes the next word: -e runs code", printed("1"), ""},
	{[]string{"lua", "-W", "F", "G"}, "F is the script (not Lua: it fails), G its argument", rejects, "- read args"},
	{[]string{"lua", "--", "F"}, "-- ends options: F is the script", rejects, "- read"},

	// bun and deno (pinned in testdata/runtimes, installed by .ci/run):
	// inline code after the options that take values, a script run by
	// the default subcommand (bun F, deno F), and deno's clap options:
	// --lock takes the next word when it does not begin with "-".
	{[]string{"bun", "--cwd", ".", "-e", "console.log('inline')"}, "--cwd takes a value: -e runs code", printed("inline"), ""},
	{[]string{"bun", "-pe", "6*7"}, "-pe is --print --eval", printed("42"), ""},
	{[]string{"bun", "--eval=console.log(3)"}, "--eval's value after =", printed("3"), ""},
	{[]string{"bun", "F", "G"}, "F is the script bun runs (not JavaScript: it fails), G its argument", both(rejects, printed("x line")), "read args"},
	{[]string{"bun", "run", "--smol", "F"}, "bun run F runs the script F", both(rejects, printed("x line")), "subcommand - read"},
	{[]string{"deno", "eval", "console.log('inline')"}, "deno eval runs its operand", printed("inline"), ""},
	{[]string{"deno", "-q", "eval", "-p", "6*7"}, "-p prints the code's value", printed("42"), ""},
	{[]string{"deno", "task", "--eval", "echo task"}, "deno task --eval runs its operand as a command line", printed("task"), "subcommand - command-line"},
	{[]string{"deno", "run", "-A", "F", "G"}, "F is the script (not JavaScript: it fails), G its argument", both(rejects, printed("SyntaxError")), "subcommand - read args"},
	{[]string{"deno", "run", "--lock", "F"}, "--lock takes F: there is no script", both(rejects, printed("SCRIPT_ARG")), "subcommand - edit"},
	{[]string{"deno", "F"}, "deno F is deno run F", both(rejects, printed("SyntaxError")), "read"},

	// cargo: --config changes what cargo runs (here an alias; a runner or
	// a linker alike), its commands' short names, a manifest read.
	{[]string{"cargo", "--config", "alias.hi=\"version\"", "hi"}, "--config defines the command hi", printed("cargo "), ""},
	{[]string{"cargo", "-q", "version"}, "-q before the command", printed("cargo "), "- subcommand"},
	{[]string{"cargo", "b", "--manifest-path", "F"}, "b is build; F is read as the manifest (not TOML: it fails)", rejects, "subcommand - read"},
	{[]string{"cargo", "version", "--frob"}, "--frob is no option of cargo version", rejects, ""},

	// gofmt and black: folders are read for the files they format (*.go,
	// *.py) unless -w or no --check: then their operands are edited.
	{[]string{"gofmt", "-l", "D"}, "gofmt lists the Go files below D (there are none)", succeeds, "- tree"},
	{[]string{"gofmt", "-w", "F"}, "-w rewrites F (not Go: it fails)", rejects, "- edit"},
	{[]string{"gofmt", "-w=true", "F"}, "Go's flags take -w=true, which the model does not read", rejects, ""},
	{[]string{"black", "--check", "D"}, "black --check reads the Python files below D (there are none)", succeeds, "- tree"},
	{[]string{"black", "-q", "F"}, "black formats F in place (not Python: it fails)", rejects, "- edit"},
	{[]string{"black", "-l88", "--check", "F"}, "-l takes its value attached", rejects, "value - tree"},

	// prettier: files and folders printed formatted (read), or edited in
	// place with -w; an option it does not know takes the next word.
	{[]string{"prettier", "F"}, "no parser is inferred for F", rejects, "tree"},
	{[]string{"prettier", "--parser", "markdown", "F"}, "--parser takes a value: F is printed", printed("x line"), "- value tree"},
	{[]string{"prettier", "-w", "--parser=markdown", "G"}, "-w edits G in place", succeeds, "- value edit"},
	{[]string{"prettier", "--check", "D"}, "D is checked for the files prettier formats (sub.txt is not one)", succeeds, "- tree"},
	{[]string{"prettier", "--frob", "F", "--parser", "markdown"}, "--frob is unknown and takes F: nothing is printed", func(_, out string, _ bool) bool { return !strings.Contains(out, "x line") }, ""},

	// eslint: files and folders linted (read), fixed in place with --fix;
	// -o names the report written.
	{[]string{"eslint", "--no-config-lookup", "-o", "R", "F"}, "-o writes the report to R", wrote("R"), "- - write tree"},
	{[]string{"eslint", "--no-config-lookup", "--fix", "G"}, "--fix edits G (no rule: nothing to fix)", succeeds, "- - edit"},
	{[]string{"eslint", "--frob", "F"}, "--frob is no option of eslint", rejects, ""},

	// mypy: argparse's options, abbreviations included; folders read for
	// their Python files.
	{[]string{"mypy", "-c", "x = 1"}, "-c checks the code given", printed("Success"), "- value"},
	{[]string{"mypy", "--strict-opt", "D"}, "--strict-opt is --strict-optional; D holds no Python file", both(rejects, printed("no .py")), "- tree"},
	{[]string{"mypy", "--str", "D"}, "--str is ambiguous", rejects, ""},
	{[]string{"mypy", "--python-executable", "F", "-c", "x = 1"}, "--python-executable runs F (not a program: it fails)", rejects, ""},

	// tsc: a boolean option takes the next word only when it is true or
	// false; files compiled write their output beside them (an edit).
	{[]string{"tsc", "--strict", "false", "--noEmit", "F"}, "false is --strict's value: F is the root file (not TypeScript)", both(rejects, printed("resolve the path 'F'")), "- value - read"},
	{[]string{"tsc", "--strict", "F"}, "F is a root file, not --strict's value", both(rejects, printed("resolve the path 'F'")), "- edit"},
	{[]string{"tsc", "--outDir", "O", "--version"}, "--outDir takes a value", printed("Version"), "- write -"},
	{[]string{"tsc", "--frob"}, "--frob is no option of tsc", rejects, ""},

	// golangci-lint (cobra's flags): -v is a flag of every command.
	{[]string{"golangci-lint", "-v", "version"}, "-v before the command", printed("golangci-lint has version"), "- subcommand"},
	{[]string{"golangci-lint", "run", "--frob"}, "--frob is no flag of golangci-lint run", rejects, ""},
	{[]string{"golangci-lint", "run", "--output.json.path", "R", "D"}, "the path takes the next word; D holds no Go file", rejects, "subcommand - write read"},
	{[]string{"golangci-lint", "fmt", "--diff", "F"}, "--diff prints the changes F would take", succeeds, "subcommand - read"},

	// mkdir creates its operands.
	{[]string{"mkdir", "H"}, "H is created", wrote("H"), "write"},
	{[]string{"mkdir", "-pvm700", "H/I"}, "-m takes the rest of the bundle", both(wrote("H/I"), modeIs("H/I", 0o777, 0o700)), "value write"},
	{[]string{"mkdir", "--mo=700", "H"}, "--mo is --mode", modeIs("H", 0o777, 0o700), "value write"},
	{[]string{"mkdir", "--", "-p"}, "-- ends options: the folder -p is created", wrote("-p"), "- write"},
	{[]string{"mkdir", "-Zx", "H"}, "-Z takes no value: -x is no option of mkdir", both(rejects, removed("H")), ""},
	// touch changes times and creates what is absent; -r only reads a
	// file's times.
	{[]string{"touch", "H"}, "H is created", wrote("H"), "edit"},
	{[]string{"touch", "-d", "2001-02-03", "G"}, "-d sets G's time", modified("G", 2001, time.February), "- value edit"},
	{[]string{"touch", "--ref=D/sub.txt", "G"}, "--ref is --reference: G takes D/sub.txt's time", modified("G", 2001, time.January), "list edit"},
	{[]string{"touch", "-cr", "D/sub.txt", "H"}, "-r takes the next word; -c creates nothing", removed("H"), "- list edit"},
	{[]string{"touch", "--", "-c"}, "-- ends options: the file -c is created", wrote("-c"), "- edit"},
	{[]string{"touch", "--time=frob", "G"}, "frob is no value of --time", rejects, ""},
	// truncate overwrites.
	{[]string{"truncate", "-s0", "F"}, "F is emptied", sized("F", 0), "value write"},
	{[]string{"truncate", "-cs0", "H"}, "-s takes the rest of the bundle; -c creates nothing", removed("H"), "value write"},
	{[]string{"truncate", "--ref=F", "G"}, "--ref is --reference: G takes F's size", sized("G", 9), "list write"},
	{[]string{"truncate", "--si", "1", "G"}, "--si is --size, its value the next word", sized("G", 1), "- value write"},
	{[]string{"truncate", "-s0", "--", "-c"}, "-- ends options: the file -c is created", sized("-c", 0), "value - write"},
	{[]string{"truncate", "-s"}, "-s needs a value", rejects, ""},
	{[]string{"truncate", "G"}, "truncate needs --size or --reference: it rejects the call, which the model reads as a write", both(rejects, sized("G", 2)), "write"},
	// chmod, chown, chgrp: the mode, owner or group first, unless
	// --reference gives it; a chmod option of mode letters is the mode.
	{[]string{"chmod", "600", "F"}, "600 is the mode", modeIs("F", 0o777, 0o600), "value edit"},
	{[]string{"chmod", "-R", "o+w", "D"}, "-R changes D's files too", modeIs("D/sub.txt", 0o002, 0o002), "- value tree-write"},
	{[]string{"chmod", "-w", "F"}, "-w is the mode", modeIs("F", 0o200, 0), "- edit"},
	{[]string{"chmod", "644", "-w", "F"}, "-w is the mode, so 644 is a file (there is none); F loses w", both(rejects, modeIs("F", 0o200, 0)), "edit - edit"},
	{[]string{"chmod", "--", "-w", "F"}, "-- ends options: -w is the mode", modeIs("F", 0o200, 0), "- value edit"},
	{[]string{"chmod", "--ref=D", "F"}, "--ref is --reference: F takes D's mode", modeIs("F", 0o100, 0o100), "list edit"},
	{[]string{"chmod", "--rec", "o+w", "D"}, "--rec is --recursive", modeIs("D/sub.txt", 0o002, 0o002), "- value tree-write"},
	{[]string{"chmod", "--r", "o+w", "F"}, "--r is ambiguous (--recursive, --reference)", both(rejects, modeIs("F", 0o002, 0)), ""},
	{[]string{"chmod", "-w", "--reference=G", "F"}, "a mode and --reference do not combine", both(rejects, modeIs("F", 0o200, 0o200)), ""},
	{[]string{"chmod", "-Rw", "F"}, "the word -Rw is the mode, which is invalid: chmod rejects the call (the model reads -R -w)", both(rejects, modeIs("F", 0o200, 0o200)), "- tree-write"},
	{[]string{"chown", uid + ":" + gid, "F"}, "the owner first", succeeds, "value edit"},
	{[]string{"chown", "-hR", uid, "D"}, "-h and -R bundled", succeeds, "- value tree-write"},
	{[]string{"chown", "--ref=G", "F"}, "--ref is --reference: F is the only operand", succeeds, "list edit"},
	{[]string{"chown", "--from=" + uid, uid, "F"}, "--from takes its value after =", succeeds, "value value edit"},
	{[]string{"chown", "--", uid, "F"}, "-- ends options", succeeds, "- value edit"},
	{[]string{"chown", "--frob", uid, "F"}, "--frob is no option of chown", rejects, ""},
	{[]string{"chgrp", gid, "F"}, "the group first", succeeds, "value edit"},
	{[]string{"chgrp", "-Rc", gid, "D"}, "-R and -c bundled", succeeds, "- value tree-write"},
	{[]string{"chgrp", "--refer=G", "F"}, "--refer is --reference", succeeds, "list edit"},
	{[]string{"chgrp", "--", gid, "F"}, "-- ends options", succeeds, "- value edit"},
	{[]string{"chgrp", "--from=" + uid, gid, "F"}, "chgrp has no --from", rejects, ""},
	// xxd: the first operand is read, a second one written (xxd IN OUT
	// writes OUT); xxd matches its options by prefix (-autoskip is -a),
	// which the model does not follow: it asks.
	{[]string{"xxd", "F"}, "F is dumped", printed("610a"), "read"},
	{[]string{"xxd", "-c", "4", "F", "G2"}, "G2 is written", wrote("G2"), "- value read write"},
	{[]string{"xxd", "-autoskip", "F"}, "-autoskip is -a to xxd", printed("610a"), ""},
	// file: every operand is read (its first bytes decide its type).
	{[]string{"file", "-b", "F"}, "F is examined by its contents", printed("text"), "- read"},
	{[]string{"file", "--mime-type", "F", "G"}, "both operands are read", printed("text/plain"), "- read read"},
	// ln: every operand is written, -t's folder too; with one operand
	// the link is made in the working folder.
	{[]string{"ln", "F", "H"}, "H is a hard link to F", wrote("H"), "write write"},
	{[]string{"ln", "-sf", "F", "G"}, "-f replaces G by a link to F", linksTo("G", "F"), "- write write"},
	{[]string{"ln", "-s", "D/sub.txt"}, "one operand: the link sub.txt is made in the working folder", linksTo("sub.txt", "D/sub.txt"), "- write"},
	{[]string{"ln", "--symb", "--target-directory=D", "F", "G"}, "--symb is --symbolic; links D/F and D/G", both(linksTo("D/F", "F"), linksTo("D/G", "G")), "- write write write"},
	{[]string{"ln", "-bsS", ".bak", "F", "G"}, "-S takes the next word: G is kept as G.bak", both(wrote("G.bak"), linksTo("G", "F")), "- value write write"},
	{[]string{"ln", "--", "F", "-s"}, "-- ends options: -s is the link", wrote("-s"), "- write write"},
	{[]string{"ln", "--backup=n", "F", "H"}, "n is ambiguous: ln fails, yet makes the link (the model asks)", both(rejects, wrote("H")), ""},
	{[]string{"ln", "-k", "F", "H"}, "-k is no option of ln", both(rejects, removed("H")), ""},
	// date: -d and -f take the next word, -r examines a file's time, a
	// +FORMAT operand is printed. -s and a date operand set the clock,
	// which a test run as root must not do: their rows are in
	// tools_test.go, read by the model alone (a run of date 010100002030
	// here once set the machine's clock to 2030).
	{[]string{"date", "-u", "-d", "@0", "+%Y"}, "-d takes the next word; +%Y is the format", printed("1970"), "- - string string"},
	{[]string{"date", "-u", "--rfc-3339=date", "-d", "@0"}, "--rfc-3339 takes its value after =", printed("1970-01-01"), "- value - string"},
	{[]string{"date", "-u", "-Iseconds", "-d", "@0"}, "-I takes an attached value", printed("1970-01-01T00:00:00"), "- value - string"},
	{[]string{"date", "--ref=D/sub.txt", "+%Y"}, "--ref is --reference: the file's time", printed("2001"), "stat string"},
	{[]string{"date", "-f", "F"}, "-f reads the dates in F (which are not dates)", rejects, "- read"},
	// hostname: options print, a name sets it.
	{[]string{"hostname", "-s"}, "-s prints the short name", succeeds, "-"},
	{[]string{"hostname", "--fq"}, "--fq is --fqdn", succeeds, "-"},
	// dd: NAME=value operands.
	{[]string{"dd", "if=F", "of=H"}, "if= is read, of= written", holding("H", "a\nx line\n"), "read write"},
	{[]string{"dd", "if=F", "of=G", "conv=notrunc", "status=none"}, "conv= and status= are values", holding("G", "a\nx line\n"), "read write value value"},
	{[]string{"dd", "--", "if=F", "of=H"}, "-- ends options", wrote("H"), "- read write"},
	{[]string{"dd", "--he"}, "--he is --help", printed("display this help"), "-"},
	{[]string{"dd", "if=F", "of=H", "x"}, "x is no NAME=value operand", both(rejects, removed("H")), ""},
	{[]string{"dd", "if=F", "bogus=1", "of=H"}, "bogus is no operand of dd", both(rejects, removed("H")), ""},
	{[]string{"dd", "-x", "of=H"}, "dd takes no option but --help and --version", both(rejects, removed("H")), ""},
}

// uid and gid are the test's own, which chown and chgrp may give.
var uid, gid = strconv.Itoa(os.Getuid()), strconv.Itoa(os.Getgid())

// effect is a row's claim about a run: the scratch folder, the output,
// and whether the program failed.
type effect = func(dir, out string, failed bool) bool

func printed(s string) func(string, string, bool) bool {
	return func(_, out string, failed bool) bool { return strings.Contains(out, s) }
}

func rejects(_, _ string, failed bool) bool { return failed }

func wrote(name string) func(string, string, bool) bool {
	return func(dir, _ string, _ bool) bool {
		_, err := os.Stat(filepath.Join(dir, name))
		return err == nil
	}
}

// realCase is a command, what the real program does with it, and the
// roles the model reads in its words.
type realCase struct {
	cmd   []string
	claim string
	holds func(dir, out string, failed bool) bool
	roles string
}

func TestModelsAgainstRealPrograms(t *testing.T) {
	for _, c := range realCases {
		t.Run(strings.Join(c.cmd, " "), func(t *testing.T) { checkRealCase(t, c) })
	}
}

// checkRealCase runs c's command in a scratch folder (when its program is
// installed), checks the row's claim, then the model's reading.
func checkRealCase(t *testing.T, c realCase) { checkRealCaseWith(t, c, realRun{}) }

// realRun says how a row's command runs beyond checkRealCase's scratch
// folder: more files in it (an archive for unzip, a test for jest), more
// environment, a folder whose name holds none of the row's words (jest's
// patterns and vitest's filters would match t.TempDir's), a time limit.
type realRun struct {
	files    map[string]string
	env      []string
	plainDir bool
	timeout  time.Duration
}

// checkRealCaseWith is checkRealCase run as r says.
func checkRealCaseWith(t *testing.T, c realCase, r realRun) {
	if bin, err := exec.LookPath(c.cmd[0]); err == nil {
		dir := scratchFolder(t, r)
		ctx, cancel := context.WithTimeout(context.Background(), cmp.Or(r.timeout, 2*time.Minute))
		defer cancel()
		run := exec.CommandContext(ctx, bin, c.cmd[1:]...)
		run.Dir, run.Stdin = dir, strings.NewReader("")
		run.Env = append(append(slicesWithout(os.Environ(), "POSIXLY_CORRECT="), "LC_ALL=C"), r.env...)
		out, err := run.CombinedOutput()
		if ctx.Err() != nil {
			t.Fatalf("%q did not end in time:\n%s", c.cmd, out)
		}
		if !c.holds(dir, string(out), err != nil) {
			t.Fatalf("%q does not do what the row says (%s): %v\n%s", c.cmd, c.claim, err, out)
		}
	}
	checkModelReading(t, c)
}

// scratchFolder makes the folder a row runs in: F, G, D/sub.txt (last
// modified in January 2001), the empty folder E/ and r's files.
func scratchFolder(t *testing.T, r realRun) string {
	t.Helper()
	dir := t.TempDir()
	if r.plainDir {
		d, err := os.MkdirTemp("", "regate-scratch")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.RemoveAll(d) })
		dir = d
	}
	files := map[string]string{"F": "a\nx line\n", "G": "a\n", "D/sub.txt": "sub\n"}
	maps.Copy(files, r.files)
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	old := time.Date(2001, time.January, 2, 0, 0, 0, 0, time.UTC)
	if err := os.Chtimes(filepath.Join(dir, "D/sub.txt"), old, old); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "E"), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// checkModelReading holds the model's reading of c's words to the row's
// roles ("" for a command the model does not understand).
func checkModelReading(t *testing.T, c realCase) {
	t.Helper()
	args := make([]argmodel.Arg, len(c.cmd)-1)
	for i, w := range c.cmd[1:] {
		args[i] = argmodel.Arg{Text: w}
	}
	r := argmodel.Parse(c.cmd[0], args)
	if c.roles == "" {
		if r.Problem == "" {
			t.Errorf("the model understands %q; the row says it is not understood", c.cmd)
		}
		return
	}
	if r.Problem != "" {
		t.Fatalf("not understood: %s", r.Problem)
	}
	got := make([]string, len(r.Words))
	for i, w := range r.Words {
		got[i] = w.Role
		if w.Role == argmodel.Option {
			got[i] = "-"
		}
	}
	if g := strings.Join(got, " "); g != c.roles {
		t.Errorf("roles %q; want %q", g, c.roles)
	}
}

func succeeds(_, _ string, failed bool) bool { return !failed }

// both holds when a and b do.
func both(a, b effect) effect {
	return func(dir, out string, failed bool) bool { return a(dir, out, failed) && b(dir, out, failed) }
}

// removed: name is not there (deleted, or never made).
func removed(name string) effect {
	return func(dir, _ string, _ bool) bool {
		_, err := os.Lstat(filepath.Join(dir, name))
		return errors.Is(err, fs.ErrNotExist)
	}
}

// modeIs: the permission bits of mask in name's mode are want.
func modeIs(name string, mask, want fs.FileMode) effect {
	return func(dir, _ string, _ bool) bool {
		fi, err := os.Lstat(filepath.Join(dir, name))
		return err == nil && fi.Mode().Perm()&mask == want
	}
}

func sized(name string, size int64) effect {
	return func(dir, _ string, _ bool) bool {
		fi, err := os.Lstat(filepath.Join(dir, name))
		return err == nil && fi.Size() == size
	}
}

func holding(name, body string) effect {
	return func(dir, _ string, _ bool) bool {
		b, err := os.ReadFile(filepath.Join(dir, name))
		return err == nil && string(b) == body
	}
}

func linksTo(name, target string) effect {
	return func(dir, _ string, _ bool) bool {
		t, err := os.Readlink(filepath.Join(dir, name))
		return err == nil && t == target
	}
}

// modified: name was last modified in that month.
func modified(name string, year int, month time.Month) effect {
	return func(dir, _ string, _ bool) bool {
		fi, err := os.Lstat(filepath.Join(dir, name))
		if err != nil {
			return false
		}
		y, m, _ := fi.ModTime().Date()
		return y == year && m == month
	}
}

// slicesWithout drops the environment entries that start with prefix: the
// rows describe GNU programs without POSIXLY_CORRECT.
func slicesWithout(env []string, prefix string) []string {
	out := env[:0]
	for _, e := range env {
		if !strings.HasPrefix(e, prefix) {
			out = append(out, e)
		}
	}
	return out
}
