package argmodel

import (
	"fmt"
	"sort"
	"strings"
)

// Arg is one word of a command after the program's name, as bash gives it
// to the program, with what regate knows of how bash builds it.
type Arg struct {
	// Text is the word after quote removal; an expansion in it is kept as
	// written.
	Text string
	// Dynamic is set when the word holds an expansion: its value is not
	// known before bash runs.
	Dynamic bool
	// OpenStart is set when what begins the word is not known (it begins
	// with an expansion, or bash may split it): it may begin with "-" and
	// be an option.
	OpenStart bool
	// Glob is set when the word holds an unquoted glob: bash may replace
	// it by file names, several words or none.
	Glob bool
}

// Word is what the program makes of one argument.
type Word struct {
	// Role is Option for an option word with no value in it, Subcommand
	// for the word that names one, else the role of the value the word
	// holds (an operand, an option's separate value, or the value attached
	// to an option: -ofile, --file=x). "" when the parse stopped before it.
	Role string
	// Value is the value the word holds: the whole word, or the part after
	// the option for an attached value.
	Value string
}

// Default is an operand the program uses when none is given (grep -r
// searches "."), with its role.
type Default struct {
	Role, Value string
}

// Result is a command's arguments as the program's model reads them.
type Result struct {
	// Known is set when the program has a model.
	Known bool
	// Words has one entry per argument.
	Words []Word
	// Defaults are the operands the program uses in place of absent ones.
	Defaults []Default
	// Problem says why the model does not understand the arguments (or
	// why an option makes the call ask whatever its value); "" when every
	// argument is understood.
	Problem string
}

// Parse reads a program's arguments as the program does. program is its
// base name; a program without a model gives a Result that is not Known.
func Parse(program string, args []Arg) Result {
	lib := load()
	if lib.err != nil {
		return Result{Known: true, Words: make([]Word, len(args)), Problem: "regate's argument models failed to load: " + lib.err.Error()}
	}
	p := lib.programs[program]
	if p == nil {
		return Result{}
	}
	ps := parser{r: Result{Known: true, Words: make([]Word, len(args))}}
	ps.program(p, args, 0)
	return ps.r
}

type parser struct {
	r Result
	// modes are the modes the options read so far turned on.
	modes []string
}

func (ps *parser) fail(format string, a ...any) {
	if ps.r.Problem == "" {
		ps.r.Problem = fmt.Sprintf(format, a...)
	}
}

// program parses args (the words from off on) as p reads them.
func (ps *parser) program(p *Program, args []Arg, off int) {
	words := ps.r.Words[off : off+len(args)]
	if p.Syntax == syntaxStrings {
		for i, a := range args {
			words[i] = Word{Role: String, Value: a.Text}
		}
		return
	}
	ps.modes = ps.modes[:0]
	var operands []int
	optionsDone, sawOption := false, false
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !optionsDone {
			if a.Text == "--" && !a.Dynamic {
				words[i].Role = Option
				optionsDone = true
				continue
			}
			if a.OpenStart {
				ps.fail("%s: %s is an expansion where %s reads options, so regate cannot tell what it is", p.name, a.Text, p.name)
				return
			}
			if p.PlusCommands != "" && len(a.Text) > 1 && a.Text[0] == '+' {
				ps.fail("%s %s %s", p.name, a.Text, p.PlusCommands)
				return
			}
			if i == 0 && p.LeadingNumber != "" && !a.Dynamic && leadingNumber(a.Text, p.LeadingPlus) {
				words[i] = Word{Role: p.exact[p.LeadingNumber].Role, Value: a.Text[1:]}
				continue
			}
			if p.isOption(a.Text) {
				n, leading, ok := ps.option(p, args, i, words)
				if !ok {
					return
				}
				sawOption = sawOption || !leading
				i += n
				continue
			}
		}
		if p.OperandsFirst && sawOption {
			ps.fail("%s: the operand %s comes after an option, where %s takes none", p.name, a.Text, p.name)
			return
		}
		if p.subs != nil {
			sub := p.subs[a.Text]
			if sub == nil || a.Dynamic {
				ps.fail("%s: the subcommand %s is not in regate's model of %s", p.name, a.Text, p.name)
				return
			}
			words[i] = Word{Role: Subcommand, Value: a.Text}
			ps.program(sub, args[i+1:], off+i+1)
			return
		}
		operands = append(operands, i)
		if p.Stop {
			optionsDone = true
		}
	}
	ps.operands(p, args, words, operands)
}

// isOption reports whether a word is read as an option (not an operand).
func (p *Program) isOption(t string) bool {
	if p.Syntax == syntaxSingle && p.exact[t] != nil {
		return true // find's ( and !
	}
	return len(t) > 1 && t[0] == '-'
}

