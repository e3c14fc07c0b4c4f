package bashfacts

import (
	"path"
	"strings"

	"github.com/regate/regate/bashfacts/argmodel"
	"mvdan.cc/sh/v3/syntax"
)

// Strict facts: what strict mode (docs/strict.md) floors to ask. They are
// facts about the command, found whatever the policy says; the Rego library
// applies them only when the policy sets "strict". Units a strict wrapper
// runs are StrictOnly: decided in strict mode only, so that a policy
// without it decides exactly as the spec says.

// sensitiveEnv reports a variable that changes what a command runs or
// loads (PATH, LD_PRELOAD, BASH_ENV, PAGER, GIT_SSH_COMMAND, …).
func sensitiveEnv(name string) bool {
	switch name {
	case "PATH", "BASH_ENV", "ENV", "PAGER", "RIPGREP_CONFIG_PATH", "NODE_OPTIONS", "PROMPT_COMMAND",
		"EDITOR", "VISUAL", "SHELLOPTS", "BASHOPTS", "IFS", "CDPATH", "MANPAGER", "GIT_PAGER", "ZDOTDIR":
		return true
	}
	if stateVariable(name) {
		return true
	}
	for _, p := range []string{"LD_", "LESS", "GIT_", "PYTHON", "PERL5", "DYLD_", "NPM_CONFIG_"} {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

// sensitiveAssignment returns the variable of NAME=value (or of export's
// and declare's NAME=value) when it is sensitive and the value is not an
// inert one (envtable.go).
func sensitiveAssignment(word string) string {
	if !argmodel.IsAssignment(word) {
		return ""
	}
	name, value, _ := strings.Cut(word, "=")
	if n, appends := strings.CutSuffix(name, "+"); appends {
		name, value = n, "+" // NAME+=value: never inert
	}
	if sensitiveEnv(name) && !inertValue(name, value) {
		return name
	}
	return ""
}

// expands reports a command word that is an expansion, a
// glob or a brace: what runs cannot be known.
func (w *walker) expands(word *syntax.Word) bool {
	meta := false
	for _, p := range flattenQuotes(word.Parts) {
		switch part := p.part.(type) {
		case *syntax.Lit:
			if !p.quoted && strings.Contains(part.Value, "{") {
				return true
			}
			meta = meta || (!p.quoted && strings.ContainsAny(part.Value, "*?["))
		case *syntax.SglQuoted:
		default:
			return true
		}
	}
	if !meta {
		return false
	}
	g, _ := w.globText(word) // a lone [ is the test command, not a glob
	return hasGlobMeta(g)
}

// globs reports a word with an unquoted glob character.
func (w *walker) globs(word *syntax.Word) bool {
	for _, p := range flattenQuotes(word.Parts) {
		if lit, ok := p.part.(*syntax.Lit); ok && !p.quoted && strings.ContainsAny(lit.Value, "*?[") {
			return true
		}
	}
	return false
}

// strictFacts sets the strict reason of a simple command's unit and adds
// the walks strict mode makes of what a wrapper it knows runs.
func (w *walker) strictFacts(u *Unit, prog string, words, argWords []*syntax.Word, args []string, sc scope, m *modelRead) []func() {
	if u.Strict == "" && w.expands(words[0]) {
		u.Strict = "the command name is not a literal, so what runs cannot be known"
	}
	if u.Strict == "" && sc.env != "" {
		u.Strict = "runs with " + sc.env + " set, which changes what runs"
	}
	if u.Strict == "" && w.envSet != "" {
		u.Strict = "runs after " + w.envSet + " was set, which changes what runs"
	}
	if reason := m.readCode(); u.Strict == "" {
		u.Strict = reason
	}
	if u.Strict == "" {
		u.Strict = codeArgument(prog, args)
	}
	if reason := w.unitState(prog, words, argWords, args, sc); u.Strict == "" {
		u.Strict = reason
	}
	if prog == "git" {
		w.gitObjectPaths(args, argWords, sc)
	}
	if !m.res.StrictWrapper {
		return nil
	}
	// npx, npm exec, su -c, chrt, tmux: the model finds the command.
	runs := m.res.Runs(m.args)
	if u.Strict == "" {
		u.Strict = prog + " runs another command"
		if prog == "npx" && len(runs) > 0 && !runs[0].Line && !runs[0].Attached && !sc.dir.Unknown {
			if name, lit := w.literal(argWords[m.word(runs[0].Args[0])]); lit {
				u.Installed = localBin(args[:m.word(runs[0].Args[0])], name, sc.dir)
			}
		}
	}
	if len(runs) == 0 {
		return nil
	}
	strictSc := sc
	strictSc.strictOnly = true
	// The words stay the unit's own too: the specification reads them as
	// the wrapper's arguments, which strict mode does not change.
	return w.runsOf(prog, runs, m, args, make([]bool, len(argWords)), strictSc)
}

// stdinOf says where a statement's standard input comes from when it may
// carry a program: a heredoc or a here-string ("" otherwise).
func stdinOf(st *syntax.Stmt) string {
	for _, r := range st.Redirs {
		switch r.Op {
		case syntax.Hdoc, syntax.DashHdoc:
			return "a heredoc"
		case syntax.WordHdoc:
			return "a here-string"
		}
	}
	return ""
}

// inputRedirect is the statement's one redirect of its standard input
// (descriptor 0): nil when it has none, and several set when it has more
// than one (the last wins in bash; regate reads neither).
func inputRedirect(st *syntax.Stmt) (in *syntax.Redirect, several bool) {
	for _, r := range st.Redirs {
		switch r.Op {
		case syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc, syntax.RdrIn, syntax.RdrInOut, syntax.DplIn:
			if !toStdin(r) {
				continue
			}
			if in != nil {
				return in, true
			}
			in = r
		}
	}
	return in, false
}

// stdinText is the text a heredoc or here-string redirect gives as
// standard input when bash gives it literally: a quoted delimiter, or a
// body without expansions (a here-string ends with the newline bash adds).
func (w *walker) stdinText(in *syntax.Redirect) (string, bool) {
	switch in.Op {
	case syntax.Hdoc, syntax.DashHdoc:
		var b strings.Builder
		if in.Hdoc != nil {
			for _, p := range in.Hdoc.Parts {
				lit, ok := p.(*syntax.Lit)
				if !ok {
					return "", false // an expansion in the body
				}
				b.WriteString(lit.Value)
			}
		}
		text := b.String()
		if !quotedDelimiter(in.Word) && strings.ContainsAny(text, "\\$`") {
			return "", false // bash would process the body's escapes
		}
		if in.Op == syntax.DashHdoc {
			text = trimLeadingTabs(text)
		}
		return text, true
	case syntax.WordHdoc:
		text, ok := w.literal(in.Word)
		return text + "\n", ok
	}
	return "", false
}

// stdinFile is the file of a "< FILE" redirect with a literal FILE (""
// otherwise).
func (w *walker) stdinFile(in *syntax.Redirect) string {
	if in.Op != syntax.RdrIn {
		return ""
	}
	text, ok := w.literal(in.Word)
	if !ok {
		return ""
	}
	return text
}

// toStdin reports whether a redirect is of descriptor 0 (none named, or
// 0): 3< FILE opens another descriptor.
func toStdin(r *syntax.Redirect) bool {
	return r.N == nil || r.N.Value == "0"
}

// quotedDelimiter reports whether a heredoc's delimiter is quoted in any
// way (<<'EOF', <<"EOF", <<\EOF): bash then gives its body as written.
func quotedDelimiter(word *syntax.Word) bool {
	for _, p := range word.Parts {
		switch p := p.(type) {
		case *syntax.SglQuoted, *syntax.DblQuoted:
			return true
		case *syntax.Lit:
			if strings.Contains(p.Value, "\\") {
				return true
			}
		}
	}
	return false
}

// trimLeadingTabs removes the tabs that begin each line, as <<- does.
func trimLeadingTabs(s string) string {
	lines := strings.SplitAfter(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimLeft(l, "\t")
	}
	return strings.Join(lines, "")
}

// gitObjectReaders are git's subcommands that print the blobs REV:path
// names (git diff A:x B:y prints both files).
var gitObjectReaders = set("show", "cat-file", "diff", "difftool")

// gitObjectPaths gates the path of git show REV:path (and cat-file's,
// diff's) as a path token strict mode checks: the file is read from the
// repository, under the same rules as reading it from the work tree. The
// path is taken
// relative to the working directory (git's is the repository root unless
// it starts with ./), which is the same for a command run at the root.
func (w *walker) gitObjectPaths(args []string, argWords []*syntax.Word, sc scope) {
	i := skipGlobals("git", args)
	if i < 0 || i >= len(args) || !gitObjectReaders[args[i]] {
		return
	}
	strictSc := sc
	strictSc.strictOnly = true
	for j := i + 1; j < len(args); j++ {
		a := args[j]
		if strings.HasPrefix(a, "-") {
			continue
		}
		if _, p, ok := strings.Cut(a, ":"); ok && p != "" {
			w.token(p, argWords[j], TokenArgument, false, strictSc)
		}
	}
}

// localBin is where npx NAME finds NAME installed in the project it runs
// in (DIR/node_modules/.bin/NAME, spelt as Dir.Path is), or "" when npx
// may fetch a package instead (a --package or -p option, a name with a
// version or a path, a name that is not a literal) or runs outside the
// folder the command starts in.
func localBin(opts []string, name string, dir Dir) string {
	for _, o := range opts {
		if o == "-p" || o == "--package" || strings.HasPrefix(o, "--package=") || (strings.HasPrefix(o, "-p") && !strings.HasPrefix(o, "--")) {
			return ""
		}
	}
	if path.IsAbs(dir.Path) || strings.HasPrefix(dir.Path, "~") || HasDotDot(dir.Path) {
		return "" // a cd out of the project: its packages are not the project's
	}
	if name == "" || strings.ContainsAny(name, "/@\\") || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "-") {
		return ""
	}
	return path.Join(dir.Path, "node_modules", ".bin", name)
}
