package bashfacts

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"
)

// Limits (D3). A command past any of them is not decomposed: Extract returns
// an error and the caller treats the command as unparseable, which asks
// unless a rule denies the whole text.
const (
	// MaxBytes bounds the length of a command.
	MaxBytes = 1 << 20
	// MaxDepth bounds how deeply units nest: substitutions, subshells,
	// compound bodies, wrapped commands and -c payloads all count.
	MaxDepth = 64
	// MaxNesting bounds how deeply brackets nest in the text, ( and {
	// counted alike (quoted ones too), and MaxOperators how many pipe and
	// list operators (|, ||, &&, &, |&) it holds. Both are checked before
	// the parse: the parser and the walker recurse once per level of
	// nesting and per operator of a chain, and Go's stack overflow is a
	// fatal error no recover catches (issue 20: a 1 MiB chain took 1.2 GB
	// of stack and killed serve). At the limits the stack stays near 10 MB
	// and 35 MB.
	MaxNesting   = 1000
	MaxOperators = 10000
)

// ErrLimit is wrapped by the errors Extract returns for input past a limit.
var ErrLimit = errors.New("bashfacts: limit exceeded")

// Pos is a position in the command text: a byte offset and a 1-based line
// and column. A unit found inside a -c or eval payload, which is parsed on
// its own, carries the position of the payload word.
type Pos struct {
	Offset int `json:"offset"`
	Line   int `json:"line"`
	Col    int `json:"col"`
}

func (p Pos) String() string { return fmt.Sprintf("%d:%d", p.Line, p.Col) }

// Wrapper kinds (the spec's wrapper floors).
const (
	Opaque      = "opaque"      // bash/sh/dash/zsh/ksh -c, eval
	Indirection = "indirection" // sudo, env, xargs, find -exec, …
)

// Unit is one command the invocation runs, as the bash rules see it.
type Unit struct {
	// Text is the command rebuilt from its words after quote removal,
	// without leading assignments and redirects (R11). A compound statement's
	// text is its source.
	Text string `json:"text"`
	Pos  Pos    `json:"pos"`
	// Origin says where the unit was found, "" at the top level (for example
	// "inside command substitution", "wrapped by sudo").
	Origin string `json:"origin,omitempty"`
	// Program is the program's name as the shell finds it (the base name
	// after quote removal); empty when the name is not a literal.
	Program string `json:"program,omitempty"`
	// Wrapper is Opaque or Indirection when the unit runs another command
	// that its own text does not show.
	Wrapper string `json:"wrapper,omitempty"`
	// Runs is, for a wrapper, the command line it runs (its consumed words
	// joined): what a permission prompt shows as the command that will
	// actually run.
	Runs string `json:"runs,omitempty"`
	// Compound marks the text of a compound statement (if, for, { }, …).
	Compound bool `json:"compound,omitempty"`
	// Dynamic is set when a word of the unit carries an expansion.
	Dynamic bool `json:"dynamic,omitempty"`
	// Unparseable marks a -c or eval payload that does not parse: its text
	// is the unit, and it asks unless a rule denies it.
	Unparseable bool `json:"unparseable,omitempty"`
	// Strict says why strict mode floors the unit to ask (inline code, a
	// wrapper the spec does not list, an argument that runs code or writes,
	// a sensitive environment variable, a command name that is not a
	// literal); "" when it does not.
	Strict string `json:"strict,omitempty"`
	// StrictOnly marks a unit only strict mode evaluates: a command run by
	// a wrapper the spec does not list.
	StrictOnly bool `json:"strict_only,omitempty"`
	// Prefix is the unit's own leading assignments as written when one
	// sets a variable that changes what runs (PAGER='sh -c id' in
	// PAGER='sh -c id' git log), and PrefixStrict why strict mode floors
	// the unit spelt with it: the floor is on that spelling, so that a
	// session approval records the prefix the person saw and another
	// prefix asks again.
	Prefix       string `json:"prefix,omitempty"`
	PrefixStrict string `json:"prefix_strict,omitempty"`
	// Spellings are the unit's text spelt the other ways the program reads
	// it the same: its base name for a program given as a path, its
	// options bundled or apart, in any order, short or long. Strict mode
	// decides them by the rules that name them (docs/strict.md).
	Spellings []string `json:"spellings,omitempty"`
	// Installed is, for npx NAME, where NAME is installed in the project
	// the command runs in (DIR/node_modules/.bin/NAME, spelt as Dir.Path
	// is): when it exists, npx runs it rather than fetching a package, and
	// the facts lift the "runs another command" floor, leaving the wrapped
	// command to its own rules. Empty when npx may fetch.
	Installed string `json:"installed,omitempty"`
	// Plain is the unit's text without its program's inert global options
	// (git --no-pager log is git log, globals.go), when it has any: the
	// facts match it in the unit's own spelling group, in every mode.
	Plain string `json:"plain,omitempty"`
	// Resolved is the unit's text with every word that walks back over a
	// folder (a/../b) spelt as the path it names (resolvedText), when one
	// does: strict mode decides it by the rules, the catch-all included,
	// so that a rule's "*" cannot reach above the folder it names.
	Resolved string `json:"resolved,omitempty"`
}

