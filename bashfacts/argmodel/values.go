package argmodel

import (
	"slices"
	"sort"
	"strings"
)

// isOption reports whether a word is read as an option (not an operand).
func (p *Program) isOption(t string) bool {
	if p.Syntax == syntaxSingle && p.exact[t] != nil {
		return true // find's ( and !
	}
	return len(t) > 1 && (t[0] == '-' || p.Plus && t[0] == '+')
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
	if p.SingleDashLong && !strings.HasPrefix(t, "--") && t[0] == '-' && p.exact["-"+t] != nil {
		t = "-" + t // bash -norc is --norc
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
	return ps.bundle(p, args, i, words, t[1:], false, t[0] == '+')
}

// bundle reads the short options of a bundle (the letters of -rn, of a
// shell's +ex when plus, or tar's old-style first word czf). An option
// with a value ends the bundle: the rest of the word is its value (-A3,
// -ie.), or, when there is none, the next word (a required value) or
// nothing (an optional one).
// In an old-style bundle every option with a value takes the next word
// not yet taken, in order, as tar reads them (tar cfC x.tar dir …).
func (ps *parser) bundle(p *Program, args []Arg, i int, words []Word, letters string, old, plus bool) (int, bool, bool) {
	words[i] = Word{Role: Option}
	leading, next := true, i+1
	for j := 0; j < len(letters); j++ {
		o, spelt := p.short[letters[j]], "-"+letters[j:j+1]
		if po := p.plusShort[letters[j]]; plus && po != nil {
			o, spelt = po, "+"+letters[j:j+1] // mksh's +c is not -c
		}
		if p.ShortPairs && j+1 < len(letters) && p.exact["-"+letters[j:j+2]] != nil {
			o, spelt = p.exact["-"+letters[j:j+2]], "-"+letters[j:j+2]
			j++
		}
		if o == nil {
			ps.fail("%s: the option %s (in %s) is not in regate's model of %s", p.name, spelt, args[i].Text, p.name)
			return 0, false, false
		}
		leading = leading && o.Leading
		switch {
		case o.Arg == argNone || (old && o.Arg == argOptional):
			ps.use(p, o, "", false, false)
		case o.Arg == argAttached:
			k := j + 1
			for k < len(letters) && strings.IndexByte(o.Chars, letters[k]) >= 0 {
				k++
			}
			ps.use(p, o, letters[j+1:k], k > j+1, false)
			j = k - 1
		case old && o.Arg != argRequired && o.Arg != argNext:
			ps.fail("%s: the option %s takes its value in a way regate does not read in %s", p.name, spelt, args[i].Text)
			return 0, false, false
		case (old || o.Arg == argNext) && next >= len(args):
			ps.fail("%s: the option %s needs a value", p.name, spelt)
			return 0, false, false
		case old || o.Arg == argNext:
			if !ps.separate(p, o, spelt, args, next, words) {
				return 0, false, false
			}
			next++
		default:
			rest := letters[j+1:]
			if p.ShortEquals {
				rest = strings.TrimPrefix(rest, "=") // clap reads -A=3 as -A 3
			}
			n, ok := ps.value(p, o, spelt, args, i, words, rest, rest != "")
			return n, leading, ok
		}
	}
	return next - (i + 1), leading, true
}

// long finds a long option by its name or an unambiguous prefix of it, as
// getopt_long does: several names of one option are not ambiguous.
func (ps *parser) long(p *Program, name string) (*Opt, bool) {
	if o := p.exact["--"+name]; o != nil {
		return o, true
	}
	if p.LongFlags && name != "" {
		return longFlag, true
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

// longFlag is a long option a model with long_flags does not list: a
// flag without a value.
var longFlag = &Opt{Names: []string{"--"}, Arg: argNone, Role: Value}

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
			return 0, ps.take(p, o, &words[i], val, args[i])
		}
		return 0, ps.use(p, o, "", false, false)
	case argAttached:
		if hasVal && strings.Trim(val, o.Chars) != "" {
			ps.fail("%s: %s is not a value of %s", p.name, val, spelt)
			return 0, false
		}
		return 0, ps.use(p, o, val, hasVal, false)
	case argMaybe:
		if hasVal {
			return 0, ps.take(p, o, &words[i], val, args[i])
		}
		if i+1 < len(args) && !args[i+1].OpenStart && !(len(args[i+1].Text) > 1 && args[i+1].Text[0] == '-') {
			return 1, ps.separate(p, o, spelt, args, i+1, words)
		}
		return 0, ps.use(p, o, "", false, false)
	case argChoice:
		if hasVal {
			return 0, ps.take(p, o, &words[i], val, args[i])
		}
		if i+1 < len(args) && !args[i+1].Dynamic && slices.Contains(o.Choices, args[i+1].Text) {
			return 1, ps.separate(p, o, spelt, args, i+1, words)
		}
		return 0, ps.use(p, o, "", false, false)
	case argRequired, argNext:
		if hasVal && o.Arg == argNext {
			ps.fail("%s: the option %s takes its value in the next word", p.name, spelt)
			return 0, false
		}
		if hasVal {
			return 0, ps.take(p, o, &words[i], val, args[i])
		}
		if i+1 >= len(args) {
			ps.fail("%s: the option %s needs a value", p.name, spelt)
			return 0, false
		}
		return 1, ps.separate(p, o, spelt, args, i+1, words)
	case argWords:
		if hasVal {
			ps.fail("%s: the option %s takes its values as separate words", p.name, spelt)
			return 0, false
		}
		if i+len(o.Words) >= len(args) {
			ps.fail("%s: the option %s needs %d values", p.name, spelt, len(o.Words))
			return 0, false
		}
		for k, role := range o.Words {
			next := args[i+1+k]
			if next.Glob && !PathRole(role) {
				ps.fail("%s: bash expands the glob %s before %s reads it as a value of %s", p.name, next.Text, p.name, spelt)
				return 0, false
			}
			words[i+1+k] = Word{Role: role, Value: next.Text}
			if k < len(o.WordFilters) {
				words[i+1+k].Filter = o.WordFilters[k]
			}
			if !ps.checkValue(p, role, next.Text) {
				return 0, false
			}
		}
		return len(o.Words), ps.use(p, o, "", false, false)
	}
	return ps.until(p, o, spelt, args, i, words, val, hasVal)
}

