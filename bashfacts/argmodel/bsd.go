package argmodel

import "fmt"

// BSD options and the second reading.
//
// procps's ps reads three kinds of option: "-ef" (System V, a bundle
// after a dash), "aux" (BSD, a bundle without one) and "--sort" (GNU).
// The same letter means different things in the two bundles: -e selects
// every process, e prints each one's environment, secrets included. And
// when ps rejects its arguments (an option it does not take, a user that
// does not exist, thread and tree views together), it does not stop: it
// reads every argument again, each dash bundle as a BSD one (ps -aux is
// ps aux; ps -uxe, for want of a user "xe", prints environments). A
// model reads both ways when the second may happen.

// ModeMayReject is the mode an option of Opt.Accepts turns on for a value
// the program may reject at run time.
const ModeMayReject = "may-reject"

// compileBSD builds p.bsd, the view of p that reads a BSD bundle.
func (p *Program) compileBSD(name string) error {
	if len(p.BSDOptions) == 0 {
		if len(p.Retry) > 0 {
			return fmt.Errorf("%s: retry needs bsd_options", name)
		}
		return nil
	}
	if p.Syntax != syntaxGNU || len(p.Subcommands) > 0 || p.OldBundle || p.Plus {
		return fmt.Errorf("%s: bsd_options go on a gnu program without subcommands, old_bundle or plus", name)
	}
	v := &Program{Syntax: syntaxGNU, name: name, short: map[byte]*Opt{}, exact: map[string]*Opt{}}
	for _, o := range p.BSDOptions {
		if err := o.check(name); err != nil {
			return err
		}
		for _, n := range o.Names {
			if len(n) != 1 || !letter(n[0]) {
				return fmt.Errorf("%s: the BSD option %q is not one letter", name, n)
			}
			if v.short[n[0]] != nil {
				return fmt.Errorf("%s: the BSD option %s is listed twice", name, n)
			}
			v.short[n[0]] = o
		}
	}
	p.bsd = v
	return nil
}

func letter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

// bsdWord reads a, where p reads options, as a BSD bundle when it is one:
// a word that begins with a letter, or in the second reading a dash and a
// letter. It returns how many words after a the bundle's values took, and
// whether a was one; ok is false when the parse failed.
func (ps *parser) bsdWord(p *Program, args []Arg, i int, words []Word) (n int, bundle, ok bool) {
	a := args[i]
	if p.bsd == nil || a.Text == "" {
		return 0, false, true
	}
	if a.Dynamic && a.Text[0] != '-' {
		// ps $X: bash decides whether it is a bundle, and which.
		ps.fail("%s: %s is an expansion where %s reads options, so regate cannot tell what it is", p.name, a.Text, p.name)
		return 0, true, false
	}
	letters := a.Text
	switch {
	case ps.second && len(a.Text) > 1 && a.Text[0] == '-' && letter(a.Text[1]):
		letters = a.Text[1:]
	case !letter(a.Text[0]):
		return 0, false, true
	case ps.second:
		// ps's second reading refuses a bundle without a dash.
		ps.fail("%s: %s is not an option %s takes when it reads its arguments a second time", p.name, a.Text, p.name)
		return 0, true, false
	}
	n, _, ok = ps.bundle(p.bsd, args, i, words, letters, false, false)
	return n, true, ok
}

// reread decides which reading of a program with BSD options a call is
// decided by, given the first (ps, having read args as p does at first):
// the second when the program rejects the first, and the first unless
// the second, which the program may fall back to, floors.
func reread(p *Program, args []Arg, first *parser) Result {
	if !first.refused && !first.retry {
		return first.r
	}
	second := parser{r: Result{Known: true, Words: make([]Word, len(args))}, second: true}
	second.program(p, args, 0)
	switch {
	case second.refused:
		// The program rejects the second reading too, and fails.
	case first.refused:
		return second.r
	case second.floored:
		second.r.Problem = fmt.Sprintf("%s (%s may reject its arguments as given and read them again, each dash bundle as BSD options)", second.r.Problem, p.name)
		return second.r
	}
	return first.r
}