// Dir is the effective directory at a point of the command, relative to
// where the command starts: "" is that directory, an absolute path or a
// home form ("~/x") replaces it, anything else is relative to it. Unknown
// is set after a cd whose target is not a literal (or cd -).
type Dir struct {
	Path    string `json:"path,omitempty"`
	Unknown bool   `json:"unknown,omitempty"`
	// old is the previous working directory ($OLDPWD, ~-) as a literal cd
	// in the command left it, spelt as Path is; oldKnown is unset before
	// any cd, when the environment's OLDPWD stands.
	old      string
	oldKnown bool
}

// Token kinds.
const (
	TokenArgument = "argument"
	TokenRedirect = "redirect"
	TokenOption   = "option"
	TokenProgram  = "program"
)

// Token is a path candidate: a word the command may use as a file.
type Token struct {
	// Value is the word after quote removal. Home forms (~, $HOME, ${HOME})
	// are kept as written for the caller to expand.
	Value string `json:"value"`
	Pos   Pos    `json:"pos"`
	Kind  string `json:"kind"`
	// Bare is set for a name with no path shape (id_rsa): it is a path only
	// if it names something that exists in Dir.
	Bare bool `json:"bare,omitempty"`
	Dir  Dir  `json:"dir"`
	// Pattern is set when the word has an unquoted glob (* ? [) or brace:
	// the shell turns it into other paths, which strict mode expands.
	Pattern bool `json:"pattern,omitempty"`
	// Glob is the pattern as bash matches it, when it is not Value: quoted
	// characters escaped with a backslash, unquoted escapes kept, extglob
	// groups as written ('*'.en? is \*.en?). Empty when Value is the pattern.
	Glob string `json:"glob,omitempty"`
	// Split is set for a pattern that stands for the paths a loop's glob
	// matched, expanded unquoted ($f of for f in *.go): the shell splits
	// each path into fields and globs them again, so a path with a blank
	// or a glob character is not the word it becomes.
	Split bool `json:"split,omitempty"`
	// StrictOnly marks a token only strict mode gates: one of a command a
	// strict wrapper runs, or the path of git show REV:path.
	StrictOnly bool `json:"strict_only,omitempty"`
	// Writes is set for a redirect that writes the file: WriteCreate for
	// >, >|, &>, >&FILE and <>, WriteAppend for >> and &>>. Strict mode
	// decides such a target on the write (and, appending, edit) surface as
	// well as the path surface.
	Writes string `json:"writes,omitempty"`
	// Role is what the program does with the path, as its argument model
	// reads the command (argmodel.Read, Write, Edit, List, Tree); "" for
	// a program without a model. Strict mode decides the path on the
	// role's surface as well (read, write, edit).
	Role string `json:"role,omitempty"`
	// SpecOnly marks a word the spec's token rules take for a path that
	// the program's argument model reads as a pattern, a string, a value
	// or a URL (grep's --exclude=.env, echo .env): only a policy without
	// strict mode gates it.
	SpecOnly bool `json:"spec_only,omitempty"`
	// Unknown says why the word's path cannot be known: an expansion
	// regate does not resolve stands in a word shaped like a path
	// ($DIR/.env, .en$V, $(cmd)). Such a token is StrictOnly; strict mode
	// asks for it unless a rule denies the word as written (places.go).
	Unknown string `json:"unknown,omitempty"`
	// Filters narrow what a recursive read of the token's folder reads
	// (grep --include, --exclude, --exclude-dir); nil when none.
	Filters *Filters `json:"filters,omitempty"`
	// Pathspecs narrow a history read (role history) to the tracked paths
	// they match, as git matches them: the operands after "--" of git log
	// -p, git show or git diff, when one of them is a glob.
	Pathspecs []string `json:"pathspecs,omitempty"`
	// Listing is set for a word that is $(git ls-files …): the paths it
	// stands for are the index's (listing.go), read by facts.
	Listing *Listing `json:"listing,omitempty"`
	// Into lists, for a write target of cp, mv, install or ln, the base
	// names of the command's other paths: when the target is a folder, the
	// files written are these names inside it.
	Into []string `json:"into,omitempty"`
	// Patch says how the program reads the names of the patch the token
	// names (role patch: git apply's -p and --directory); nil for any
	// other role.
	Patch *PatchNames `json:"patch,omitempty"`
	// Compose says how docker compose locates the project the token's
	// folder holds (role compose); nil for any other role.
	Compose *ComposeOptions `json:"compose,omitempty"`
	// Archive says where an archive the unit extracts (role archive:
	// unzip) writes its entries.
	Archive *ArchiveNames `json:"archive,omitempty"`
}

