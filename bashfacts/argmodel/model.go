package argmodel

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"maps"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
)

// Roles of a word (see the package documentation).
const (
	Pattern = "pattern"
	Read    = "read"
	List    = "list"
	// Stat is a path examined, never opened for its contents (ls -l, stat,
	// find's start points, git ls-files): not a path role, so strict mode
	// leaves it to the base rules as it does a string.
	Stat  = "stat"
	Write = "write"
	Edit  = "edit"
	Tree  = "tree"
	// TreeVisible is a folder read recursively, skipping hidden files and
	// those its ignore files name (rg without --hidden or --no-ignore).
	TreeVisible = "tree-visible"
	// TreeTracked is a folder whose files git tracks are read (git grep, and
	// rg --hidden, which still honours ignore files):
	// what its .gitignore files ignore is skipped.
	TreeTracked = "tree-tracked"
	// ListTree is a folder listed recursively (ls -R): its folders are
	// opened, its files only named.
	ListTree = "list-tree"
	// TreeContext is a build context sent whole to a builder, but for
	// what its .dockerignore excludes (docker build PATH; facts reads the
	// file, facts/dockerignore.go).
	TreeContext = "tree-context"
	// History is a folder of a git repository whose tracked files git
	// reads from its index and history (git log -p, git show, git diff
	// without a pathspec: Program.Whole).
	History = "history"
	// WorktreeChanges is a folder of a git repository whose tracked files
	// git prints where the work tree differs from the index (git diff
	// without a revision or --cached): facts compares each file with the
	// index's record of it, as git does, and reads the ones that differ.
	WorktreeChanges = "worktree-changes"
	// TreeWrite is a folder whose entries a program deletes or changes,
	// each meeting the path and the write rules (rm -r, chmod -R; find …
	// -delete, read by bashfacts: its -name patterns are the filters).
	// Without filters the folder itself is written too.
	TreeWrite = "tree-write"
	// Patch is a patch file the program reads and whose files it writes
	// (git apply): facts reads the patch and gates each file it names as
	// a write (facts/patch.go).
	Patch = "patch"
	// Archive is an archive the program extracts (unzip, tar -x): facts
	// reads its entries and gates each file they make as a write
	// (facts/archive.go). The folder it extracts into (filter
	// "archive-dir": unzip -d, tar -C), the leading components it drops
	// (filter "archive-strip": tar --strip-components) and whether it
	// keeps the entries' folders (the mode "junk-paths", unzip -j:
	// Result.JunkPaths) travel with it.
	Archive = "archive"
	// Compose is the folder a docker compose project is found from: facts
	// loads the project as compose does (facts/compose.go) and gates the
	// files it reads and mounts. The compose options that locate it
	// (-f, --env-file, --project-directory) travel with it (filters
	// compose-file, compose-env-file and compose-directory).
	Compose = "compose"
	// Shell is a word of a command a shell runs on another host, which
	// may be this one (ssh HOST COMMAND): strict mode keeps the spec's
	// reading of it, as a path where it looks like one.
	Shell = "shell"
	// Command is a word of a command the program runs (timeout 5 rm x,
	// find -exec rm {} ;, xargs rm): the first names the program, and the
	// words are decided as a command of their own. CommandLine is a word
	// of a command line a shell joins and parses (watch 'ls | wc', flock
	// FILE -c CMD, env -S 'rm x'). Result.Runs gathers them.
	Command     = "command"
	CommandLine = "command-line"
	// CommandSplit is a word of a command line the program splits into
	// words itself, as GNU env -S does (its own quotes and escapes, no
	// shell), the words taking the option's place among its arguments.
	CommandSplit = "command-split"
	Code         = "code"
	// Args are the words a program hands to the code it runs (python
	// f.py ARGS, node -e CODE ARGS): what that code does with them is not
	// known, so strict mode keeps the specification's reading of them, a
	// path where one looks like a path.
	Args   = "args"
	URL    = "url"
	String = "string"
	Value  = "value"
	// Option marks a word that is an option (or options) with no value in
	// it; Subcommand the word that names a subcommand.
	Option     = "option"
	Subcommand = "subcommand"
)

// Languages of code regate reads (Program.Language).
const (
	Sed = "sed"
	Awk = "awk"
	Jq  = "jq"
)

var languages = map[string]bool{"": true, Sed: true, Awk: true, Jq: true}

// late reports whether a is one of p's LateOptions.
func (p *Program) late(a Arg) bool {
	if a.Dynamic {
		return false
	}
	for _, n := range p.LateOptions {
		if a.Text == n || (len(n) == 2 && strings.HasPrefix(a.Text, n) && p.exact[n] != nil && p.exact[n].Arg != argNone) {
			return true
		}
	}
	return false
}

// PathRole reports whether a role names a file or folder the program uses.
func PathRole(role string) bool {
	switch role {
	case Read, List, Write, Edit, Tree, TreeVisible, TreeTracked, TreeContext, ListTree, History, WorktreeChanges, TreeWrite, Patch, Archive, Compose:
		return true
	}
	return false
}

var roles = map[string]bool{Pattern: true, Read: true, List: true, Write: true, Edit: true, Tree: true,
	TreeVisible: true, TreeTracked: true, TreeContext: true, ListTree: true, History: true, WorktreeChanges: true, TreeWrite: true, Patch: true, Archive: true, Compose: true, Shell: true, Command: true, CommandLine: true, CommandSplit: true, Code: true, Args: true, URL: true, String: true, Value: true, Stat: true}