// option reads the option word args[i] into words, with the words its
// value takes. It returns how many words after args[i] it consumed,
// whether every option in it is a leading one, and false when it is not
// understood.
func (ps *parser) option(p *Program, args []Arg, i int, words []Word) (int, bool, bool) {
	t := args[i].Text
	if p.Syntax == syntaxSingle {
		name, val, hasVal := t, "", false
		if p.Equals {
			name, val, hasVal = strings.Cut(t, "=")
		}
		o := p.exact[name]
		if o == nil && p.DoubleDash && strings.HasPrefix(name, "--") {
			o = p.exact[name[1:]]
		}
		if o == nil {
			ps.fail("%s: the option %s is not in regate's model of %s", p.name, name, p.name)
			return 0, false, false
		}
		n, ok := ps.value(p, o, name, args, i, words, val, hasVal)
		return n, o.Leading, ok
	}
	if strings.HasPrefix(t, "--") {
		name, val, hasVal := strings.Cut(t[2:], "=")
		o, ok := ps.long(p, name)
		if !ok {
			return 0, false, false
		}
		n, ok := ps.value(p, o, "--"+name, args, i, words, val, hasVal)
		return n, o.Leading, ok
	}
	leading := true
	for j := 1; j < len(t); j++ {
		o := p.short[t[j]]
		if o == nil {
			ps.fail("%s: the option -%s (in %s) is not in regate's model of %s", p.name, string(t[j]), t, p.name)
			return 0, false, false
		}
		leading = leading && o.Leading
		if o.Arg == argNone {
			ps.use(p, o, "", false, false)
			continue
		}
		// An option with a value ends the bundle: the rest of the word is
		// its value (-A3, -ie.), or, when there is none, the next word
		// (a required value) or nothing (an optional one).
		rest := t[j+1:]
		n, ok := ps.value(p, o, "-"+string(t[j]), args, i, words, rest, rest != "")
		return n, leading, ok
	}
	words[i] = Word{Role: Option}
	return 0, leading, true
}

// long finds a long option by its name or an unambiguous prefix of it, as
// getopt_long does: several names of one option are not ambiguous.
func (ps *parser) long(p *Program, name string) (*Opt, bool) {
	if o := p.exact["--"+name]; o != nil {
		return o, true
	}
	if p.Exact || name == "" {
		ps.fail("%s: the option --%s is not in regate's model of %s", p.name, name, p.name)
		return nil, false
	}
	k := sort.SearchStrings(p.longs, name)
	var found *Opt
	var matches []string
	for ; k < len(p.longs) && strings.HasPrefix(p.longs[k], name); k++ {
		o := p.exact["--"+p.longs[k]]
		matches = append(matches, "--"+p.longs[k])
		if found != nil && found != o {
			found = nil
			for k++; k < len(p.longs) && strings.HasPrefix(p.longs[k], name); k++ {
				matches = append(matches, "--"+p.longs[k])
			}
			ps.fail("%s: --%s is an ambiguous abbreviation (%s)", p.name, name, strings.Join(matches, ", "))
			return nil, false
		}
		found = o
	}
	if found == nil {
		ps.fail("%s: the option --%s is not in regate's model of %s", p.name, name, p.name)
		return nil, false
	}
	return found, true
}

// value reads an option's value, attached (val, when hasVal) or in the
// next word(s) as its arity says, and records what the option does. It
// returns how many words after args[i] the value took.
func (ps *parser) value(p *Program, o *Opt, spelt string, args []Arg, i int, words []Word, val string, hasVal bool) (int, bool) {
	words[i] = Word{Role: Option}
	switch o.Arg {
	case argNone:
		if hasVal {
			ps.fail("%s: the option %s takes no value", p.name, spelt)
			return 0, false
		}
		return 0, ps.use(p, o, "", false, false)
	case argOptional:
		if hasVal {
			words[i] = Word{Role: o.Role, Value: val}
		}
		return 0, ps.use(p, o, val, hasVal, args[i].Dynamic)
	case argRequired:
		if hasVal {
			words[i] = Word{Role: o.Role, Value: val}
			return 0, ps.use(p, o, val, true, args[i].Dynamic)
		}
		if i+1 >= len(args) {
			ps.fail("%s: the option %s needs a value", p.name, spelt)
			return 0, false
		}
		next := args[i+1]
		if next.Glob && !PathRole(o.Role) {
			ps.fail("%s: bash expands the glob %s before %s reads it as the value of %s", p.name, next.Text, p.name, spelt)
			return 0, false
		}
		words[i+1] = Word{Role: o.Role, Value: next.Text}
		return 1, ps.use(p, o, next.Text, true, next.Dynamic)
	}
	// until: every word up to one of o.Until (that word included) is
	// the value; with no Until, every word left.
	if hasVal {
		words[i] = Word{Role: o.Role, Value: val}
	}
	n := 0
	for j := i + 1; j < len(args); j++ {
		n++
		if !args[j].Dynamic && contains(o.Until, args[j].Text) {
			words[j] = Word{Role: Option}
			return n, ps.use(p, o, "", false, false)
		}
		words[j] = Word{Role: o.Role, Value: args[j].Text}
	}
	if len(o.Until) > 0 {
		ps.fail("%s: the option %s is not ended by %s", p.name, spelt, strings.Join(o.Until, " or "))
		return n, false
	}
	return n, ps.use(p, o, "", false, false)
}