// separate reads the value of an option from its own word, args[k].
func (ps *parser) separate(p *Program, o *Opt, spelt string, args []Arg, k int, words []Word) bool {
	next := args[k]
	if next.Glob && !PathRole(o.Role) && len(o.RoleWhen) == 0 {
		ps.fail("%s: bash expands the glob %s before %s reads it as the value of %s", p.name, next.Text, p.name, spelt)
		return false
	}
	return ps.take(p, o, &words[k], next.Text, next)
}

// take records the value v of an option, held by the word w (from the
// argument a), with its role: the option's, a plain value for at_file's
// values without "@", or one decided once every option is read
// (role_when).
func (ps *parser) take(p *Program, o *Opt, w *Word, v string, a Arg) bool {
	*w = Word{Role: o.Role, Value: v, Filter: o.Filter}
	if o.Chdir {
		ps.r.Chdir, ps.r.ChdirUnknown = v, a.Dynamic || v == ""
	}
	if o.AtFile {
		if name, ok := strings.CutPrefix(v, "@"); ok && name != "" {
			w.Value = name
		} else {
			w.Role = Value
		}
	}
	for prefix, role := range o.PrefixRoles {
		if strings.HasPrefix(v, prefix) {
			w.Role = role
		}
	}
	if o.Keywords != nil {
		role, val, name, ok := keyword(o.Keywords, v)
		if !ok {
			ps.fail("%s: %s %q is not a keyword regate's model of %s knows", p.name, o.Names[0], quoted(name), p.name)
			return false
		}
		w.Role, w.Value = role, val
	}
	if o.DownloadDir {
		if a.Dynamic || v == "" {
			ps.fail("%s: cannot tell the folder %s names for the files it saves", p.name, o.Names[0])
			return false
		}
		ps.downloadDir = v
	}
	if o.Form != "" {
		role, val, problem := form(o.Form, w.Role, v, a.Dynamic)
		w.Role, w.Value = role, val
		if problem != "" {
			ps.fail("%s %s %s", p.name, o.Names[0], problem)
		}
	}
	if len(o.RoleWhen) > 0 {
		ps.pending = append(ps.pending, pendingRole{word: w, opt: o, glob: a.Glob && v == a.Text})
	} else if !ps.checkValue(p, w.Role, v) {
		return false
	}
	if len(o.FloorIfContains) > 0 {
		if containsAny(v, o.FloorIfContains) {
			ps.floor("%s %s %s", p.name, o.Names[0], o.Floor)
		}
		return ps.choose(p, o, v, true, a.Dynamic)
	}
	if o.FloorIfOutside {
		if a.Dynamic || leavesFolder(v) {
			ps.floor("%s %s %s", p.name, o.Names[0], o.Floor)
		}
		return ps.choose(p, o, v, true, a.Dynamic)
	}
	return ps.use(p, o, v, true, a.Dynamic)
}

