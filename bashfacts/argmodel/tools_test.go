package argmodel_test

import (
	"testing"

	"github.com/regate/regate/bashfacts/argmodel"
)

// toolCases: the models of git, find, fd, rg, jq, tar, zip, curl, go,
// make, npm, pnpm and yarn (the notation of parseCases). What each row
// claims the real program does is run against the program in
// runtime/strict_models_tools_test.go where the program is installed.
var toolCases = []parseCase{
	// git: global options are exact words; -C and --git-dir floor (another
	// repository's configuration runs code); each subcommand has its model.
	{[]string{"git", "status"}, "sub", ""},
	{[]string{"git", "status", "-sb", "--porc"}, "sub - -", ""},
	{[]string{"git", "status", "-uno"}, "sub value", ""},
	{[]string{"git", "--no-pager", "log", "--oneline", "-5"}, "- sub - -", ""},
	{[]string{"git", "log", "--oneline", "-20", "--author=bob", "--since", "2.weeks"}, "sub - - pattern - value", ""},
	{[]string{"git", "log", "-p", "--format=%H", "--", ".env"}, "sub - value - read", ""},
	{[]string{"git", "log", "--format", ".env"}, "sub - stat", ""}, // --format takes no separate value; without a patch the history of .env is metadata
	{[]string{"git", "log", "-S", ".env"}, "sub - pattern", ""},
	// Without a patch, git log and shortlog name the commits that touched a
	// path, not what it holds: the path is examined (stat). A patch, a
	// pickaxe (-S/-G, which tests the contents) or a combined diff reads it.
	{[]string{"git", "log", "--oneline", "--", ".env"}, "sub - - stat", ""},
	{[]string{"git", "log", "-S", "KEY", "--", ".env"}, "sub - pattern - read", ""},
	{[]string{"git", "log", "--cc", "--", ".env"}, "sub - - read", ""},
	{[]string{"git", "shortlog", "-sn", "--", ".env"}, "sub - - stat", ""},
	{[]string{"git", "rm", "--cached", ".env"}, "sub - stat", ""},
	{[]string{"git", "rm", ".env"}, "sub edit", ""},
	{[]string{"git", "rm", "-r", "config"}, "sub - tree-write", ""},
	{[]string{"git", "rm", "-r", "--cached", "config"}, "sub - - stat", ""},
	{[]string{"git", "log", "--onel"}, "", "git log: the option --onel is not"}, // log does not abbreviate
	{[]string{"git", "log", "--stdin"}, "sub -", "git log --stdin reads revisions"},
	{[]string{"git", "log", "-L1,2:.env"}, "sub value", "git log -L reads the lines of a file"},
	{[]string{"git", "log", "--no-ext-diff"}, "sub -", ""},
	{[]string{"git", "diff", "HEAD~1", "--", "src/x.go"}, "sub tree-tracked - tree-tracked", ""},
	{[]string{"git", "diff", "--no-index", "a", "b"}, "sub - tree tree", ""},
	{[]string{"git", "diff", "--output=x"}, "sub write", ""},
	{[]string{"git", "diff", "-U", "3"}, "sub - tree-tracked", ""}, // -U takes an attached value only
	{[]string{"git", "show", "HEAD:.env"}, "sub read", ""},
	{[]string{"git", "-C", "/tmp", "status"}, "- list sub", "git -C runs git on another repository"},
	// A folder below the current one is cd DIR && git: no floor (the facts
	// resolve the subcommand's paths there).
	{[]string{"git", "-C", "web", "status"}, "- list sub", ""},
	{[]string{"git", "-C", "web/api", "-C", "x", "log"}, "- list - list sub", ""},
	{[]string{"git", "-C", "../other", "status"}, "- list sub", "git -C runs git on another repository"},
	{[]string{"git", "-C", "~/src", "status"}, "- list sub", "git -C runs git on another repository"},
	{[]string{"git", "-C", "", "status"}, "- list sub", "git -C runs git on another repository"},
	{[]string{"git", "-c", "core.pager=sh", "log"}, "- value sub", "git -c sets configuration"},
	{[]string{"git", "bisect", "start"}, "", "git: the subcommand bisect is not"},
	{[]string{"git", "add", "."}, "sub read", ""},
	{[]string{"git", "commit", "-am", "fix: parser"}, "sub - value", ""},
	{[]string{"git", "push", "--force", "origin", "main"}, "sub - value value", ""},
	{[]string{"git", "push", "--receive-pack=./x", "origin"}, "sub value value", "git push --receive-pack runs a program"},
	{[]string{"git", "push", "../x", "main"}, "sub value value", "git push ../x pushes to a repository named by its path"},
	{[]string{"git", "push", "-u", "origin", "feature/x"}, "sub - value value", ""},
	{[]string{"git", "checkout", "-b", "feature/x"}, "sub - value", ""},
	{[]string{"git", "checkout", "--", ".env"}, "sub - edit", ""},
	{[]string{"git", "stash", "push", "-m", "wip", "--", "src"}, "sub sub - value - read", ""},
	{[]string{"git", "rebase", "-i", "HEAD~3"}, "sub - value", "git rebase -i opens an editor"},
	{[]string{"git", "rebase", "--exec", "make", "main"}, "sub - value value", "git rebase -x runs a command"},
	{[]string{"git", "clean", "-fd"}, "sub -", "git clean deletes untracked files"},
	{[]string{"git", "clean", "-nd"}, "sub -", ""},
	{[]string{"git", "apply", "--check", "p.diff"}, "sub - read", ""},
	{[]string{"git", "apply", "--stat", "--apply", "p.diff"}, "sub - - patch", ""},
	{[]string{"date", "-s", "2030-01-01"}, "", "date -s sets the system clock"},
	{[]string{"date", "--set=2030-01-01"}, "", "date -s sets the system clock"},
	{[]string{"date", "010100002030"}, "", "date 010100002030 sets the system clock"},
	{[]string{"date", "+%F"}, "string", ""},
	{[]string{"hostname", "evil"}, "", "hostname evil sets the host's name"},
	{[]string{"hostname", "-F", "name.txt"}, "", "hostname -F sets the host's name"},
	{[]string{"git", "apply", "-p2", "--directory=sub", "p.diff"}, "sub value string patch", ""},
	{[]string{"git", "apply"}, "sub", ""}, // the patch from standard input: Result.StdinPatch
	{[]string{"git", "apply", "-"}, "sub patch", ""},
	{[]string{"git", "apply", "--stat"}, "sub -", ""},
	{[]string{"git", "apply", "--reject", "p.diff"}, "sub - patch", "git apply --reject writes a .rej file"},
	{[]string{"git", "clone", "--template=/t", "u", "d"}, "sub value read write", "git clone --template copies hooks"},
	{[]string{"git", "commit", "--fixup", "amend:HEAD"}, "sub - value", ""},
	{[]string{"git", "branch"}, "sub", ""},
	{[]string{"git", "branch", "--list", "f*"}, "sub - pattern", ""},
	{[]string{"git", "branch", "-vv"}, "sub -", ""},
	// Creating, deleting or renaming a branch or a tag changes refs only,
	// as a commit does: decided by the rules that name it, not floored.
	{[]string{"git", "branch", "feature"}, "sub value", ""},
	{[]string{"git", "branch", "--sort=refname", "feature"}, "sub value value", ""},
	{[]string{"git", "branch", "-d", "x"}, "sub - value", ""},
	{[]string{"git", "branch", "--no-list"}, "", "git branch: the option --no-list is not"},
	{[]string{"git", "tag", "-l", "v*"}, "sub - pattern", ""},
	{[]string{"git", "tag", "-n5"}, "sub value", ""},
	{[]string{"git", "tag", "v1"}, "sub value", ""},
	{[]string{"git", "tag", "-e", "v1"}, "sub - value", "git tag -e opens an editor"},
	{[]string{"git", "config", "core.pager"}, "sub value", ""},
	{[]string{"git", "config", "--get", "user.name"}, "sub - value", ""},
	{[]string{"git", "config", "core.pager", "sh"}, "sub value value", "git config sh sets git's configuration"},
	{[]string{"git", "config", "--unset", "core.pager"}, "sub - value", "git config --unset sets git's"},
	{[]string{"git", "config", "--add", "--get", "x"}, "sub - - value", "git config --add sets"},
	{[]string{"git", "check-ignore", ".env"}, "sub string", ""},
	{[]string{"git", "grep", "TODO"}, "sub pattern", ""},
	{[]string{"git", "grep", "-e", "x", "--", "src"}, "sub - pattern - tree-tracked", ""},
	{[]string{"git", "grep", "-O", "x"}, "sub - pattern", "git grep -O runs a pager"},
	{[]string{"git", "remote", "-v"}, "sub -", ""},
	{[]string{"git", "remote", "add", "x", "y"}, "sub sub value value", "git remote add changes the remotes"},
	{[]string{"git", "cat-file", "-p", "HEAD:.env"}, "sub - read", ""},
	{[]string{"git", "cat-file", "--batch"}, "sub -", "git cat-file --batch reads the names"},
	{[]string{"git", "rev-parse", "--show-toplevel"}, "sub -", ""},
	{[]string{"git", "ls-files", "-z", "src"}, "sub - stat", ""},
	{[]string{"git", "blame", "-L", "1,5", "src/x.go"}, "sub - value read", ""},
	{[]string{"git", "shortlog", "-sn", "--all"}, "sub - -", ""},
	{[]string{"git", "describe", "--tags", "--always"}, "sub - -", ""},
	// find: start points are listed; a pattern names files only when an
	// action runs on or deletes what it selects.
	{[]string{"find", ".", "-name", ".env"}, "stat - pattern", ""},
	{[]string{"find", ".", "-name", "*.go", "-type", "f"}, "stat - pattern - value", ""},
	{[]string{"find", "-L", ".", "-name", "x"}, "- stat - pattern", ""},
	{[]string{"find", ".", "-name", ".env", "-exec", "cat", "{}", "+"}, "list - read - command command -", ""},
	{[]string{"find", ".", "-name", ".env", "-delete"}, "list - read -", ""},
	{[]string{"find", ".", "(", "-name", "a", "-o", "-name", "b", ")"}, "stat - - pattern - - pattern -", ""},
	{[]string{"find", ".", "-fprintf", "out", "%p"}, "stat - write string", ""},
	{[]string{"find", ".", "-newer", ".env"}, "stat - stat", ""},
	{[]string{"find", "src", "-name", "*.orig", "-delete"}, "list - read -", ""},
	{[]string{"find", ".", "-exec", "echo", "+", "-name", ".env", ";"}, "", "find: the operand ; comes after"},
	{[]string{"find", ".", "-exec", "cat", "{}"}, "", "find: the option -exec is not ended"},
	{[]string{"find", "-name", "x", "."}, "", "find: the operand . comes after an option"},
	{[]string{"find", ".", "-name", "@*.go"}, "", "find: bash expands the glob *.go"},
	// Wrappers: the command they run is read where the program reads it.
	{[]string{"timeout", "--sig", "KILL", "5", "rm", "-rf", "x"}, "- value value command command command", ""},
	{[]string{"timeout", "5", "rm", "--sig"}, "value command command", ""},
	{[]string{"nice", "-5", "rm"}, "value command", ""},
	{[]string{"env", "-", "A=1", "rm", "B=2"}, "- value command command", ""},
	{[]string{"env", "-S", "rm x", "y"}, "- command-split command-split", ""},
	{[]string{"env", "-uX", "--", "rm"}, "value - command", ""},
	{[]string{"sudo", "-e", "/etc/hosts"}, "- edit", ""},
	{[]string{"sudo", "-l", "rm"}, "- string", ""},
	{[]string{"xargs", "-a", "list", "rm"}, "- read command", ""},
	{[]string{"flock", "F", "-c", "rm x"}, "edit - command-line", ""},
	{[]string{"flock", "F", "-c", "rm", "x"}, "", "flock -c takes one command line"},
	{[]string{"watch", "-x", "ls", "-l"}, "- command command", ""},
	{[]string{"watch", "ls", "-l"}, "command-line command-line", ""},
	{[]string{"time", "-ao", "log", "make"}, "- edit command", ""},
	{[]string{"timeout", "-Z", "5", "rm"}, "", "timeout: the option -Z"},
	// parallel: Perl's Getopt::Long (bundling, abbreviations, a value
	// that may be the next word); the command line ends at ::: or ::::.
	{[]string{"parallel", "-j4", "-a", "list", "rm", "{}"}, "value - read command-line command-line", ""},
	{[]string{"parallel", "rm", ":::", "a", "::::", "F"}, "command-line - shell - read", ""},
	{[]string{"parallel", "--eof", "rm", "x"}, "- value command-line", ""},
	{[]string{"parallel", "echo", "{= system(1) =}", ":::", "a"}, "", "parallel {= system(1) =} runs Perl code"},
	{[]string{"parallel", "--jo", "2", "rm"}, "", "parallel: --jo is an ambiguous abbreviation"},
	// fd: clap; -x runs a command on every result.
	{[]string{"fd", "-H", ".env"}, "- pattern", ""},
	{[]string{"fd", ".env", "-x", "cat"}, "read - command", ""},
	{[]string{"fd", "x", "src", "-x", "cat", ";", "-H"}, "read list - command - -", ""},
	{[]string{"fd", "-d=2", "x"}, "value pattern", ""},
	// rg: the folders searched skip hidden and ignored files unless told.
	{[]string{"rg", "foo"}, "pattern", ""},
	{[]string{"rg", "-n", "foo", "src"}, "- pattern tree-visible", ""},
	// --hidden reads hidden names but still honours .gitignore (real rg
	// skips a gitignored .env with --hidden): the walk git grep makes.
	{[]string{"rg", "--hidden", "foo", "."}, "- pattern tree-tracked", ""},
	{[]string{"rg", "--hidden", "--no-ignore", "foo", "."}, "- - pattern tree", ""},
	{[]string{"git", "reflog", "-10"}, "sub -", ""},
	{[]string{"git", "reflog", "show", "--oneline", "main"}, "sub sub - value", ""},
	{[]string{"git", "reflog", "expire", "--all"}, "sub sub -", ""},
	{[]string{"git", "reflog", "HEAD"}, "", "git reflog: the subcommand HEAD is not"}, // git reads it as show HEAD; spelt so, it asks
	{[]string{"rg", "-uu", "foo"}, "- pattern", ""},
	{[]string{"rg", "-e", "foo", "--", ".env"}, "- pattern - tree-visible", ""},
	{[]string{"rg", "-f=pats", "x"}, "read tree-visible", ""},
	{[]string{"rg", "-g", ".env", "X"}, "- read pattern", ""},
	{[]string{"rg", "-g", "!.env", "X"}, "- pattern pattern", ""},
	{[]string{"rg", "--files", "src"}, "- list-tree", ""},
	{[]string{"rg", "--hidd", "x"}, "", "rg: the option --hidd is not"},
	{[]string{"rg", "--pre", "./x.sh", "x"}, "- value pattern", "rg --pre runs a preprocessor command"},
	// jq: the filter is a value; files are read.
	{[]string{"jq", "-r", ".name", "package.json"}, "- code read", ""},
	{[]string{"jq", "-n", "--rawfile", "x", ".env", "[$x]"}, "- - value read code", ""},
	{[]string{"jq", "-f", "prog.jq", "in.json"}, "- read read", "jq -f runs a program regate cannot see"},
	{[]string{"jq", "-n", "import \"x\" as $d; $d"}, "- code", "jq import \"x\" as $d; $d imports"},
	{[]string{"jq", "-n", "--arg", "a"}, "", "jq: the option --arg needs 2 values"},
	// tar: the mode decides the archive's role; -x writes unseen names.
	{[]string{"tar", "-tzf", "x.tgz"}, "- read", ""},
	{[]string{"tar", "tzf", "x.tgz"}, "- read", ""},
	{[]string{"tar", "czf", "out.tgz", "src"}, "- write tree", ""},
	{[]string{"tar", "cfC", "out.tar", "dir", "src"}, "- write list tree", "tar -C changes the folder"},
	{[]string{"tar", "-rf", "x.tar", "a"}, "- edit tree", ""},
	{[]string{"tar", "-xzf", "x.tgz"}, "- archive", ""}, // facts reads the archive's entries
	{[]string{"tar", "-xz"}, "-", "tar -x without -f reads the archive from standard input"},
	{[]string{"tar", "-xf", "x.tar", "-C", "out"}, "- archive - list", ""},
	{[]string{"tar", "-xPf", "x.tar"}, "- archive", "tar -P writes"},
	{[]string{"tar", "-xOzf", "x.tgz", ".env"}, "- archive pattern", ""}, // its entries are printed: reads
	{[]string{"tar", "-xf", "x.tar", ".env"}, "- archive write", ""},
	{[]string{"tar", "--creat", "-f", "x.tar", "a"}, "- - write tree", ""},
	{[]string{"tar", "--use-c=./evil", "-cf", "x", "a"}, "value - write tree", "tar -I runs a command"},
	{[]string{"tar", "-cf", "x.tar", "-T", "list"}, "- write - read", "tar -T reads the names"},
	{[]string{"tar", "-tf", "host:x.tar"}, "- read", "tar -f names an archive on another host"},
	{[]string{"tar", "xqf", "x"}, "", "tar: the option -q (in xqf) is not"},
	// zip: two-letter options first; -x and -i lists end at an option.
	{[]string{"zip", "-r", "out.zip", "src"}, "- edit tree", ""},
	{[]string{"zip", "-rq", "out.zip", ".", "-x", "*.git*"}, "- edit tree - pattern", ""},
	{[]string{"zip", "out.zip", "a", "-x", "b", "c", "-r", "d"}, "edit tree - pattern pattern - tree", ""},
	{[]string{"zip", "-r", "o.zip", ".", "-i", ".env"}, "- edit tree - read", ""},
	{[]string{"zip", "-lf", "log", "o.zip", "a"}, "- write edit read", ""},
	{[]string{"zip", "-TT", "sh -c x", "o.zip", "a"}, "- value edit read", "zip -TT runs a command"},
	{[]string{"zip", "-d", "o.zip", "a*"}, "- edit pattern", ""},
	// curl: URLs, files read by @, files written; a file: URL is a path.
	{[]string{"curl", "-s", "https://example.com"}, "- url", ""},
	{[]string{"curl", "-sSLo", "out.lock", "https://x"}, "- write url", ""},
	{[]string{"curl", "-d@.env", "https://x"}, "read url", ""}, // "@…" marks a glob in these rows
	{[]string{"curl", "--data-binary=@.env", "https://x"}, "read url", ""},
	{[]string{"curl", "-d", "a=b", "https://x"}, "- value url", ""},
	{[]string{"curl", "-sH@hdrs", "https://x"}, "read url", ""},
	{[]string{"curl", "-F", "f=@.env", "https://x"}, "- value url", "curl -F sends the contents of a file"},
	{[]string{"curl", "-F", "a=b", "https://x"}, "- value url", ""},
	{[]string{"curl", "file:///home/u/.ssh/id_rsa"}, "url", "curl: the URL file:///home/u/.ssh/id_rsa reads a local file"},
	{[]string{"curl", "{file,http}:///etc/passwd"}, "url", "curl: the URL {file,http}:///etc/passwd reads"},
	{[]string{"curl", "--url", "FILE:/etc/passwd"}, "- url", "curl: the URL FILE:/etc/passwd reads"},
	{[]string{"curl", "-O", "https://x/y"}, "- url", "curl -O writes a file named after the URL"},
	{[]string{"curl", "-K", "cfg", "https://x"}, "- read url", "curl -K reads its options from a file"},
	{[]string{"curl", "-T", "{a,.env}", "https://x"}, "- read url", "curl -T uploads the files a curl glob names"},
	{[]string{"curl", "--sil", "--no-silent", "https://x"}, "- - url", ""},
	// go: flags as the flag package reads them; go test reads flags after
	// the packages; what is passed on to code is read.
	{[]string{"go", "test", "./..."}, "sub read", ""},
	{[]string{"go", "test", "./...", "-run", "TestX", "-v"}, "sub read - value -", ""},
	{[]string{"go", "test", "--count=1", "./pkg"}, "sub value read", ""},
	{[]string{"go", "test", "./x", "-args", ".env"}, "sub read - read", ""},
	{[]string{"go", "test", "-exec", "./evil", "./..."}, "sub - value read", "go test -exec runs a command"},
	{[]string{"go", "vet", "./..."}, "sub read", ""},
	{[]string{"go", "build", "-o", "bin/app", "./cmd/app"}, "sub - write read", ""},
	{[]string{"go", "build", "./...", "-v"}, "sub read read", ""}, // go build stops at the first package
	{[]string{"go", "env", "-w", "GOFLAGS=-x"}, "sub - value", "go env -w writes go's environment file"},
	// -overlay builds with other files in place of the sources: a
	// go:embed of one printed ~/.ssh's key through go run (checked in real
	// go, 2026-12-07).
	{[]string{"go", "run", "-overlay=o.json", "."}, "sub read read", "go run -overlay builds with the files its JSON names"},
	{[]string{"go", "build", "-overlay", "o.json", "."}, "sub - read read", "go build -overlay builds with the files"},
	{[]string{"go", "mod", "tidy"}, "sub sub", ""},
	// go generate runs the commands its sources' //go:generate lines name,
	// as make runs its makefile's recipes: the rules that name it decide.
	{[]string{"go", "generate", "./..."}, "sub read", ""},
	{[]string{"go", "generate", "-run", "stringer", "-x", "./internal/..."}, "sub - pattern - read", ""},
	{[]string{"go", "generate", "-toolexec", "x", "./..."}, "", "go generate -toolexec"},
	// make: targets are names; a variable or another makefile asks.
	{[]string{"make", "test"}, "value", ""},
	{[]string{"make", "-j4", "test"}, "value value", ""},
	{[]string{"make", "test", "CC=sh"}, "value value", "make CC=sh sets a makefile variable"},
	{[]string{"make", "-f", "other.mk"}, "- read", "make -f reads its rules from another makefile"},
	{[]string{"make", "-C", "sub", "test"}, "- list value", ""},
	// npm, pnpm, yarn: scripts run by name.
	{[]string{"npm", "test"}, "sub", ""},
	{[]string{"npm", "run", "build", "--", ".env"}, "sub code read read", ""},
	{[]string{"npm", "install", "-D", "typescript"}, "sub - read", ""},
	{[]string{"npm", "config", "set", "x", "y"}, "sub sub value value", "npm config set changes npm's configuration"},
	{[]string{"npm", "--script-shell=./x.sh", "test"}, "value sub", "npm --script-shell runs package scripts"},
	{[]string{"npm", "frobnicate"}, "", "npm: the subcommand frobnicate is not"},
	{[]string{"pnpm", "build"}, "code", ""},
	{[]string{"pnpm", "--filter", "web", "test"}, "- value sub", ""},
	{[]string{"yarn", "build", "--watch"}, "code read", ""},
	{[]string{"yarn", "add", "react"}, "sub read", ""},
}

