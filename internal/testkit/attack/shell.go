package attack

import "strings"

// programWord writes the program's name some way bash runs it, tagged
// "word:NAME": quoted or escaped, by path, through a wrapper, from a
// variable, an alias or a function.
func (g *gen) programWord(p string) string {
	type spelling struct {
		name string
		word func() string
	}
	all := []spelling{
		{"backslash", func() string { return `\` + p }},
		{"quoted", func() string { return "'" + p + "'" }},
		{"split-quote", func() string { return p[:1] + "''" + p[1:] }},
		{"usr-bin", func() string { return "/usr/bin/" + p }},
		{"bin", func() string { return "/bin/" + p }},
		{"glob", func() string { return "/usr/bin/" + p[:len(p)-1] + "?" }},
		{"command", func() string { return "command " + p }},
		{"exec", func() string { return "exec " + p }},
		{"env", func() string { return "env " + p }},
		{"nice", func() string { return "nice " + p }},
		{"time", func() string { return "time " + p }},
		{"timeout", func() string { return "timeout 5 " + p }},
		{"var", func() string { g.pre = append(g.pre, "P="+p+"; "); return "$P" }},
		{"var-default", func() string { return "${P:-" + p + "}" }},
		{"subst", func() string { return "$(echo " + p + ")" }},
		{"alias", func() string {
			g.pre = append(g.pre, "shopt -s expand_aliases\nalias c='"+p+"'\n")
			return "c"
		}},
		{"function", func() string {
			g.pre = append(g.pre, `f() { `+p+` "$@"; }; `)
			return "f"
		}},
		{"shadow-function", func() string {
			// a function that takes an allowed program's name runs another
			g.pre = append(g.pre, p+`() { command cat "$@"; }; `)
			return p
		}},
	}
	if g.r.IntN(2) == 0 {
		g.tag("word:plain")
		return p
	}
	s := pick(g.r, all)
	g.tag("word:" + s.name)
	return s.word()
}

// wrapUnit places the unit in a construct that runs it, tagged "wrap:NAME".
func (g *gen) wrapUnit(u string) string {
	type wrapper struct{ name, text string }
	all := []wrapper{
		{"eval", "eval " + singleQuote(u)},
		{"bash-c", "bash -c " + singleQuote(u)},
		{"sh-c", "sh -c " + singleQuote(u)},
		{"group", "{ " + u + "; }"},
		{"subshell", "( " + u + " )"},
		{"if", "if pwd >/dev/null; then " + u + "; fi"},
		{"for", "for i in 1; do " + u + "; done"},
		{"case", "case x in *) " + u + ";; esac"},
		{"not", "! " + u},
		{"background", u + " & wait"},
		{"function-body", "g() { " + u + "; }; g"},
		{"assign-subst", "x=$(" + u + "); pwd"},
		{"arg-subst", "ls \"$(" + u + ")\""},
		{"process-subst", "cat <(" + u + ")"},
		{"trap", "trap " + singleQuote(u) + " EXIT"},
	}
	if g.r.IntN(3) != 0 {
		return u
	}
	w := pick(g.r, all)
	g.tag("wrap:" + w.name)
	return w.text
}

// compose joins the unit with other commands or redirects its output,
// tagged "seq:NAME" or "io:NAME".
func (g *gen) compose(u string) string {
	type composition struct{ name, text string }
	all := []composition{
		{"seq:and-after", "git status && " + u},
		{"seq:semicolon", u + "; pwd"},
		{"seq:semicolon-before", "pwd; " + u},
		{"seq:or", "ls >/dev/null || " + u},
		{"seq:and-before", u + " && ls"},
		{"seq:newline", "pwd\n" + u},
		{"seq:pipe-grep", u + " | grep ."},
		{"seq:pipe-cat", u + " | cat"},
		{"seq:pipe-stderr", u + " |& cat"},
		{"seq:pipe-into", "cat README.md | " + u},
		{"io:devnull", u + " 2>/dev/null"},
		{"io:stdout-devnull", u + " >/dev/null"},
		{"io:stdout-file", u + " > out.txt"},
		{"io:append-file", u + " >> README.md"},
		{"io:clobber", u + " >| out.txt"},
		{"io:both-file", u + " &> out.txt"},
		{"io:stderr-file", u + " 2>err.log"},
		{"io:dup", u + " 2>&1"},
	}
	if g.r.IntN(2) == 0 {
		return u
	}
	c := pick(g.r, all)
	g.tag(c.name)
	return c.text
}

func singleQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