// PatchNames say how git apply turns the names a patch holds into paths:
// it removes Strip leading components from the names of a traditional
// diff's headers and of a git diff's ---/+++ and diff --git lines (-p, 1
// by default) and prepends Directory (--directory). Unknown says why they
// cannot be known (a value bash expands at run time).
// Text is the patch itself when the program reads it from a heredoc or a
// here-string whose text is literal (git apply <<'EOF'); the token's
// Value is then "-".
type PatchNames struct {
	Strip     int    `json:"strip"`
	Directory string `json:"directory,omitempty"`
	Unknown   string `json:"unknown,omitempty"`
	Text      string `json:"text,omitempty"`
}

// ArchiveNames say how unzip or tar turns an archive's entry names into
// paths: under Directory (unzip -d, tar -C; the token's directory when
// empty), as named, without their first Strip components (tar
// --strip-components) or, with Junk (unzip -j), under their base names
// alone; with Lower (unzip -L), perhaps lowercased. Print is set when the
// program prints the entries' contents (unzip -p, tar -xO): each is read,
// not written. Unknown says why they cannot be known (a value bash
// expands at run time, a folder given twice). Format is how the program reads the archive: "zip" or "tar"
// (argmodel's Program.ArchiveFormat).
type ArchiveNames struct {
	Format    string `json:"format,omitempty"`
	Directory string `json:"directory,omitempty"`
	Strip     int    `json:"strip,omitempty"`
	Junk      bool   `json:"junk,omitempty"`
	Lower     bool   `json:"lower,omitempty"`
	Print     bool   `json:"print,omitempty"`
	Unknown   string `json:"unknown,omitempty"`
}

// ComposeOptions are the options docker compose locates its project by:
// the compose files (-f), the environment files (--env-file) and the
// project's folder (--project-directory), as written, relative to the
// token's directory. Unknown says why one of them cannot be known (its
// value is an expansion).
type ComposeOptions struct {
	Files     []string `json:"files,omitempty"`
	EnvFiles  []string `json:"env_files,omitempty"`
	Directory string   `json:"directory,omitempty"`
	Unknown   string   `json:"unknown,omitempty"`
	// Assigned names every variable the command assigns anywhere (as
	// a prefix, by export, read or a loop): compose interpolates the
	// environment it runs in, so these are not the values the project's
	// .env gives them.
	Assigned []string `json:"assigned,omitempty"`
}