// filters are the values of an option's filter ("" for none).
var filters = map[string]bool{"": true, FilterInclude: true, FilterExclude: true, FilterExcludeDir: true, FilterStrip: true, FilterDirectory: true,
	FilterArchiveDir: true, FilterArchiveStrip: true, FilterComposeFile: true, FilterComposeEnvFile: true, FilterComposeDirectory: true}

// Syntaxes of a program's options.
const (
	syntaxGNU     = "gnu"
	syntaxSingle  = "single"
	syntaxStrings = "strings"
)

// Arities of an option.
const (
	argNone     = "none"
	argRequired = "required"
	argOptional = "optional"
	argUntil    = "until"
	argWords    = "words"
	// argMaybe is an optional value as Perl's Getopt::Long reads one
	// (":s"): attached, or else the next word unless it begins with "-".
	argMaybe = "maybe"
	// argAttached is a value made of the characters of Opt.Chars, attached
	// to the option's letter in its bundle and never the next word, after
	// which the bundle goes on (perl -l[octal], -0[octal]: -lne is -l -n
	// -e, -0777 is -0 with 777).
	argAttached = "attached"
	// argNext is a value that is always the next word not yet taken,
	// never the rest of the option's word, after which the bundle goes
	// on (bash -oc pipefail CMD is -o pipefail -c CMD; screen -dmS NAME).
	argNext = "next"
	// argChoice is a value that is the next word only when that word is
	// one of the option's choices, and none otherwise (tsc --strict false,
	// tsc --strict src/a.ts).
	argChoice = "choice"
)

// file is one JSON model file.
type file struct {
	Programs []*Program `json:"programs"`
}

// Program is the model of one program (or subcommand), as written in a
// models/*.json file.
type Program struct {
	Names      []string `json:"names"`
	Syntax     string   `json:"syntax,omitempty"`
	Exact      bool     `json:"exact,omitempty"`
	Equals     bool     `json:"equals,omitempty"`
	DoubleDash bool     `json:"double_dash,omitempty"`
	Stop       bool     `json:"stop,omitempty"`
	// StopAfter ends options at the operand after this many (ssh reads
	// options before and after its destination, and none in the command).
	StopAfter     int    `json:"stop_after,omitempty"`
	OperandsFirst bool   `json:"operands_first,omitempty"`
	LeadingNumber string `json:"leading_number,omitempty"`
	LeadingPlus   bool   `json:"leading_plus,omitempty"`
	Assignments   bool   `json:"assignments,omitempty"`
	PlusCommands  string `json:"plus_commands,omitempty"`
	// Wrapper marks one of the specification's indirection wrappers (sudo,
	// env, xargs, timeout, …): it runs a following command, and is one
	// whatever its arguments (Result.Wrapper).
	Wrapper bool `json:"wrapper,omitempty"`
	// StrictWrapper marks a program (or subcommand) that runs another
	// command the specification does not look into (npx, npm exec, su -c,
	// chrt): strict mode floors it, and decides the command it runs as a
	// unit of its own (Result.StrictWrapper).
	StrictWrapper bool `json:"strict_wrapper,omitempty"`
	// StrictRuns is StrictWrapper for a call that runs a command line
	// only (mksh -c CMD, fish -c CMD: mksh FILE runs a script, as python
	// FILE does).
	StrictRuns bool `json:"strict_runs,omitempty"`
	// Opaque marks one of the specification's opaque-payload wrappers
	// (bash, sh, dash, zsh and ksh -c): the command line it runs (a
	// command-line operand) is its payload (Result.Opaque). Its model
	// has no floors, so that a problem always means arguments the model
	// does not understand, which may hide a -c.
	Opaque bool `json:"opaque,omitempty"`
	// Plus: a word beginning with "+" is a bundle of short options as one
	// beginning with "-" is (a shell's +o NAME, +e, +c); an option named
	// "+X" is read for +X in place of -X (mksh's +c turns -c off).
	Plus bool `json:"plus,omitempty"`
	// SingleDashLong: a long option is also spelt with one dash, tried
	// before the word is read as a bundle (bash -norc, -rcfile FILE).
	SingleDashLong bool `json:"single_dash_long,omitempty"`
	// LongFlags: a long option the model does not list is a flag without
	// a value (zsh and ksh take every name of set -o as --NAME and refuse
	// a name they do not know).
	LongFlags bool `json:"long_flags,omitempty"`
	// LateOptions are options the program reads after its first operand
	// even when options stop there (unzip ARCHIVE -x NAMES -d DIR): given
	// as written, or with the value attached to a short one (-dDIR).
	LateOptions []string `json:"late_options,omitempty"`
	// DashEnds: a lone "-" ends the options, as "--" does (bash - FILE).
	DashEnds bool `json:"dash_ends,omitempty"`
	// ArchiveFormat is how the program reads an archive (role archive):
	// "zip" (its central directory, found from the end of the file, as
	// unzip and Python's zipfile read it) or "tar" (GNU tar's headers,
	// through the compression its first bytes name). A file may be both,
	// so the program's own reading is the one that counts.
	ArchiveFormat string `json:"archive_format,omitempty"`
	// Stdin: the program reads code from standard input whatever its
	// arguments (python -m pdb reads debugger commands, python -m code a
	// console's lines): Result.StdinCode, as Opt.Stdin.
	Stdin bool `json:"stdin,omitempty"`
	// Separator is a word that ends a subcommand's words, after which
	// another subcommand follows (tmux new -d CMD \; attach). A word that
	// ends with it is not understood.
	Separator string `json:"separator,omitempty"`
	// SubcommandPrefixes: a subcommand is also named by an unambiguous
	// prefix of its first name (tmux's new-s is new-session); the other
	// names only exactly.
	SubcommandPrefixes bool `json:"subcommand_prefixes,omitempty"`
	// DashDashSets are modes "--" turns on where options are read (php
	// -- ARGS reads its program from standard input, the words after
	// "--" its arguments).
	DashDashSets []string `json:"dash_dash_sets,omitempty"`
	// Language is the language of the program's code (role code) when
	// regate reads it for the files it opens and the commands it runs:
	// "sed" (a GNU sed script), "awk" (an awk program) or "jq" (a jq
	// program, read for what it reads of the environment).
	Language string `json:"language,omitempty"`
	// DashOption is the option a lone "-" stands for where options are
	// read (env - is env -i).
	DashOption string `json:"dash_option,omitempty"`
	Options    []*Opt `json:"options,omitempty"`
	// Persistent are options the program and every subcommand below it
	// read, wherever they stand (kubectl's global flags, as cobra's
	// persistent flags).
	Persistent  []*Opt     `json:"persistent,omitempty"`
	Operands    []*Slot    `json:"operands,omitempty"`
	Subcommands []*Program `json:"subcommands,omitempty"`

	AssignmentsFloor string  `json:"assignments_floor,omitempty"`
	OldBundle        bool    `json:"old_bundle,omitempty"`
	ShortPairs       bool    `json:"short_pairs,omitempty"`
	ShortEquals      bool    `json:"short_equals,omitempty"`
	Negate           bool    `json:"negate,omitempty"`
	Floors           []*Cond `json:"floors,omitempty"`
	// BSDOptions are one-letter options without a dash, read from a word
	// that begins with a letter where options are read (ps aux, ps e);
	// Retry says when the program may reject its first reading at run
	// time and read its arguments again, every dash word as such a word
	// (bsd.go).
	BSDOptions []*Opt  `json:"bsd_options,omitempty"`
	Retry      []*Cond `json:"retry,omitempty"`
	// Whole names what the program reads as a whole, beside its operands,
	// when a Cond's modes hold and no operand follows "--": git log -p,
	// git show and git diff print what the repository's index and history
	// hold (role history) unless a pathspec narrows them; docker compose up
	// loads the project found from the working folder (role compose). It
	// reads as the operand "." in that role.
	Whole []*Cond `json:"whole,omitempty"`
	// WholeNarrows says when glob pathspecs after "--" narrow the whole
	// read instead of asking: when its modes hold and no operand comes
	// before "--" (git diff: the work tree against the index, whose paths
	// are all the read can meet; a revision or --cached reaches paths the
	// index may no longer hold).
	WholeNarrows      *Cond  `json:"whole_narrows,omitempty"`
	DefaultSubcommand string `json:"default_subcommand,omitempty"`
	// Then names the program whose command the words after the first
	// ThenAfter operands are: yarn workspace NAME CMD… runs yarn CMD… in
	// the workspace, pnpm recursive CMD… runs pnpm CMD… in each project.
	Then      string `json:"then,omitempty"`
	ThenAfter int    `json:"then_after,omitempty"`

	// Built by compile.
	inherited  []*Opt // the persistent options of the programs above
	short      map[byte]*Opt
	plusShort  map[byte]*Opt // the options named "+X" (Plus)
	exact      map[string]*Opt
	longs      []string // sorted long names (gnu), for prefix search
	subs       map[string]*subcommand
	subList    []*subcommand // in the model's order (subcommand_prefixes)
	defaultSub *subcommand
	name       string   // the program's name, for messages ("git status")
	bsd        *Program // the options of BSDOptions, by letter
}