func TestParseTools(t *testing.T) {
	runParseCases(t, toolCases)
}

// TestToolModels: the second set of families has its models.
func TestToolModels(t *testing.T) {
	for _, p := range []string{"git", "find", "fd", "fdfind", "rg", "jq", "tar", "gtar", "zip", "curl", "go",
		"make", "gmake", "npm", "pnpm", "yarn"} {
		if !argmodel.Has(p) {
			t.Errorf("%s has no model", p)
		}
	}
}

// TestStdinPatch: git apply without a patch operand, or with "-", reads
// the patch from standard input, which the result names for the caller
// (bashfacts reads a literal heredoc, and asks otherwise); --check with no
// operand reads it too but writes nothing.
func TestStdinPatch(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"apply"}, "git apply"},
		{[]string{"apply", "-"}, "git apply"},
		{[]string{"apply", "-p1", "--index"}, "git apply"},
		{[]string{"apply", "p.diff"}, ""},
		{[]string{"apply", "--check"}, ""},
	} {
		args := make([]argmodel.Arg, len(c.args))
		for i, a := range c.args {
			args[i] = argmodel.Arg{Text: a}
		}
		if got := argmodel.Parse("git", args).StdinPatch; got != c.want {
			t.Errorf("git %v: StdinPatch %q, want %q", c.args, got, c.want)
		}
	}
}