// Filters are globs a recursive read matches against the base names of
// what it finds: only files that match an Include (when there is one),
// not files that match an Exclude, not folders that match an ExcludeDir.
type Filters struct {
	Include    []string `json:"include,omitempty"`
	Exclude    []string `json:"exclude,omitempty"`
	ExcludeDir []string `json:"exclude_dir,omitempty"`
}

// Ways a redirect writes its target (Token.Writes).
const (
	WriteCreate = "create"
	WriteAppend = "append"
)

// Facts are what one command is made of, units and tokens each in source
// order.
type Facts struct {
	Units  []Unit  `json:"units"`
	Tokens []Token `json:"tokens"`
	// FDs are the file descriptors the command's redirects open or
	// duplicate onto (heredocs and here-strings aside): /dev/fd/N names
	// what such a redirect gave it, not the standard stream.
	FDs []int `json:"fds,omitempty"`
}

var parsers = sync.Pool{New: func() any { return syntax.NewParser(syntax.Variant(syntax.LangBash)) }}

// Extract decomposes a bash command into units and path tokens. It returns
// an error, wrapping a *syntax.ParseError or ErrLimit, when the command
// cannot be decomposed; the caller must then treat it as unparseable. An
// empty or comment-only command has no units.
func Extract(src string) (*Facts, error) {
	if len(src) > MaxBytes {
		return nil, fmt.Errorf("%w: the command is %d bytes, more than %d", ErrLimit, len(src), MaxBytes)
	}
	if i := strings.IndexByte(src, 0); i >= 0 {
		return nil, fmt.Errorf("%w: NUL byte at offset %d", ErrLimit, i)
	}
	if err := checkShape(src); err != nil {
		return nil, err
	}
	f, err := parse(src)
	if err != nil {
		return nil, err
	}
	w := &walker{out: &Facts{Units: []Unit{}, Tokens: []Token{}}, src: src, root: f, spent: &budget{}}
	w.stmts(f.Stmts, scope{})
	if w.err != nil {
		return nil, w.err
	}
	w.specUnitless()
	// Source order (R13): left to right; at the same place, what was found
	// first, which is the enclosing unit before the units nested in it.
	slices.SortStableFunc(w.out.Units, func(a, b Unit) int { return cmp.Compare(a.Pos.Offset, b.Pos.Offset) })
	slices.SortStableFunc(w.out.Tokens, func(a, b Token) int { return cmp.Compare(a.Pos.Offset, b.Pos.Offset) })
	return w.out, nil
}

// checkShape refuses, before any parse, a command that nests brackets past
// MaxNesting or chains more than MaxOperators operators.
func checkShape(src string) error {
	depth, operators := 0, 0
	for i := 0; i < len(src); i++ {
		switch c := src[i]; c {
		case '(', '{':
			if depth++; depth > MaxNesting {
				return fmt.Errorf("%w: brackets nest deeper than %d at offset %d", ErrLimit, MaxNesting, i)
			}
		case ')', '}':
			depth = max(depth-1, 0)
		case '|', '&':
			if i+1 < len(src) && (src[i+1] == c || (c == '|' && src[i+1] == '&')) {
				i++ // ||, &&, |& are one operator
			}
			if operators++; operators > MaxOperators {
				return fmt.Errorf("%w: more than %d pipe and list operators", ErrLimit, MaxOperators)
			}
		}
	}
	return nil
}

func parse(src string) (*syntax.File, error) {
	p := parsers.Get().(*syntax.Parser)
	defer parsers.Put(p)
	f, err := p.Parse(strings.NewReader(src), "")
	if err != nil {
		return nil, fmt.Errorf("bashfacts: %w", err)
	}
	return f, nil
}