// Cond is a floor (reason) or a role that applies when the modes of If
// are all on and those of Unless all off, once every option is read.
type Cond struct {
	If     []string `json:"if,omitempty"`
	Unless []string `json:"unless,omitempty"`
	Reason string   `json:"reason,omitempty"`
	Role   string   `json:"role,omitempty"`
	// Bare limits a Program.Whole read to a call with no operand before
	// "--" (git diff with no revision).
	Bare bool `json:"bare,omitempty"`
}

// Opt is one option of a model.
type Opt struct {
	Names      []string            `json:"names"`
	Arg        string              `json:"arg,omitempty"`
	Until      []string            `json:"until,omitempty"`
	Role       string              `json:"role,omitempty"`
	Sets       []string            `json:"sets,omitempty"`
	Choices    []string            `json:"choices,omitempty"`
	ChoiceSets map[string][]string `json:"choice_sets,omitempty"`
	Floor      string              `json:"floor,omitempty"`
	// FloorIfContains limits Floor to a value holding one of these
	// strings (curl -F name=@file).
	FloorIfContains []string `json:"floor_if_contains,omitempty"`
	// FloorIfOutside limits Floor to a value that may name a folder
	// outside the one the command runs in: absolute, a home form, with a
	// ".." component, or an expansion (git -C DIR below it is cd DIR).
	FloorIfOutside bool `json:"floor_if_outside,omitempty"`
	// Leading marks an option that may come before operands_first's
	// operands (find -L).
	Leading bool `json:"leading,omitempty"`
	// RoleWhen gives the value another role under some modes, decided once
	// every option is read (tar -f is written by -c, read by -t).
	RoleWhen []*Cond `json:"role_when,omitempty"`
	// Words are the roles of the separate words an option of arity
	// "words" takes (jq --rawfile NAME FILE).
	Words []string `json:"words,omitempty"`
	// Default is the file an option of arity "optional" names when it is
	// given without a value (deno run --env-file reads .env), in the
	// option's role.
	Default string `json:"default,omitempty"`
	// WordFilters are the filters of those words, in order ("" for none):
	// python -m zipfile -e ZIP DIR extracts into DIR (archive-dir).
	WordFilters []string `json:"word_filters,omitempty"`
	// AtFile: a value "@NAME" names a file in the option's role; any other
	// value is a plain value (curl -d @file).
	AtFile bool `json:"at_file,omitempty"`
	// PrefixRoles gives a value that begins with a prefix another role
	// (rg -g '!*.env' excludes: a pattern; rg -g .env includes: a read).
	PrefixRoles map[string]string `json:"prefix_roles,omitempty"`
	// UntilOpen lets an "until" value run to the last word when no word
	// of Until ends it (fd -x); UntilOption ends it before a word that
	// begins with "-", which is read as an option (zip -x a b -r).
	UntilOpen   bool `json:"until_open,omitempty"`
	UntilOption bool `json:"until_option,omitempty"`
	// Filter says how the value narrows what a recursive read reads:
	// "include" (only files whose base name matches), "exclude" (not
	// those), "exclude-dir" (not the folders whose base name matches), as
	// grep's --include, --exclude and --exclude-dir; or how the program
	// reads the names of a patch (role patch): "strip" leading components
	// (git apply -p), "directory" prepended to them (--directory); or
	// how docker compose locates its project (role compose):
	// "compose-file" (-f), "compose-env-file" (--env-file),
	// "compose-directory" (--project-directory).
	Filter string `json:"filter,omitempty"`
	// Form says where the path stands in a value that holds more (forms.go):
	// "remote" (HOST:PATH is no local path), "volume" (docker -v
	// SRC:DST[:OPTIONS]), "mount" (docker --mount type=bind,source=…).
	Form string `json:"form,omitempty"`
	// Keywords make the value KEYWORD=VALUE or KEYWORD VALUE, the keyword
	// in any case (ssh -o): VALUE takes the role the map gives the keyword
	// (lower case), and a keyword not in the map is not understood.
	Keywords map[string]string `json:"keywords,omitempty"`
	// DownloadDir: the value is the folder the operands of form download
	// are saved in (wget -P).
	DownloadDir bool `json:"download_dir,omitempty"`
	// Inert marks an option that changes only how the program shows what
	// it does, never what it does or where (git --no-pager): read before
	// a subcommand, a spelling with it is also the spelling without it
	// (Global).
	Inert bool `json:"inert,omitempty"`
	// InertValues is a regular expression of the values that make an
	// option inert, without its floor (git -c core.pager=cat, -c
	// color.ui=always): a value bash expands never is.
	InertValues string `json:"inert_values,omitempty"`
	inertValues *regexp.Regexp
	// Chars are the characters of an attached value (arity "attached").
	Chars string `json:"chars,omitempty"`
	// Ends: options end after this one, and every word after it is an
	// operand whatever it looks like (python -c CMD and -m MOD: the words
	// after them are the program's arguments).
	Ends bool `json:"ends,omitempty"`
	// Modules: a value that names one of these modules hands the words
	// after it to the model of the program the map gives, which reads
	// them as the module does (python -m pytest -x is pytest -x; pip,
	// black and mypy too). A module not in the map keeps the option's
	// own reading.
	Modules map[string]string `json:"modules,omitempty"`
	// Stdin: the program reads its code from standard input (bash -s:
	// Result.StdinCode).
	Stdin bool `json:"stdin,omitempty"`
	// Accepts is a regular expression of the values the program always
	// accepts; another value, or one bash expands, may be rejected at
	// run time, and turns on the mode may-reject (ps -u NAME: a user
	// that does not exist).
	Accepts string `json:"accepts,omitempty"`
	accepts *regexp.Regexp
	// Chdir: the commands the program runs start in the value's folder
	// (env -C DIR, sudo -D DIR), or, on an option without a value, in one
	// regate cannot name (su -l and sudo -i start in the user's home).
	Chdir bool `json:"chdir,omitempty"`
}

