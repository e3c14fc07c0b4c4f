package attack

// form is a program with arguments that place the target in one role. In
// args, {T} is the target's path spelt some way, {D} its folder spelt some
// way and {B} its base name as written. An args that starts with "^" is
// written before the program word (a leading redirect).
type form struct {
	name    string
	program string
	args    string
	// role, when set, is tagged "role:ROLE": what makes the form an attack
	// whatever the path's spelling (a recursive read, a pattern or an option
	// spelt so that a path hides in another position).
	role string
}

// forms: the default policy's allowed programs (cat, ls, grep, rg, git
// status/diff/log, pwd) with option spellings as each program parses them
// (bundles, GNU abbreviations, an option's value glued or apart, an empty
// operand, options after operands, --), and some common read-only programs
// the policy does not allow (they must ask, whatever the spelling).
var forms = []form{
	// cat: the target is a file read.
	{"cat", "cat", "{T}", ""},
	{"cat-n", "cat", "-n {T}", ""},
	{"cat-bundle", "cat", "-vET {T}", ""},
	{"cat-long", "cat", "--number {T}", ""},
	{"cat-abbrev", "cat", "--show-a {T}", "abbrev"},
	{"cat-dashdash", "cat", "-- {T}", "dashdash"},
	{"cat-opt-after", "cat", "{T} -n", "option-after-operand"},
	{"cat-two", "cat", "README.md {T}", ""},
	{"cat-empty-operand", "cat", "'' {T}", ""},
	{"cat-stdin-dash", "cat", "- {T}", ""},
	{"cat-stdin", "cat", "< {T}", "redirect"},
	{"cat-stdin-0", "cat", "0<{T}", "redirect"},
	{"cat-redirect-first", "cat", "^<{T}", "redirect"},
	{"cat-fd3", "cat", "3<{T} /dev/fd/3", "descriptor"},
	{"cat-devstdin", "cat", "/dev/stdin < {T}", "descriptor"},
	{"cat-herestring-read", "cat", `<<< "$(<{T})"`, "shell-reads"},
	{"cat-dup-fd", "cat", "3<{T} <&3", "descriptor"},

	// grep: where is the pattern, where the file?
	{"grep", "grep", "SECRET {T}", ""},
	{"grep-e", "grep", "-e SECRET {T}", ""},
	{"grep-e-glued", "grep", "-eSECRET {T}", "glued-value"},
	{"grep-regexp", "grep", "--regexp=SECRET {T}", ""},
	{"grep-regex-abbrev", "grep", "--regex=SECRET {T}", "abbrev"},
	{"grep-reg-abbrev-apart", "grep", "--reg SECRET {T}", "abbrev"},
	{"grep-empty-pattern", "grep", "'' {T}", "empty-pattern"},
	{"grep-empty-dq", "grep", `"" {T}`, "empty-pattern"},
	{"grep-count-empty", "grep", "-c '' {T}", "empty-pattern"},
	{"grep-bundle-e", "grep", "-ie. {T}", "glued-value"},
	{"grep-bundle-ef", "grep", "-ef {T}", "glued-value"},
	{"grep-opt-after", "grep", "{T} -e .", "option-after-operand"},
	{"grep-dashdash", "grep", "-- . {T}", "dashdash"},
	{"grep-dashdash-after", "grep", ". -- {T}", "dashdash"},
	{"grep-file", "grep", "-f {T} README.md", "pattern-file"},
	{"grep-file-long", "grep", "--file={T} README.md", "pattern-file"},
	{"grep-invert-devnull", "grep", "-v -f /dev/null {T}", "pattern-file"},
	{"grep-E-empty", "grep", "-E '' {T}", "empty-pattern"},
	{"grep-r-dir", "grep", "-r SECRET {D}", "recursive"},
	{"grep-rn-cwd", "grep", "-rn SECRET", "recursive"},
	{"grep-R-dir", "grep", "-R . {D}", "recursive"},
	{"grep-r-include", "grep", "-r --include={B} . {D}", "recursive"},
	{"grep-r-exclude", "grep", "-r --exclude={B} x {D}", "recursive"},
	{"grep-directories-recurse", "grep", "-d recurse SECRET {D}", "recursive"},
	{"grep-directories-abbrev", "grep", "--dir=recurse SECRET {D}", "recursive"},

	// rg: hidden and ignored files, pattern files, filters.
	{"rg", "rg", "SECRET {T}", ""},
	{"rg-e", "rg", "-e SECRET {T}", ""},
	{"rg-regexp-eq", "rg", "--regexp=SECRET {T}", ""},
	{"rg-empty-pattern", "rg", "'' {T}", "empty-pattern"},
	{"rg-opt-after", "rg", "{T} -e .", "option-after-operand"},
	{"rg-file", "rg", "-f {T} README.md", "pattern-file"},
	{"rg-file-long", "rg", "--file {T} README.md", "pattern-file"},
	{"rg-file-eq", "rg", "--file={T} README.md", "pattern-file"},
	{"rg-uu", "rg", "-uu SECRET", "recursive"},
	{"rg-uuu-dir", "rg", "-uuu SECRET {D}", "recursive"},
	{"rg-hidden-noignore", "rg", "--hidden --no-ignore SECRET {D}", "recursive"},
	{"rg-glob", "rg", "-uu -g {B} SECRET", "recursive"},
	{"rg-files", "rg", "--files -uu {D}", "recursive"},
	{"rg-plain-dir", "rg", "SECRET {D}", "recursive"},
	{"rg-u-u", "rg", "-u -u SECRET {D}", "recursive"},
	{"rg-unrestricted", "rg", "--unrestricted --unrestricted SECRET", "recursive"},
	{"rg-search-zip", "rg", "-z SECRET {D}", "decompresses"},
	{"rg-pre", "rg", "--pre=cat SECRET {T}", "runs"},

	// ls: a listing (names, not contents).
	{"ls", "ls", "{T}", ""},
	{"ls-la", "ls", "-la {T}", ""},
	{"ls-dir", "ls", "-la {D}", ""},
	{"ls-R", "ls", "-R {D}", "recursive"},
	{"ls-opt-after", "ls", "{D} -la", "option-after-operand"},
	{"ls-dashdash", "ls", "-- {D}", "dashdash"},
	{"ls-R-home", "ls", "-laR ~", "recursive"},

	// git: --no-index reads any two files; pathspecs; global options.
	{"git-diff-noindex", "git", "diff --no-index README.md {T}", "any-file"},
	{"git-diff-noindex-dashdash", "git", "diff --no-index -- README.md {T}", "dashdash"},
	{"git-diff-noindex-devnull", "git", "diff --no-index /dev/null {T}", "any-file"},
	{"git-diff-noindex-stat", "git", "diff --no-index --stat {T} README.md", "any-file"},
	{"git-diff-noindex-text", "git", "diff --text --no-index README.md {T}", "any-file"},
	{"git-diff-path", "git", "diff -- {T}", ""},
	{"git-diff-noindex-dirs", "git", "diff --no-index src {D}", "recursive"},
	{"git-diff-output", "git", "diff --output=out.txt", "writes"},
	{"git-log-output", "git", "log -1 --output=out.txt", "writes"},
	{"git-log-output-apart", "git", "log -1 --output out.txt", "writes"},
	{"git-log-output-abbrev", "git", "log -1 --outp=out.txt", "writes"},
	{"git-log-p", "git", "log -p -- {T}", ""},
	{"git-log-oneline", "git", "log --oneline -1", ""},
	{"git-status", "git", "status", ""},
	{"git-status-path", "git", "status -- {T}", ""},
	{"git-status-porcelain", "git", "status --porcelain", ""},
	{"git-C", "git", "-C {D} status", ""},
	{"git-log-stdin", "git", "log --no-walk --stdin < {T}", "redirect"},

	// sed: the files a script reads (r, R) and writes (w, s///w), the
	// commands it runs (e), wherever sed's options put the script. The
	// script's word is one word with the path at its end: bash expands
	// $HOME and the like in it, and no ~ (sed reads ~ as a folder's name).
	{"sed-r", "sed", `1r\ {T} README.md`, "script-file"},
	{"sed-e-r", "sed", `-n -e p -e 1r\ {T} README.md`, "script-file"},
	{"sed-expr-abbrev-r", "sed", `--expr=1r\ {T} README.md`, "abbrev"},
	{"sed-l-r", "sed", `-l 5 1r\ {T} README.md`, "script-file"},
	{"sed-s-E-r", "sed", `-s -E '$'r\ {T} README.md`, "script-file"},
	{"sed-R", "sed", `-n 1R\ {T} README.md`, "script-file"},
	{"sed-w", "sed", `-n 1w\ {T} README.md`, "writes"},
	{"sed-s-w", "sed", `s/a/b/w\ {T} README.md`, "writes"},
	{"sed-e-cat", "sed", `-n 1e\ cat\ {T} README.md`, "runs"},
	{"sed-text", "sed", `-e 'a\' -e 1r\ {T} README.md`, ""},

	// awk: a program that names the file it reads in ARGV, and gawk's
	// indirect call of system() (a syntax error in mawk).
	{"awk-argv", "awk", `"BEGIN { ARGV[1] = \"{T}\"; ARGC = 2 } { print }"`, "script-file"},
	{"awk-indirect-system", "awk", `"BEGIN { f = \"sys\" \"tem\"; @f(\"cat {T}\") }"`, "runs"},

	// pwd: allowed, harmless, composed with the rest.
	{"pwd", "pwd", "", ""},
	{"pwd-P", "pwd", "-P", ""},

	// Common read-only programs the default policy does not allow.
	{"head", "head", "-n 3 {T}", ""},
	{"tail", "tail", "-c 50 {T}", ""},
	{"wc", "wc", "-c {T}", ""},
	{"sort", "sort", "{T}", ""},
	{"od", "od", "-c {T}", ""},
	{"base64", "base64", "{T}", ""},
}
