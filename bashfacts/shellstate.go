package bashfacts

import (
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Shell state set earlier in the command (docs/strict.md, "Shell state").
// A statement can change how bash runs the statements after it without
// running anything itself: an alias, a shell option, a function that
// shadows a program, a variable the shell or a program reads, a directory
// stack. Strict mode floors every later unit when such a change comes
// before it, unless the change is known to be harmless (set -e or -o
// pipefail changes nothing that runs).

// shellState is what the statements walked so far did to the shell. A
// payload's walker (eval, bash -c) starts from its parent's state and hands
// its own back: an eval runs in the same shell, and a child shell inherits
// what is exported, which strict mode does not tell apart.
type shellState struct {
	// floor says what earlier statement changed how later ones run; every
	// later unit is floored for it. "" when none did.
	floor string
	// funcs are the functions the command defines, by name, each true
	// when its body changes directory.
	funcs map[string]bool
	// cdpath is set once the command assigns CDPATH: a relative cd may
	// then land anywhere on it.
	cdpath bool
	// vars is what the command assigns, for stored-string evaluation.
	vars *varFacts
}

// setFloor records the first change that floors the units after it.
func (s *shellState) setFloor(why string) {
	if s.floor == "" {
		s.floor = why
	}
}

// harmlessShopt are the shopt options that change nothing a later command
// runs or reads: history, interactive editing, messages. Any other option
// set or unset (expand_aliases, extglob, dotglob, nocaseglob, globstar,
// nullglob, failglob, globskipdots, lastpipe, cdable_vars, sourcepath,
// interactive_comments, …) floors what follows.
var harmlessShopt = set("autocd", "cdspell", "checkhash", "checkjobs", "checkwinsize", "cmdhist",
	"complete_fullquote", "direxpand", "dirspell", "force_fignore", "gnu_errfmt", "histappend",
	"histreedit", "histverify", "hostcomplete", "huponexit", "inherit_errexit", "lithist",
	"localvar_inherit", "localvar_unset", "mailwarn", "no_empty_cmd_completion", "noexpand_translation",
	"progcomp", "progcomp_alias", "promptvars", "shift_verbose", "varredir_close", "xpg_echo")

// harmlessSet are the set -o options that change nothing a later command
// runs or reads: exit on error, unset-variable errors, tracing (its PS4 is
// a sensitive variable), pipefail, noclobber (it only makes redirects
// fail), job control, history and line editing. posix (which expands
// aliases), noglob, keyword, physical, interactive-comments and any name
// not listed floor what follows.
var harmlessSet = set("allexport", "braceexpand", "emacs", "errexit", "errtrace", "functrace", "hashall",
	"histexpand", "history", "ignoreeof", "monitor", "noclobber", "noexec", "nolog", "notify", "nounset",
	"onecmd", "pipefail", "privileged", "verbose", "vi", "xtrace")

// setLetters names the single-letter set options by their long names.
var setLetters = map[byte]string{
	'a': "allexport", 'B': "braceexpand", 'b': "notify", 'C': "noclobber", 'E': "errtrace", 'e': "errexit",
	'f': "noglob", 'H': "histexpand", 'h': "hashall", 'k': "keyword", 'm': "monitor", 'n': "noexec",
	'P': "physical", 'p': "privileged", 'T': "functrace", 't': "onecmd", 'u': "nounset", 'v': "verbose",
	'x': "xtrace",
}

// unitState returns why a simple command is floored by what came before
// it (an evaluated stored string in its own words, a state change earlier
// in the command, a call of a function the command defined), and then
// records what the command changes for the units after it.
func (w *walker) unitState(prog string, words, argWords []*syntax.Word, args []string, sc scope) string {
	reason := sc.evaluates
	if reason == "" && w.shell.floor != "" {
		reason = "runs after " + w.shell.floor
	}
	if reason == "" {
		if name, lit := w.literal(words[0]); lit && w.shell.funcs != nil {
			if _, defined := w.shell.funcs[name]; defined {
				reason = "calls the function " + name + " the command defines: its body runs, not a program of that name"
			}
		}
	}
	if reason == "" {
		reason = w.namedVariables(prog, argWords)
	}
	w.changesState(prog, argWords, args)
	return reason
}

// changesState records what a builtin does to the shell for the units
// after it.
func (w *walker) changesState(prog string, argWords []*syntax.Word, args []string) {
	switch prog {
	case "alias":
		for _, a := range args {
			if name, _, ok := strings.Cut(a, "="); ok {
				w.shell.setFloor("alias " + name + " was defined: a later command word may be that alias")
				return
			}
		}
	case "shopt":
		w.shoptState(argWords)
	case "set":
		w.setState(argWords)
	case "enable":
		for _, a := range args {
			if a != "-p" && a != "-a" && a != "-s" {
				w.shell.setFloor("enable changed which builtins run (enable -f loads one from a file)")
				return
			}
		}
	case "hash":
		for _, a := range args {
			if len(a) > 1 && a[0] == '-' && strings.Contains(a, "p") {
				w.shell.setFloor("hash -p named the file a later command name runs")
				return
			}
		}
	case "source", ".":
		w.shell.setFloor(prog + " ran a file, which may set aliases, functions, options, variables and the directory")
	}
	if name := w.sensitiveTarget(prog, argWords); name != "" && w.envSet == "" {
		w.envSet = name
	}
}

// shoptState floors what follows a shopt that sets or unsets an option
// other than the harmless ones (or -o, a set -o option).
func (w *walker) shoptState(argWords []*syntax.Word) {
	changes, setO := false, false
	var names []string
	for _, word := range argWords {
		a, lit := w.literal(word)
		switch {
		case !lit:
			w.shell.setFloor("shopt changed an option strict mode cannot read")
			return
		case strings.HasPrefix(a, "-") && len(a) > 1:
			changes = changes || strings.ContainsAny(a, "su")
			setO = setO || strings.Contains(a, "o")
		default:
			names = append(names, a)
		}
	}
	if !changes {
		return // shopt, shopt -p, shopt -q: a query
	}
	for _, n := range names {
		if (setO && !harmlessSet[n]) || (!setO && !harmlessShopt[n]) {
			w.shell.setFloor("shopt changed " + n + ", which changes how bash reads or expands what follows")
			return
		}
	}
}

// setState floors what follows a set that turns an option on or off
// other than the harmless ones. Its operands after the options (set --
// a b) are the positional parameters, which change nothing that runs.
func (w *walker) setState(argWords []*syntax.Word) {
	for i := 0; i < len(argWords); i++ {
		a, lit := w.literal(argWords[i])
		switch {
		case !lit:
			w.shell.setFloor("set changed an option strict mode cannot read")
			return
		case a == "--" || a == "-" || len(a) < 2 || (a[0] != '-' && a[0] != '+'):
			return
		}
		for j := 1; j < len(a); j++ {
			name, known := setLetters[a[j]]
			if a[j] == 'o' {
				if i+1 >= len(argWords) {
					return // set -o alone lists the options
				}
				i++
				name, known = w.literal(argWords[i])
			}
			if !known || !harmlessSet[name] {
				w.shell.setFloor("set " + string(a[0]) + "o " + name + " changed how bash runs what follows")
				return
			}
		}
	}
}

// sensitiveTarget returns a sensitive variable (sensitiveEnv) that a
// builtin assigns by name: read, mapfile/readarray, printf -v, getopts,
// wait -p. Such a variable set alone changes every later unit, as
// NAME=value does.
func (w *walker) sensitiveTarget(prog string, argWords []*syntax.Word) string {
	for _, name := range w.assignedNames(prog, argWords) {
		if n, _, _ := strings.Cut(name, "["); sensitiveEnv(n) {
			return n
		}
	}
	return ""
}

// assignedNames lists the words a builtin takes as names of variables it
// assigns, as written (a subscript included).
func (w *walker) assignedNames(prog string, argWords []*syntax.Word) []string {
	switch prog {
	case "read", "mapfile", "readarray", "printf", "getopts", "wait":
	default:
		return nil
	}
	texts := make([]string, len(argWords))
	for i, word := range argWords {
		texts[i], _ = w.wordText(word)
	}
	var names []string
	switch prog {
	case "read":
		i := 0
		for ; i < len(texts) && strings.HasPrefix(texts[i], "-") && texts[i] != "--" && len(texts[i]) > 1; i++ {
			if o := texts[i]; strings.IndexAny(o[len(o)-1:], "adinNptu") == 0 && i+1 < len(texts) {
				i++
				if o[len(o)-1] == 'a' {
					names = append(names, texts[i])
				}
			}
		}
		if i < len(texts) && texts[i] == "--" {
			i++
		}
		names = append(names, texts[i:]...)
	case "mapfile", "readarray":
		if i := skipOptions(texts, "dnOsuCc", nil); i < len(texts) {
			names = append(names, texts[i])
		}
	case "printf":
		if i := indexOf(texts, "-v"); i >= 0 && i+1 < len(texts) {
			names = append(names, texts[i+1])
		}
	case "getopts":
		if len(texts) > 1 {
			names = append(names, texts[1])
		}
	case "wait":
		if i := indexOf(texts, "-p"); i >= 0 && i+1 < len(texts) {
			names = append(names, texts[i+1])
		}
	}
	return names
}

// dirAfter is the directory after a simple command, as the spec reads it
// (a literal cd folds, nothing else moves it), with strict mode's floor
// where bash may be elsewhere: after a cd that CDPATH, set earlier, may
// redirect or whose operand is a glob, a pushd or popd (which the spec
// does not follow), a source, or a call of a function of the command
// that changes directory, every later unit asks.
func (w *walker) dirAfter(prog string, argWords []*syntax.Word, sc scope) Dir {
	switch prog {
	case "cd":
		if w.cdpathApplies(argWords) {
			w.shell.setFloor("cd went where CDPATH, set earlier, may lead")
		} else if w.globbedDir(argWords) {
			w.shell.setFloor("cd went to what a glob matches")
		}
		return w.cd(argWords, sc)
	case "pushd", "popd":
		w.shell.setFloor(prog + " changed directory, which the spec's reading does not follow")
	}
	if w.shell.funcs[prog] {
		w.shell.setFloor("the function " + prog + " changed directory")
	}
	return sc.dir
}

// cdpathApplies reports a cd to a relative name that CDPATH, set earlier
// in the command, may resolve elsewhere (not "", ".", "..", "./…", "../…").
func (w *walker) cdpathApplies(argWords []*syntax.Word) bool {
	if !w.shell.cdpath {
		return false
	}
	for _, word := range argWords {
		v, lit := w.literal(word)
		if !lit {
			return false
		}
		if strings.HasPrefix(v, "-") && v != "-" {
			continue
		}
		return v != "" && !path.IsAbs(v) && !strings.HasPrefix(v, "~") && v != "." && v != ".." &&
			!strings.HasPrefix(v, "./") && !strings.HasPrefix(v, "../")
	}
	return false
}

// globbedDir reports a cd or pushd whose operand bash expands as a glob
// (cd ~/.ss?): the directory is what the glob matches.
func (w *walker) globbedDir(argWords []*syntax.Word) bool {
	for _, word := range argWords {
		v, lit := w.literal(word)
		if !lit {
			v, lit = w.extglobText(word)
		}
		if lit && strings.HasPrefix(v, "-") && len(v) > 1 {
			continue
		}
		if lit {
			isPattern, _ := w.globOf(v, word)
			return isPattern
		}
		return false
	}
	return false
}

// defineFunction records a function the command defines, and whether its
// body changes directory. command_not_found_handle runs for every command
// not found, so defining it floors everything after.
func (w *walker) defineFunction(fd *syntax.FuncDecl) {
	if fd.Name == nil {
		return
	}
	if w.shell.funcs == nil {
		w.shell.funcs = map[string]bool{}
	}
	name := fd.Name.Value
	w.shell.funcs[name] = w.changesDir(fd.Body)
	if name == "command_not_found_handle" {
		w.shell.setFloor("command_not_found_handle was defined: a command not found runs it")
	}
}

// changesDir reports whether a node may change the shell's directory: a
// cd, pushd, popd or source, or a call of a function that does.
func (w *walker) changesDir(n syntax.Node) bool {
	if n == nil {
		return false
	}
	changes := false
	syntax.Walk(n, func(n syntax.Node) bool {
		if ce, ok := n.(*syntax.CallExpr); ok && len(ce.Args) > 0 {
			name, lit := w.literal(ce.Args[0])
			switch {
			case !lit:
			case name == "cd" || name == "pushd" || name == "popd" || name == "source" || name == ".":
				changes = true
			case w.shell.funcs[name]:
				changes = true
			}
		}
		return !changes
	})
	return changes
}

// loopMark is the state when a loop's body starts: a change the body makes
// reaches the units before it in the body too, on the next iteration.
type loopMark struct {
	units         int
	floor, envSet string
	funcs         int
}

func (w *walker) markLoop() loopMark {
	return loopMark{units: len(w.out.Units), floor: w.shell.floor, envSet: w.envSet, funcs: len(w.shell.funcs)}
}

// endLoop floors the units of a loop body walked since m when the body
// changed the state: they run again after the change.
func (w *walker) endLoop(m loopMark) {
	why := ""
	switch {
	case w.shell.floor != m.floor:
		why = w.shell.floor
	case w.envSet != m.envSet:
		why = w.envSet + " was set"
	case len(w.shell.funcs) != m.funcs:
		why = "a function was defined"
	default:
		return
	}
	for i := m.units; i < len(w.out.Units); i++ {
		if w.out.Units[i].Strict == "" {
			w.out.Units[i].Strict = "runs again in a loop after " + why
		}
	}
}

// specUnitless makes sure a command the spec reads as having no unit (its
// statements are all assignments) still has one when strict mode added
// units of its own: the whole text, as the spec's reading decides it,
// carrying the first strict reason. Without it the strict-only units
// would leave the spec nothing to decide.
func (w *walker) specUnitless() {
	reason := ""
	for _, u := range w.out.Units {
		if !u.StrictOnly {
			return
		}
		if reason == "" {
			reason = u.Strict
		}
	}
	if len(w.out.Units) == 0 {
		return
	}
	w.out.Units = append(w.out.Units, Unit{Text: strings.TrimSpace(w.src), Pos: Pos{Line: 1, Col: 1}, Strict: reason})
}

// assignmentsOnly adds, for a statement of assignments alone whose words
// evaluate a stored string (x=$((y))), a unit strict mode alone decides:
// the spec gives such a statement no unit, yet bash runs what it holds.
func (w *walker) assignmentsOnly(c *syntax.CallExpr, sc scope) {
	if sc.evaluates == "" {
		return
	}
	w.out.Units = append(w.out.Units, Unit{Text: strings.TrimSpace(w.source(c)), Pos: w.pos(c.Pos()), Origin: sc.origin,
		Strict: sc.evaluates, StrictOnly: true})
}

// stateVariables are variables, beyond the list of sensitiveEnv, that
// change what a later command reads or runs: the home every ~ and program
// configuration is found in, the working directory $PWD and ~+ name, what
// bash itself expands (GLOBIGNORE turns dotglob on; PS4 is expanded, $(…)
// included, under set -x; BASH_ALIASES and BASH_CMDS are the alias and
// command-hash tables; POSIXLY_CORRECT puts bash in posix mode, which
// expands aliases), and the variables build tools and other programs read
// as options, configuration or a program to run.
var stateVariables = set(
	"HOME", "PWD", "OLDPWD", "SHELL", "GLOBIGNORE", "PS4", "BASH_ALIASES", "BASH_CMDS", "BASH_COMPAT", "POSIXLY_CORRECT",
	"XDG_CONFIG_HOME", "XDG_CONFIG_DIRS",
	"MAKEFLAGS", "MFLAGS", "GNUMAKEFLAGS", "MAKEFILES",
	"GOFLAGS", "GOENV", "GOTOOLCHAIN", "GOROOT", "GOPROXY", "GOSUMDB", "GONOSUMDB", "GONOSUMCHECK", "GOINSECURE",
	"GOPRIVATE", "GONOPROXY", "GOCACHEPROG", "GOAUTH",
	"CC", "CXX", "CPP", "LD", "AR", "PKG_CONFIG", "CGO_CFLAGS", "CGO_CPPFLAGS", "CGO_CXXFLAGS", "CGO_FFLAGS", "CGO_LDFLAGS",
	"RUSTC", "RUSTC_WRAPPER", "RUSTC_WORKSPACE_WRAPPER", "RUSTDOC", "RUSTFLAGS", "RUSTDOCFLAGS",
	"NODE_PATH", "RUBYOPT", "RUBYLIB", "BUNDLE_GEMFILE", "PERLLIB",
	"JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS", "JDK_JAVA_OPTIONS", "MAVEN_OPTS", "GRADLE_OPTS",
	"TAR_OPTIONS", "GREP_OPTIONS", "MANOPT", "BROWSER", "SUDO_EDITOR", "SSH_ASKPASS", "SUDO_ASKPASS",
	"RSYNC_RSH", "RSYNC_CONNECT_PROG", "CVS_RSH", "CURL_HOME", "WGETRC", "KUBECONFIG", "DOCKER_CONFIG",
	"http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "all_proxy", "ftp_proxy", "FTP_PROXY", "SSLKEYLOGFILE",
	"AWS_CONFIG_FILE", "GCONV_PATH", "OPENSSL_CONF", "OPENSSL_ENGINES",
	// docker compose's -f and --env-file (facts/compose.go)
	"COMPOSE_FILE", "COMPOSE_ENV_FILES", "COMPOSE_PATH_SEPARATOR", "COMPOSE_DISABLE_ENV_FILE",
	// ps's personality: bsd reads -e as e, which prints environments.
	"PS_PERSONALITY", "CMD_ENV",
	// options and plugins read from the environment: unzip's and zip's
	// (UNZIP=-: keeps ../ in names), pytest's (added options, plugins it
	// loads, the root of --basetemp), coverage's and mypy's files.
	"UNZIP", "UNZIPOPT", "ZIPINFO", "ZIPINFOOPT", "ZIP", "ZIPOPT",
	"PYTEST_ADDOPTS", "PYTEST_PLUGINS", "PYTEST_DEBUG_TEMPROOT", "COVERAGE_FILE", "COVERAGE_RCFILE",
	"MYPYPATH", "MYPY_CACHE_DIR", "BLACK_CACHE_DIR")

// stateVariablePrefixes name families of such variables: cargo's own
// configuration (CARGO_TARGET_…_RUNNER runs the tests through a program),
// yarn's, pip's and ruff's (RUFF_OUTPUT_FILE, RUFF_CACHE_DIR), and npm's,
// which it reads in either case.
var stateVariablePrefixes = []string{"CARGO_", "YARN_", "PIP_", "RUFF_", "npm_config_"}

// stateVariable reports a variable of stateVariables or of one of the
// families of stateVariablePrefixes.
func stateVariable(name string) bool {
	if stateVariables[name] {
		return true
	}
	for _, p := range stateVariablePrefixes {
		if len(name) >= len(p) && strings.EqualFold(name[:len(p)], p) {
			return true
		}
	}
	return false
}