// Filters of a recursive read (Opt.Filter).
const (
	FilterInclude    = "include"
	FilterExclude    = "exclude"
	FilterExcludeDir = "exclude-dir"
	FilterStrip      = "strip"
	FilterDirectory  = "directory"

	FilterArchiveDir   = "archive-dir"
	FilterArchiveStrip = "archive-strip"

	FilterComposeFile      = "compose-file"
	FilterComposeEnvFile   = "compose-env-file"
	FilterComposeDirectory = "compose-directory"
)

// Modes bashfacts reads of an archive's program (Result.JunkPaths,
// Result.PrintEntries): an option that writes the entries under their base
// names alone (unzip -j), or prints their contents rather than writing
// them (unzip -p, tar -xO).
const (
	ModeJunkPaths    = "junk-paths"
	ModeLowerNames   = "lower-names"
	ModePrintEntries = "print-entries"
)

// Slot takes operands.
type Slot struct {
	// Role is the role of the slot's operands; "" for an Assign slot.
	Role    string   `json:"role,omitempty"`
	Many    bool     `json:"many,omitempty"`
	Last    bool     `json:"last,omitempty"`
	If      []string `json:"if,omitempty"`
	Unless  []string `json:"unless,omitempty"`
	Default string   `json:"default,omitempty"`
	// Floor is a reason an operand in this slot makes the call ask (git
	// config NAME VALUE sets configuration), limited by FloorIfContains.
	Floor           string   `json:"floor,omitempty"`
	FloorIfContains []string `json:"floor_if_contains,omitempty"`
	// Assign makes the slot's operands NAME=value, the value in the role
	// its NAME maps to (dd's if=FILE is read, of=FILE written, bs=N a
	// value); an operand without "=", or whose NAME is not in the map, is
	// not understood.
	Assign map[string]string `json:"assign,omitempty"`
	// Form is the form of the slot's operands (Opt.Form).
	Form string `json:"form,omitempty"`
	// LineFlags, on a command slot, are words that, first in it, make the
	// one word after them a command line (flock FILE -c CMD); matched
	// exactly, as flock compares them.
	LineFlags []string `json:"line_flags,omitempty"`
	// Program marks the slot whose operand is the file holding the code
	// the program runs (python f.py, node f.js); "-", or no operand while
	// the slot applies, is standard input (Result.StdinCode).
	Program bool `json:"program,omitempty"`
	// Sources, on a command slot, end the command at the first word that
	// is one of its keys (parallel's :::, ::::): the words after each
	// take the role it maps to, up to the next such word. With no command
	// before the first, the words of a "shell" source are each a command
	// line the program runs (parallel ::: 'rm x' 'ls').
	Sources map[string]string `json:"sources,omitempty"`
	// Include narrows a recursive read of the slot's operands to the
	// files whose base name matches one of these patterns, as grep's
	// --include does (gofmt reads the *.go files below its folders).
	Include []string `json:"include,omitempty"`
	// Each, on a command-line slot, makes every operand a command line
	// of its own (tmux send-keys types each key: 'ls' Enter 'rm x' Enter).
	Each bool `json:"each,omitempty"`
	// As, on a command-line slot, names the program the line is given to
	// (tmux: if-shell's commands are tmux commands, read as tmux LINE).
	As string `json:"as,omitempty"`
}