// use records what an option does once read: the modes it sets (and
// those of its value's choice), and its floor. It returns false when its
// value is not one the model knows.
func (ps *parser) use(p *Program, o *Opt, val string, hasVal, dynamic bool) bool {
	ps.modes = append(ps.modes, o.Sets...)
	if o.Floor != "" {
		ps.fail("%s %s %s", p.name, o.Names[0], o.Floor)
	}
	if len(o.Choices) == 0 || !hasVal {
		return true
	}
	choice, ambiguous := "", false
	for _, c := range o.Choices {
		if c == val {
			choice, ambiguous = c, false
			break
		}
		if val != "" && strings.HasPrefix(c, val) {
			ambiguous = choice != ""
			choice = c
		}
	}
	if dynamic || choice == "" || ambiguous {
		ps.fail("%s: %s is not a value of %s that regate's model of %s knows", p.name, val, o.Names[0], p.name)
		return false
	}
	ps.modes = append(ps.modes, o.ChoiceSets[choice]...)
	return true
}

// operands gives each operand the role of the slot that takes it.
func (ps *parser) operands(p *Program, args []Arg, words []Word, operands []int) {
	var front, back []*Slot
	var many *Slot
	for _, s := range p.Operands {
		switch {
		case !ps.active(s):
		case s.Last:
			back = append(back, s)
		case s.Many:
			if many == nil {
				many = s
			}
		case many == nil:
			front = append(front, s)
		}
	}
	k, end := 0, len(operands)
	for _, s := range front {
		if k < end {
			ps.operand(p, args, words, operands[k], s, false)
			k++
		}
	}
	for j := len(back) - 1; j >= 0; j-- {
		if end > k {
			end--
			ps.operand(p, args, words, operands[end], back[j], false)
		}
	}
	switch {
	case many != nil:
		for _, i := range operands[k:end] {
			ps.operand(p, args, words, i, many, p.Assignments)
		}
		if k == end && many.Default != "" {
			ps.r.Defaults = append(ps.r.Defaults, Default{Role: many.Role, Value: many.Default})
		}
	case k < end:
		ps.fail("%s: the operand %s is more than %s takes", p.name, args[operands[k]].Text, p.name)
	}
}

func (ps *parser) operand(p *Program, args []Arg, words []Word, i int, s *Slot, assignments bool) {
	a := args[i]
	if assignments && !a.Dynamic && isAssignment(a.Text) {
		words[i] = Word{Role: Value, Value: a.Text}
		return
	}
	if a.Glob && !PathRole(s.Role) && s.Role != String {
		ps.fail("%s: bash expands the glob %s before %s reads it as a %s", p.name, a.Text, p.name, s.Role)
	}
	words[i] = Word{Role: s.Role, Value: a.Text}
}

// active reports whether a slot counts under the modes set.
func (ps *parser) active(s *Slot) bool {
	for _, m := range s.If {
		if !contains(ps.modes, m) {
			return false
		}
	}
	for _, m := range s.Unless {
		if contains(ps.modes, m) {
			return false
		}
	}
	return true
}

// leadingNumber reports -NUM (and +NUM when plus is allowed).
func leadingNumber(t string, plus bool) bool {
	if len(t) < 2 || (t[0] != '-' && !(plus && t[0] == '+')) {
		return false
	}
	for i := 1; i < len(t); i++ {
		if t[i] < '0' || t[i] > '9' {
			return false
		}
	}
	return true
}

// isAssignment reports NAME=value.
func isAssignment(s string) bool {
	name, _, ok := strings.Cut(s, "=")
	if !ok || name == "" {
		return false
	}
	for i, c := range name {
		if c != '_' && (c < 'a' || c > 'z') && (c < 'A' || c > 'Z') && (i == 0 || c < '0' || c > '9') {
			return false
		}
	}
	return true
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