// until reads the words of an option of arity "until": every word up to
// one of o.Until (that word included), or, with until_option, up to a
// word that begins with "-" (left to be read as an option); with no
// Until, or with until_open, the words left when none ends it.
func (ps *parser) until(p *Program, o *Opt, spelt string, args []Arg, i int, words []Word, val string, hasVal bool) (int, bool) {
	if hasVal {
		words[i] = Word{Role: o.Role, Value: val}
	}
	if runs(o.Role) {
		ps.r.Wrapper = true
		if hasVal {
			ps.startRun(i, spelt)
		} else {
			ps.startRun(i+1, spelt)
		}
	}
	n := 0
	for j := i + 1; j < len(args); j++ {
		a := args[j]
		if o.UntilOption && (a.OpenStart || (len(a.Text) > 1 && a.Text[0] == '-')) {
			return n, ps.use(p, o, "", false, false)
		}
		n++
		if !a.Dynamic && contains(o.Until, a.Text) {
			words[j] = Word{Role: Option}
			return n, ps.use(p, o, "", false, false)
		}
		words[j] = Word{Role: o.Role, Value: a.Text}
		if !ps.checkValue(p, o.Role, a.Text) {
			return n, false
		}
	}
	if len(o.Until) > 0 && !o.UntilOpen && !o.UntilOption {
		ps.fail("%s: the option %s is not ended by %s", p.name, spelt, strings.Join(o.Until, " or "))
		return n, false
	}
	return n, ps.use(p, o, "", false, false)
}

// use records what an option does once read: the modes it sets (and
// those of its value's choice), and its floor. It returns false when its
// value is not one the model knows.
func (ps *parser) use(p *Program, o *Opt, val string, hasVal, dynamic bool) bool {
	if o.Chdir && o.Arg == argNone {
		ps.r.Chdir, ps.r.ChdirUnknown = "", true
	}
	if o.Floor != "" && len(o.FloorIfContains) == 0 && !o.FloorIfOutside && !(o.inertValues != nil && hasVal && !dynamic && o.inertValues.MatchString(val)) {
		ps.floor("%s %s %s", p.name, o.Names[0], o.Floor)
	}
	if o.accepts != nil && hasVal && (dynamic || !o.accepts.MatchString(val)) {
		ps.modes = append(ps.modes, ModeMayReject)
	}
	ps.ended = ps.ended || o.Ends
	if m := o.Modules[val]; m != "" && hasVal && !dynamic {
		ps.module = m
	}
	ps.r.StdinCode = ps.r.StdinCode || o.Stdin
	if o.Default != "" && !hasVal {
		ps.r.Defaults = append(ps.r.Defaults, Default{Role: o.Role, Value: o.Default})
	}
	return ps.choose(p, o, val, hasVal, dynamic)
}

// choose records the modes an option sets and checks its value against
// its choices.
func (ps *parser) choose(p *Program, o *Opt, val string, hasVal, dynamic bool) bool {
	ps.modes = append(ps.modes, o.Sets...)
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

// checkValue fails a URL the program reads from the local file system (a
// file: URL, or a scheme spelt with a curl glob that may make one): it
// is a path regate does not read out of the URL. It fails a URL whose
// host follows an @ too: the command's text names another host.
func (ps *parser) checkValue(p *Program, role, v string) bool {
	if role != URL {
		return true
	}
	scheme, _, hasScheme := strings.Cut(v, ":")
	if strings.EqualFold(strings.TrimSpace(scheme), "file") || (hasScheme && strings.ContainsAny(scheme, "{[")) {
		ps.fail("%s: the URL %s reads a local file, which regate does not gate as a path", p.name, v)
		return false
	}
	if strings.Contains(authority(v), "@") {
		ps.fail("%s: the URL %s names its host after an @, so a rule that matches the command's text may see another host than the one reached", p.name, quoted(v))
		return false
	}
	if hostGlob(authority(v)) {
		ps.fail("%s: the URL %s names its hosts with a curl glob, so a rule that matches the command's text may see another host than one reached", p.name, quoted(v))
		return false
	}
	return true
}

// authority is a URL's part between the scheme and the path: its host
// is what follows an "@" in it (http://localhost@example.com reaches
// example.com).
func authority(v string) string {
	if _, rest, ok := strings.Cut(v, "://"); ok {
		v = rest
	}
	if j := strings.IndexAny(v, "/?#"); j >= 0 {
		v = v[:j]
	}
	return v
}

// hostGlob reports an authority that curl's URL globbing makes several
// of: a {a,b} set, or a [..] range that is not an IPv6 literal
// (http://{localhost,example.com}/ fetches from both hosts).
func hostGlob(a string) bool {
	if strings.Contains(a, "{") {
		return true
	}
	if i := strings.IndexByte(a, '['); i >= 0 {
		end := strings.IndexByte(a[i:], ']')
		return end < 0 || strings.Trim(a[i+1:i+end], "0123456789abcdefABCDEF:.%") != ""
	}
	return false
}

// quoted shortens a word for a message.
func quoted(v string) string {
	const max = 40
	if len(v) > max {
		return v[:max-3] + "..."
	}
	return v
}

func containsAny(v string, subs []string) bool {
	for _, s := range subs {
		if strings.Contains(v, s) {
			return true
		}
	}
	return false
}

// leavesFolder reports a folder name that may lead outside the folder the
// command runs in: empty, absolute, a home form, or with a ".." component.
func leavesFolder(v string) bool {
	if v == "" || strings.HasPrefix(v, "/") || strings.HasPrefix(v, "~") {
		return true
	}
	for _, c := range strings.Split(v, "/") {
		if c == ".." {
			return true
		}
	}
	return false
}