//go:embed models/*.json
var modelFiles embed.FS

// library is every program's model by name, or why the models could not
// be loaded (which makes every modelled call not understood: a fault
// never becomes allow).
type library struct {
	programs map[string]*Program
	err      error
}

// load decodes and checks every model (LoadError); a call decodes only the
// model of its program (lookup).
var load = sync.OnceValue(func() library {
	progs, err := decode(modelFiles)
	return library{programs: progs, err: err}
})

// decode reads and checks every model file of fsys.
func decode(fsys fs.FS) (map[string]*Program, error) {
	names, err := fs.Glob(fsys, "models/*.json")
	if err != nil {
		return nil, fmt.Errorf("argmodel: %w", err)
	}
	out := map[string]*Program{}
	for _, n := range names {
		b, err := fs.ReadFile(fsys, n)
		if err != nil {
			return nil, fmt.Errorf("argmodel: %w", err)
		}
		var f file
		if err := decodeStrict(b, &f); err != nil {
			return nil, fmt.Errorf("argmodel: %s: %w", n, err)
		}
		for _, p := range f.Programs {
			if len(p.Names) == 0 {
				return nil, fmt.Errorf("argmodel: %s: a program without names", n)
			}
			if err := p.compile(p.Names[0]); err != nil {
				return nil, fmt.Errorf("argmodel: %s: %w", n, err)
			}
			for _, name := range p.Names {
				if _, dup := out[name]; dup {
					return nil, fmt.Errorf("argmodel: %s: %s has two models", n, name)
				}
				out[name] = p
			}
		}
	}
	return out, nil
}

// decodeStrict decodes JSON refusing unknown fields: a misspelt key in a
// model would otherwise drop what it says.
func decodeStrict(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}

// compile checks a program's model and builds its lookup tables, its
// subcommands' included.
func (p *Program) compile(name string) error {
	if err := p.compileBody(name); err != nil {
		return err
	}
	var subs []*subcommand
	inherit := p.persistent()
	for _, s := range p.Subcommands {
		if len(s.Names) == 0 {
			return fmt.Errorf("%s: a subcommand without names", name)
		}
		s.inherited = inherit
		if err := s.compile(name + " " + s.Names[0]); err != nil {
			return err
		}
		sub := &subcommand{names: s.Names, p: s, inherit: inherit}
		sub.once.Do(func() {})
		subs = append(subs, sub)
	}
	return p.compileSubs(name, subs)
}

