package argmodel

import (
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
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
	Write   = "write"
	Edit    = "edit"
	Tree    = "tree"
	// ListTree is a folder listed recursively (ls -R): its folders are
	// opened, its files only named.
	ListTree = "list-tree"
	Code     = "code"
	URL      = "url"
	String   = "string"
	Value    = "value"
	// Option marks a word that is an option (or options) with no value in
	// it; Subcommand the word that names a subcommand.
	Option     = "option"
	Subcommand = "subcommand"
)

// PathRole reports whether a role names a file or folder the program uses.
func PathRole(role string) bool {
	switch role {
	case Read, List, Write, Edit, Tree, ListTree:
		return true
	}
	return false
}

var roles = map[string]bool{Pattern: true, Read: true, List: true, Write: true, Edit: true, Tree: true,
	ListTree: true, Code: true, URL: true, String: true, Value: true}

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
)

// file is one JSON model file.
type file struct {
	Programs []*Program `json:"programs"`
}

// Program is the model of one program (or subcommand), as written in a
// models/*.json file.
type Program struct {
	Names         []string   `json:"names"`
	Syntax        string     `json:"syntax,omitempty"`
	Exact         bool       `json:"exact,omitempty"`
	Equals        bool       `json:"equals,omitempty"`
	DoubleDash    bool       `json:"double_dash,omitempty"`
	Stop          bool       `json:"stop,omitempty"`
	OperandsFirst bool       `json:"operands_first,omitempty"`
	LeadingNumber string     `json:"leading_number,omitempty"`
	LeadingPlus   bool       `json:"leading_plus,omitempty"`
	Assignments   bool       `json:"assignments,omitempty"`
	PlusCommands  string     `json:"plus_commands,omitempty"`
	Options       []*Opt     `json:"options,omitempty"`
	Operands      []*Slot    `json:"operands,omitempty"`
	Subcommands   []*Program `json:"subcommands,omitempty"`

	// Built by compile.
	short map[byte]*Opt
	exact map[string]*Opt
	longs []string // sorted long names (gnu), for prefix search
	subs  map[string]*Program
	name  string // the program's name, for messages ("git status")
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
	// Leading marks an option that may come before operands_first's
	// operands (find -L).
	Leading bool `json:"leading,omitempty"`
}

// Slot takes operands.
type Slot struct {
	Role    string   `json:"role"`
	Many    bool     `json:"many,omitempty"`
	Last    bool     `json:"last,omitempty"`
	If      []string `json:"if,omitempty"`
	Unless  []string `json:"unless,omitempty"`
	Default string   `json:"default,omitempty"`
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
		dec := json.NewDecoder(strings.NewReader(string(b)))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&f); err != nil {
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

// compile checks a program's model and builds its lookup tables.
func (p *Program) compile(name string) error {
	p.name = name
	if p.Syntax == "" {
		p.Syntax = syntaxGNU
	}
	switch p.Syntax {
	case syntaxGNU, syntaxSingle, syntaxStrings:
	default:
		return fmt.Errorf("%s: unknown syntax %q", name, p.Syntax)
	}
	p.short, p.exact = map[byte]*Opt{}, map[string]*Opt{}
	for _, o := range p.Options {
		if err := o.check(name); err != nil {
			return err
		}
		for _, n := range o.Names {
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
			default:
				return fmt.Errorf("%s: %q is neither -X nor --name", name, n)
			}
		}
	}
	sort.Strings(p.longs)
	if p.LeadingNumber != "" && p.exact[p.LeadingNumber] == nil {
		return fmt.Errorf("%s: leading_number names %s, which is not an option", name, p.LeadingNumber)
	}
	for _, s := range p.Operands {
		if !roles[s.Role] {
			return fmt.Errorf("%s: an operand has the unknown role %q", name, s.Role)
		}
		if s.Default != "" && !s.Many {
			return fmt.Errorf("%s: only a many slot has a default", name)
		}
		if s.Many && s.Last {
			return fmt.Errorf("%s: a slot is many or last, not both", name)
		}
	}
	if len(p.Subcommands) > 0 {
		if !p.Stop {
			return fmt.Errorf("%s: a program with subcommands must stop at its first operand", name)
		}
		p.subs = map[string]*Program{}
		for _, s := range p.Subcommands {
			if len(s.Names) == 0 {
				return fmt.Errorf("%s: a subcommand without names", name)
			}
			if err := s.compile(name + " " + s.Names[0]); err != nil {
				return err
			}
			for _, n := range s.Names {
				if p.subs[n] != nil {
					return fmt.Errorf("%s: the subcommand %s is listed twice", name, n)
				}
				p.subs[n] = s
			}
		}
	}
	return nil
}

func (o *Opt) check(prog string) error {
	if len(o.Names) == 0 {
		return fmt.Errorf("%s: an option without names", prog)
	}
	if o.Arg == "" {
		o.Arg = argNone
	}
	switch o.Arg {
	case argNone, argRequired, argOptional, argUntil:
	default:
		return fmt.Errorf("%s %s: unknown arg %q", prog, o.Names[0], o.Arg)
	}
	if o.Role == "" {
		o.Role = Value
	}
	if !roles[o.Role] {
		return fmt.Errorf("%s %s: unknown role %q", prog, o.Names[0], o.Role)
	}
	if o.Arg == argNone && (o.Role != Value || len(o.Choices) > 0) {
		return fmt.Errorf("%s %s: an option without a value has no role or choices", prog, o.Names[0])
	}
	for c := range o.ChoiceSets {
		if !slices.Contains(o.Choices, c) {
			return fmt.Errorf("%s %s: choice_sets names %q, which is not a choice", prog, o.Names[0], c)
		}
	}
	return nil
}

// Has reports whether a program (by base name) has a model.
func Has(program string) bool {
	return load().programs[program] != nil
}

// Programs lists the programs that have a model, sorted.
func Programs() []string {
	var out []string
	for n := range load().programs {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// LoadError is the error the embedded models failed to load with, nil when
// they loaded.
func LoadError() error { return load().err }