// compileBody is compile but for the subcommands.
func (p *Program) compileBody(name string) error {
	p.name = name
	if p.Syntax == "" {
		p.Syntax = syntaxGNU
	}
	switch p.Syntax {
	case syntaxGNU, syntaxSingle, syntaxStrings:
	default:
		return fmt.Errorf("%s: unknown syntax %q", name, p.Syntax)
	}
	if !languages[p.Language] {
		return fmt.Errorf("%s: unknown language %q", name, p.Language)
	}
	p.short, p.exact, p.plusShort = map[byte]*Opt{}, map[string]*Opt{}, nil
	own := len(p.Options) + len(p.Persistent)
	for i, o := range slices.Concat(p.Options, p.Persistent, p.inherited) {
		if err := o.check(name); err != nil {
			return err
		}
		for _, n := range o.Names {
			if p.exact[n] != nil && i >= own {
				continue // a persistent option of a program above, shadowed here (cobra's rule)
			}
			if p.exact[n] != nil {
				return fmt.Errorf("%s: the option %s is listed twice", name, n)
			}
			p.exact[n] = o
			if p.Syntax != syntaxGNU {
				continue
			}
			switch {
			case strings.HasPrefix(n, "--") && len(n) > 2:
				p.longs = append(p.longs, n[2:])
			case len(n) == 2 && n[0] == '-' && n[1] != '-':
				p.short[n[1]] = o
			case p.Plus && len(n) == 2 && n[0] == '+' && n[1] != '+':
				if p.plusShort == nil {
					p.plusShort = map[byte]*Opt{}
				}
				p.plusShort[n[1]] = o
			case p.ShortPairs && len(n) == 3 && n[0] == '-' && n[1] != '-':
				// zip's -tt, read before -t in a bundle
			default:
				return fmt.Errorf("%s: %q is neither -X nor --name", name, n)
			}
		}
	}
	if p.Negate {
		p.negations()
	}
	if err := p.compileBSD(name); err != nil {
		return err
	}
	sort.Strings(p.longs)
	if err := p.checkProgram(name); err != nil {
		return err
	}
	for _, o := range p.Options {
		for module, program := range o.Modules {
			if _, ok := programIndex[program]; !ok || !o.Ends {
				return fmt.Errorf("%s: %s's module %s needs an option that ends the options and a program with a model, not %s", name, o.Names[0], module, program)
			}
		}
	}
	if p.Then != "" {
		if _, ok := programIndex[p.Then]; !ok || !p.Stop || p.ThenAfter < 0 {
			return fmt.Errorf("%s: then names %s, which needs a model, and a program whose options stop at its operands", name, p.Then)
		}
	}
	for _, n := range p.LateOptions {
		if p.exact[n] == nil {
			return fmt.Errorf("%s: late_options names %s, which is not an option", name, n)
		}
	}
	if p.LeadingNumber != "" && p.exact[p.LeadingNumber] == nil {
		return fmt.Errorf("%s: leading_number names %s, which is not an option", name, p.LeadingNumber)
	}
	if p.DashOption != "" && p.exact[p.DashOption] == nil {
		return fmt.Errorf("%s: dash_option names %s, which is not an option", name, p.DashOption)
	}
	for _, s := range p.Operands {
		if err := s.check(name); err != nil {
			return err
		}
		if s.Default != "" && !s.Many {
			return fmt.Errorf("%s: only a many slot has a default", name)
		}
		if s.Program && (s.Many || s.Last || s.Role != Read) {
			return fmt.Errorf("%s: a program slot takes one operand, first, in the role read", name)
		}
		if s.Many && s.Last {
			return fmt.Errorf("%s: a slot is many or last, not both", name)
		}
		if runs(s.Role) && !s.line() && (!s.Many || s.Default != "" || s.Form != "" || (s.Floor != "" && len(s.FloorIfContains) == 0)) {
			return fmt.Errorf("%s: a %s slot takes every operand left (many), with no default, form or floor but one limited by floor_if_contains, or is one command line", name, s.Role)
		}
		if len(s.Include) > 0 && s.Role != Tree && s.Role != TreeVisible {
			return fmt.Errorf("%s: include goes on a tree slot", name)
		}
		if (s.Each || s.As != "") && s.Role != CommandLine {
			return fmt.Errorf("%s: each and as go on a command-line slot", name)
		}
		if len(s.LineFlags) > 0 && s.Role != Command {
			return fmt.Errorf("%s: line_flags go on a command slot", name)
		}
		for _, k := range slices.Sorted(maps.Keys(s.Sources)) {
			if !runs(s.Role) || !roles[s.Sources[k]] {
				return fmt.Errorf("%s: sources go on a command slot, with known roles: %s", name, k)
			}
		}
	}
	return nil
}

// subcommand is one subcommand's model, decoded and checked on first use
// when its program was looked up lazily (lookup): git's model holds some
// sixty of them, and a call uses one.
type subcommand struct {
	names   []string
	inherit []*Opt // the persistent options of the programs above it
	raw     []byte
	once    sync.Once
	p       *Program
	err     error
}

// program returns the subcommand's model, decoding it on first use.
func (s *subcommand) program(parent string) (*Program, error) {
	s.once.Do(func() {
		var p Program
		if err := decodeStrict(s.raw, &p); err != nil {
			s.err = fmt.Errorf("%s %s: %w", parent, s.names[0], err)
			return
		}
		p.inherited = s.inherit
		if err := p.compile(parent + " " + s.names[0]); err != nil {
			s.err = err
			return
		}
		s.p = &p
	})
	return s.p, s.err
}

// persistent are the options p's subcommands inherit: its own persistent
// options and those it inherits.
func (p *Program) persistent() []*Opt {
	return slices.Concat(p.inherited, p.Persistent)
}

// compileSubs indexes the subcommands of the program name.
func (p *Program) compileSubs(name string, subs []*subcommand) error {
	for _, s := range subs {
		if s.inherit == nil {
			s.inherit = p.persistent()
		}
	}
	if len(subs) > 0 && !p.Stop {
		return fmt.Errorf("%s: a program with subcommands must stop at its first operand", name)
	}
	if len(subs) > 0 {
		p.subs, p.subList = map[string]*subcommand{}, subs
	}
	for _, s := range subs {
		for _, n := range s.names {
			if p.subs[n] != nil {
				return fmt.Errorf("%s: the subcommand %s is listed twice", name, n)
			}
			p.subs[n] = s
		}
	}
	if p.DefaultSubcommand != "" {
		if p.defaultSub = p.subs[p.DefaultSubcommand]; p.defaultSub == nil {
			return fmt.Errorf("%s: default_subcommand names %s, which is not a subcommand", name, p.DefaultSubcommand)
		}
	}
	return nil
}

// negations adds --no-NAME, taking no value, for every long option that
// sets no mode (git's parse-options and curl accept it): a negation that
// would turn a mode off is left out, so that it is not understood rather
// than read as leaving the mode on.
func (p *Program) negations() {
	for _, o := range p.Options {
		if len(o.Sets) > 0 || len(o.ChoiceSets) > 0 {
			continue
		}
		for _, n := range o.Names {
			if !strings.HasPrefix(n, "--") || strings.HasPrefix(n, "--no-") {
				continue
			}
			neg := "--no-" + n[2:]
			if p.exact[neg] != nil {
				continue
			}
			p.exact[neg] = &Opt{Names: []string{neg}, Arg: argNone, Role: Value}
			p.longs = append(p.longs, neg[2:])
		}
	}
}

// checkProgram checks a program's own fields.
func (p *Program) checkProgram(name string) error {
	if p.ArchiveFormat != "" && p.ArchiveFormat != "zip" && p.ArchiveFormat != "tar" {
		return fmt.Errorf("%s: archive_format is zip or tar, not %q", name, p.ArchiveFormat)
	}
	if p.Opaque && (len(p.Floors) > 0 || !slices.ContainsFunc(p.Operands, (*Slot).line) ||
		slices.ContainsFunc(p.Options, func(o *Opt) bool { return o.Floor != "" })) {
		return fmt.Errorf("%s: an opaque wrapper has a command-line operand and no floors", name)
	}
	if (p.Plus || p.SingleDashLong || p.LongFlags) && p.Syntax != syntaxGNU {
		return fmt.Errorf("%s: plus, single_dash_long and long_flags are gnu syntax", name)
	}
	if p.StrictRuns && (p.StrictWrapper || p.Opaque || p.Wrapper) {
		return fmt.Errorf("%s: strict_runs is a wrapper only when it runs a command line", name)
	}
	if p.LongFlags && !p.Exact {
		return fmt.Errorf("%s: long_flags reads exact names only", name)
	}
	if p.AssignmentsFloor != "" && !p.Assignments {
		return fmt.Errorf("%s: assignments_floor without assignments", name)
	}
	if (p.OldBundle || p.ShortPairs || p.ShortEquals || p.Negate) && p.Syntax != syntaxGNU {
		return fmt.Errorf("%s: old_bundle, short_pairs, short_equals and negate are gnu syntax", name)
	}
	for _, c := range p.Floors {
		if c.Reason == "" || c.Role != "" {
			return fmt.Errorf("%s: a floor has a reason and no role", name)
		}
	}
	for _, c := range p.Whole {
		if (c.Role != History && c.Role != WorktreeChanges && c.Role != Compose) || c.Reason != "" {
			return fmt.Errorf("%s: whole reads in the role history, worktree-changes or compose, with no reason", name)
		}
	}
	for _, s := range p.Operands {
		if len(s.FloorIfContains) > 0 && s.Floor == "" {
			return fmt.Errorf("%s: an operand has floor_if_contains without floor", name)
		}
	}
	return nil
}

// line reports whether a slot takes one operand that is a command line
// a shell parses (bash -c CMD).
func (s *Slot) line() bool {
	return s.Role == CommandLine && !s.Many && !s.Last && s.Default == "" && s.Form == "" && s.Floor == "" && !s.Program
}

// subcommand returns the subcommand a word names: by one of its names,
// or, where the program allows it, by an unambiguous prefix of its first.
func (p *Program) subcommand(word string) *subcommand {
	if s := p.subs[word]; s != nil || !p.SubcommandPrefixes || word == "" {
		return s
	}
	var found *subcommand
	for _, s := range p.subList {
		if strings.HasPrefix(s.names[0], word) {
			if found != nil {
				return nil // ambiguous
			}
			found = s
		}
	}
	return found
}

// check checks a slot's role, or the roles of its assignments.
func (s *Slot) check(prog string) error {
	if s.Form != "" && (!forms[s.Form] || s.Assign != nil) {
		return fmt.Errorf("%s: an operand has the unknown form %q, or a form and assign", prog, s.Form)
	}
	if s.Assign == nil {
		if !roles[s.Role] {
			return fmt.Errorf("%s: an operand has the unknown role %q", prog, s.Role)
		}
		return nil
	}
	if s.Role != "" || s.Default != "" || s.Floor != "" {
		return fmt.Errorf("%s: an assign slot takes its roles from assign, and has no default or floor", prog)
	}
	if len(s.Assign) == 0 {
		return fmt.Errorf("%s: an assign slot names no assignment", prog)
	}
	for _, n := range slices.Sorted(maps.Keys(s.Assign)) {
		if n == "" || strings.Contains(n, "=") {
			return fmt.Errorf("%s: assign names %q, which is no NAME of NAME=value", prog, n)
		}
		if r := s.Assign[n]; !roles[r] {
			return fmt.Errorf("%s: assign gives %s the unknown role %q", prog, n, r)
		}
	}
	return nil
}

func (o *Opt) check(prog string) error {
	if !filters[o.Filter] {
		return fmt.Errorf("%s: option %s: unknown filter %q", prog, o.Names[0], o.Filter)
	}
	if len(o.Names) == 0 {
		return fmt.Errorf("%s: an option without names", prog)
	}
	if o.Arg == "" {
		o.Arg = argNone
	}
	switch o.Arg {
	case argNone, argRequired, argOptional, argUntil, argWords, argMaybe, argAttached, argNext, argChoice:
	default:
		return fmt.Errorf("%s %s: unknown arg %q", prog, o.Names[0], o.Arg)
	}
	if o.Role == "" {
		o.Role = Value
	}
	if o.InertValues != "" {
		re, err := regexp.Compile(o.InertValues)
		if err != nil || o.Arg == argNone || o.Floor == "" || len(o.FloorIfContains) > 0 || o.FloorIfOutside {
			return fmt.Errorf("%s %s: inert_values needs a value, a floor without limits and a regular expression: %v", prog, o.Names[0], err)
		}
		o.inertValues = re
	}
	if o.Accepts != "" {
		re, err := regexp.Compile(o.Accepts)
		if err != nil || o.Arg == argNone {
			return fmt.Errorf("%s %s: accepts needs a value and a regular expression: %v", prog, o.Names[0], err)
		}
		o.accepts = re
	}
	if !roles[o.Role] {
		return fmt.Errorf("%s %s: unknown role %q", prog, o.Names[0], o.Role)
	}
	if o.Arg == argChoice && len(o.Choices) == 0 {
		return fmt.Errorf("%s %s: the arity \"choice\" needs choices", prog, o.Names[0])
	}
	if o.Arg == argNone && (o.Role != Value || len(o.Choices) > 0) {
		return fmt.Errorf("%s %s: an option without a value has no role or choices", prog, o.Names[0])
	}
	for c := range o.ChoiceSets {
		if !slices.Contains(o.Choices, c) {
			return fmt.Errorf("%s %s: choice_sets names %q, which is not a choice", prog, o.Names[0], c)
		}
	}
	return o.checkExtras(prog)
}

// checkExtras checks the fields that refine an option's value.
func (o *Opt) checkExtras(prog string) error {
	bad := func(why string) error { return fmt.Errorf("%s %s: %s", prog, o.Names[0], why) }
	if (o.Arg == argWords) != (len(o.Words) > 0) {
		return bad(`words go with the arity "words"`)
	}
	if (o.Arg == argAttached) != (o.Chars != "") {
		return bad(`chars go with the arity "attached"`)
	}
	for _, r := range o.Words {
		if !roles[r] {
			return bad("unknown role " + r)
		}
	}
	if o.Default != "" && (o.Arg != argOptional || !PathRole(o.Role)) {
		return bad(`a default goes with the arity "optional" and a path role`)
	}
	if len(o.WordFilters) > 0 && (len(o.WordFilters) != len(o.Words) || o.Filter != "") {
		return bad("word_filters give each of the words its filter, in place of filter")
	}
	for _, f := range o.WordFilters {
		if !filters[f] {
			return bad("unknown filter " + f)
		}
	}
	if o.Arg == argWords && (o.Role != Value || len(o.Choices) > 0 || o.AtFile || len(o.RoleWhen) > 0) {
		return bad("an option of several words has roles only in words")
	}
	if o.Role == Command && o.Arg != argUntil {
		return bad(`a command is the words of an option of arity "until"`)
	}
	if (o.Role == CommandLine || o.Role == CommandSplit) && o.Arg != argUntil && o.Arg != argRequired {
		return bad("a command line is a required value or the words up to an end")
	}
	if (o.UntilOpen || o.UntilOption) && o.Arg != argUntil {
		return bad(`until_open and until_option go with the arity "until"`)
	}
	if (o.AtFile || len(o.PrefixRoles) > 0) && o.Arg == argNone {
		return bad("at_file and prefix_roles need a value")
	}
	for _, r := range o.PrefixRoles {
		if !roles[r] {
			return bad("prefix_roles names the unknown role " + r)
		}
	}
	if len(o.FloorIfContains) > 0 && o.Floor == "" {
		return bad("floor_if_contains without floor")
	}
	if o.FloorIfOutside && (o.Floor == "" || o.Arg == argNone || len(o.FloorIfContains) > 0) {
		return bad("floor_if_outside needs a floor, a value and no floor_if_contains")
	}
	for _, c := range o.RoleWhen {
		if !roles[c.Role] || c.Reason != "" {
			return bad("role_when needs a known role and no reason")
		}
	}
	if o.Form != "" && (!forms[o.Form] || o.Arg == argNone || o.Arg == argWords) {
		return bad("form names a known form and needs a value")
	}
	for _, k := range slices.Sorted(maps.Keys(o.Keywords)) {
		if k == "" || k != strings.ToLower(k) || !roles[o.Keywords[k]] {
			return bad("keywords are lower case and have known roles: " + k)
		}
	}
	if o.DownloadDir && (o.Arg == argNone || o.Arg == argWords) {
		return bad("download_dir needs a value")
	}
	if o.Keywords != nil && (o.Arg == argNone || o.Arg == argWords || o.Form != "" || o.AtFile) {
		return bad("keywords need a value, and no form or at_file")
	}
	return nil
}

// Global describes an option that a program with subcommands reads
// before its subcommand (git -C, --no-pager), by its exact name: whether
// it takes the next word as its value (--opt=value carries its own),
// and whether it is inert (Opt.Inert). known is false for a name that is
// no such option, and for every name of a program without subcommands.
func Global(program, name string) (value, inert, known bool) {
	o := global(program, name)
	if o == nil {
		return false, false, false
	}
	return o.Arg == argRequired, o.Inert, true
}

// InertValue reports whether the global option name of program, given
// value, is inert (Opt.InertValues): git -c core.pager=cat.
func InertValue(program, name, value string) bool {
	o := global(program, name)
	return o != nil && o.inertValues != nil && o.inertValues.MatchString(value)
}

// global is the option a program with subcommands reads before its
// subcommand by the exact name, nil when there is none.
func global(program, name string) *Opt {
	p, err := lookup(program)
	if err != nil || p == nil || len(p.Subcommands) == 0 && p.subs == nil {
		return nil
	}
	o := p.exact[name]
	if o == nil || !slices.Contains(p.Options, o) && !slices.Contains(p.Persistent, o) {
		return nil
	}
	return o
}

// Has reports whether a program (by base name) has a model.
func Has(program string) bool {
	_, ok := programIndex[program]
	return ok
}

// Programs lists the programs that have a model, sorted.
func Programs() []string {
	var out []string
	for n := range programIndex {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// LoadError is the error the embedded models failed to load with, nil when
// they loaded.
func LoadError() error { return load().err }
