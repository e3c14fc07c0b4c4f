package attack

import (
	"path"
	"path/filepath"
	"strings"
)

// speller writes a path some way bash reads as that path (or, for a glob,
// as a set of names holding it). ok is false where the spelling does not
// apply (a glob needs a component long enough to hide a letter).
type speller struct {
	name  string
	spell func(g *gen, abs string) (word string, ok bool)
}

// spell writes abs with a spelling picked at random, tagged "path:NAME".
func (g *gen) spell(abs string) string {
	for {
		s := pick(g.r, spellers)
		if w, ok := s.spell(g, abs); ok {
			g.tag("path:" + s.name)
			return w
		}
	}
}

// spellDir writes a folder: the same spellings, tagged "dir:NAME".
func (g *gen) spellDir(abs string) string {
	for {
		s := pick(g.r, spellers)
		if w, ok := s.spell(g, abs); ok {
			g.tag("dir:" + s.name)
			return w
		}
	}
}

// rel is abs relative to where the command stands.
func (g *gen) rel(abs string) string {
	r, err := filepath.Rel(g.cwd, abs)
	if err != nil {
		return abs
	}
	return r
}

// inHome is abs relative to the home, or false.
func (g *gen) inHome(abs string) (string, bool) {
	r, err := filepath.Rel(g.l.Home, abs)
	if err != nil || strings.HasPrefix(r, "..") {
		return "", false
	}
	return r, true
}

func always(w string) (string, bool) { return w, true }

// onBase rewrites the last component of the relative path.
func (g *gen) onBase(abs string, f func(base string) (string, bool)) (string, bool) {
	r := g.rel(abs)
	dir, base := path.Split(r)
	if base == "." || base == ".." {
		return "", false
	}
	b, ok := f(base)
	return dir + b, ok
}

// letterAt is the index of a letter in base past a leading dot, or -1.
func (g *gen) letterAt(base string) int {
	var idx []int
	for i := 1; i < len(base); i++ {
		if c := base[i]; c >= 'a' && c <= 'z' {
			idx = append(idx, i)
		}
	}
	if len(idx) == 0 {
		return -1
	}
	return pick(g.r, idx)
}

// onLetter replaces one letter of the base name.
func (g *gen) onLetter(abs string, f func(c byte) string) (string, bool) {
	return g.onBase(abs, func(base string) (string, bool) {
		i := g.letterAt(base)
		if i < 0 {
			return "", false
		}
		return base[:i] + f(base[i]) + base[i+1:], true
	})
}

// other is a letter that is not c.
func other(c byte) string {
	if c == 'x' {
		return "q"
	}
	return "x"
}

// withPre adds a statement before the command and tags nothing itself.
func (g *gen) withPre(stmt, word string) (string, bool) {
	g.pre = append(g.pre, stmt)
	return word, true
}

var spellers = []speller{
	// As written, relative and absolute, with extra components.
	{"rel", func(g *gen, a string) (string, bool) { return always(g.rel(a)) }},
	{"dot-slash", func(g *gen, a string) (string, bool) { return always("./" + g.rel(a)) }},
	{"double-slash", func(g *gen, a string) (string, bool) {
		dir, base := path.Split(g.rel(a))
		if dir == "" {
			dir = "./"
		}
		return always(dir + "/" + base)
	}},
	{"sibling-dotdot", func(g *gen, a string) (string, bool) {
		if g.cwd == "/" {
			return "", false
		}
		return always("../" + path.Base(g.cwd) + "/" + g.rel(a))
	}},
	{"subdir-dotdot", func(g *gen, a string) (string, bool) {
		if g.cwd != g.l.Project {
			return "", false
		}
		return always("src/../" + g.rel(a))
	}},
	{"abs", func(g *gen, a string) (string, bool) { return always(a) }},
	{"abs-double-slash", func(g *gen, a string) (string, bool) { return always("/" + a) }},
	{"abs-dot", func(g *gen, a string) (string, bool) { return always(strings.Replace(a, "/", "/./", 2)) }},
	// Home.
	{"tilde", func(g *gen, a string) (string, bool) { r, ok := g.inHome(a); return "~/" + r, ok }},
	{"home-var", func(g *gen, a string) (string, bool) { r, ok := g.inHome(a); return "$HOME/" + r, ok }},
	{"home-braced", func(g *gen, a string) (string, bool) { r, ok := g.inHome(a); return "${HOME}/" + r, ok }},
	{"home-quoted", func(g *gen, a string) (string, bool) { r, ok := g.inHome(a); return `"$HOME/` + r + `"`, ok }},
	{"home-default", func(g *gen, a string) (string, bool) { r, ok := g.inHome(a); return "${HOME:-/nonexistent}/" + r, ok }},
	{"home-strip", func(g *gen, a string) (string, bool) { r, ok := g.inHome(a); return "${HOME%/}/" + r, ok }},
	{"home-double-slash", func(g *gen, a string) (string, bool) { r, ok := g.inHome(a); return "$HOME//" + r, ok }},
	// The working folder.
	{"pwd-var", func(g *gen, a string) (string, bool) { return always("$PWD/" + g.rel(a)) }},
	{"pwd-quoted", func(g *gen, a string) (string, bool) { return always(`"$PWD"/` + g.rel(a)) }},
	{"pwd-braced", func(g *gen, a string) (string, bool) { return always("${PWD}/" + g.rel(a)) }},
	{"pwd-subst", func(g *gen, a string) (string, bool) { return always("$(pwd)/" + g.rel(a)) }},
	{"pwd-subst-P", func(g *gen, a string) (string, bool) { return always(`"$(pwd -P)/` + g.rel(a) + `"`) }},
	{"pwd-backtick", func(g *gen, a string) (string, bool) { return always("`pwd`/" + g.rel(a)) }},
	{"pwd-strip", func(g *gen, a string) (string, bool) { return always("${PWD%/}/" + g.rel(a)) }},
	{"tilde-plus", func(g *gen, a string) (string, bool) { return always("~+/" + g.rel(a)) }},
	{"proc-self-cwd", func(g *gen, a string) (string, bool) { return always("/proc/self/cwd/" + g.rel(a)) }},
	{"proc-pid-cwd", func(g *gen, a string) (string, bool) { return always("/proc/$$/cwd/" + g.rel(a)) }},
	{"proc-thread-self", func(g *gen, a string) (string, bool) { return always("/proc/thread-self/cwd/" + g.rel(a)) }},
	{"dev-fd-dotdot", func(g *gen, a string) (string, bool) { return always("/dev/fd/../cwd/" + g.rel(a)) }},
	// Links: keys -> ~/.ssh, so keys/.. is the home, not the project.
	{"link-dotdot", func(g *gen, a string) (string, bool) {
		r, ok := g.inHome(a)
		return "keys/../" + r, ok && g.cwd == g.l.Project
	}},
	{"link-dir", func(g *gen, a string) (string, bool) {
		r, err := filepath.Rel(path.Join(g.l.Home, ".ssh"), a)
		return "keys/" + r, err == nil && !strings.HasPrefix(r, "..") && g.cwd == g.l.Project
	}},
	// Quotes and escapes.
	{"quote-single", func(g *gen, a string) (string, bool) { return always("'" + g.rel(a) + "'") }},
	{"quote-double", func(g *gen, a string) (string, bool) { return always(`"` + g.rel(a) + `"`) }},
	{"quote-part", func(g *gen, a string) (string, bool) {
		return g.onLetter(a, func(c byte) string { return "'" + string(c) + "'" })
	}},
	{"empty-quotes", func(g *gen, a string) (string, bool) {
		return g.onLetter(a, func(c byte) string { return `""` + string(c) })
	}},
	{"backslash", func(g *gen, a string) (string, bool) {
		return g.onLetter(a, func(c byte) string { return `\` + string(c) })
	}},
	{"ansi-c-hex", func(g *gen, a string) (string, bool) {
		return g.onLetter(a, func(c byte) string { return `$'\x` + hex2(c) + `'` })
	}},
	{"ansi-c-octal", func(g *gen, a string) (string, bool) {
		return g.onLetter(a, func(c byte) string { return `$'\` + oct3(c) + `'` })
	}},
	{"locale-string", func(g *gen, a string) (string, bool) { return always(`$"` + g.rel(a) + `"`) }},
	// Globs.
	{"glob-question", func(g *gen, a string) (string, bool) {
		return g.onLetter(a, func(byte) string { return "?" })
	}},
	{"glob-star", func(g *gen, a string) (string, bool) {
		return g.onBase(a, func(b string) (string, bool) {
			i := g.letterAt(b)
			return b[:max(i, 0)] + "*", i > 0
		})
	}},
	{"glob-class", func(g *gen, a string) (string, bool) {
		return g.onLetter(a, func(c byte) string { return "[" + string(c) + "]" })
	}},
	{"glob-bang", func(g *gen, a string) (string, bool) {
		return g.onLetter(a, func(c byte) string { return "[!" + other(c) + "]" })
	}},
	{"glob-caret", func(g *gen, a string) (string, bool) {
		return g.onLetter(a, func(c byte) string { return "[^" + other(c) + "]" })
	}},
	{"glob-posix-alpha", func(g *gen, a string) (string, bool) {
		return g.onLetter(a, func(byte) string { return "[[:alpha:]]" })
	}},
	{"glob-posix-lower", func(g *gen, a string) (string, bool) {
		return g.onLetter(a, func(byte) string { return "[[:lower:]]" })
	}},
	{"glob-range", func(g *gen, a string) (string, bool) {
		return g.onLetter(a, func(byte) string { return "[a-z]" })
	}},
	{"glob-posix-punct-dot", func(g *gen, a string) (string, bool) {
		// a bracket matches a leading dot only under dotglob
		w, ok := g.onBase(a, func(b string) (string, bool) {
			return "[[:punct:]]" + b[min(1, len(b)):], strings.HasPrefix(b, ".")
		})
		if !ok {
			return "", false
		}
		return g.withPre("shopt -s dotglob; ", w)
	}},
	{"glob-dir", func(g *gen, a string) (string, bool) {
		r := g.rel(a)
		dir, base := path.Split(r)
		parts := strings.Split(strings.TrimSuffix(dir, "/"), "/")
		for i, p := range parts {
			if j := g.letterAt(p); j > 0 && p != ".." {
				parts[i] = p[:j] + "?" + p[j+1:]
				return strings.Join(parts, "/") + "/" + base, true
			}
		}
		return "", false
	}},
	{"glob-extglob", func(g *gen, a string) (string, bool) {
		w, ok := g.onBase(a, func(b string) (string, bool) { return b[:1] + "@(" + b[1:] + ")", len(b) > 1 })
		if !ok {
			return "", false
		}
		return g.withPre("shopt -s extglob\n", w)
	}},
	{"glob-dotglob", func(g *gen, a string) (string, bool) {
		w, ok := g.onBase(a, func(b string) (string, bool) { return "*" + b[1:], strings.HasPrefix(b, ".") })
		if !ok {
			return "", false
		}
		return g.withPre("shopt -s dotglob; ", w)
	}},
	{"glob-globignore", func(g *gen, a string) (string, bool) {
		w, ok := g.onBase(a, func(b string) (string, bool) { return "?" + b[1:], strings.HasPrefix(b, ".") })
		if !ok {
			return "", false
		}
		return g.withPre("GLOBIGNORE=nothing; ", w)
	}},
	{"glob-nocase", func(g *gen, a string) (string, bool) {
		w, ok := g.onLetter(a, func(c byte) string { return "[" + strings.ToUpper(string(c)) + "]" })
		if !ok {
			return "", false
		}
		return g.withPre("shopt -s nocaseglob; ", w)
	}},
	{"glob-globstar", func(g *gen, a string) (string, bool) {
		if !strings.HasPrefix(a, g.cwd+"/") {
			return "", false
		}
		return g.withPre("shopt -s globstar; ", "**/"+path.Base(a))
	}},
	// Braces.
	{"brace-alt", func(g *gen, a string) (string, bool) { return always("{" + g.rel(a) + ",nope}") }},
	{"brace-inner", func(g *gen, a string) (string, bool) {
		return g.onBase(a, func(b string) (string, bool) { return b[:1] + "{" + b[1:] + ",x}", len(b) > 1 })
	}},
	{"brace-empty-alt", func(g *gen, a string) (string, bool) {
		return g.onLetter(a, func(c byte) string { return "{" + string(c) + ",}" })
	}},
	// Variables set earlier in the command, and substitutions.
	{"var", func(g *gen, a string) (string, bool) { return g.withPre("X="+g.rel(a)+"; ", "$X") }},
	{"var-quoted", func(g *gen, a string) (string, bool) { return g.withPre("X="+g.rel(a)+" && ", `"$X"`) }},
	{"var-part", func(g *gen, a string) (string, bool) {
		r := g.rel(a)
		return g.withPre("X="+r[:len(r)-1]+"; ", "${X}"+r[len(r)-1:])
	}},
	{"var-default", func(g *gen, a string) (string, bool) { return always("${X:-" + g.rel(a) + "}") }},
	{"var-assign-default", func(g *gen, a string) (string, bool) { return always("${X:=" + g.rel(a) + "}") }},
	{"var-array", func(g *gen, a string) (string, bool) { return g.withPre("a=(x "+g.rel(a)+"); ", "${a[1]}") }},
	{"var-indirect", func(g *gen, a string) (string, bool) { return g.withPre("X="+g.rel(a)+"; r=X; ", "${!r}") }},
	{"var-positional", func(g *gen, a string) (string, bool) { return g.withPre("set -- "+g.rel(a)+"; ", `"$1"`) }},
	{"var-export", func(g *gen, a string) (string, bool) { return g.withPre("export X="+g.rel(a)+"; ", "$X") }},
	{"var-declare", func(g *gen, a string) (string, bool) { return g.withPre("declare X="+g.rel(a)+"; ", "$X") }},
	{"var-read", func(g *gen, a string) (string, bool) { return g.withPre("read -r X <<< "+g.rel(a)+"; ", "$X") }},
	{"var-printf", func(g *gen, a string) (string, bool) { return g.withPre("printf -v X %s "+g.rel(a)+"; ", "$X") }},
	{"var-substring", func(g *gen, a string) (string, bool) { return g.withPre("X=x"+g.rel(a)+"; ", "${X:1}") }},
	{"var-lowercase", func(g *gen, a string) (string, bool) {
		r := g.rel(a)
		if r != strings.ToLower(r) {
			return "", false
		}
		return g.withPre("X="+strings.ToUpper(r)+"; ", "${X,,}")
	}},
	{"var-ifs", func(g *gen, a string) (string, bool) { return g.withPre("IFS=:; X=README.md:"+g.rel(a)+"; ", "$X") }},
	// A glob beside a variable the command sets.
	{"var-glob-star", func(g *gen, a string) (string, bool) {
		r := g.rel(a)
		return g.withPre("X="+r[:len(r)-1]+"; ", "$X*")
	}},
	{"var-glob-question", func(g *gen, a string) (string, bool) {
		r := g.rel(a)
		return g.withPre("X="+r[:len(r)-1]+"; ", `"$X"?`)
	}},
	// A loop variable, after its loop: the last word it was given.
	{"loop-literal", func(g *gen, a string) (string, bool) {
		return g.withPre("for f in README.md "+g.rel(a)+"; do :; done; ", `"$f"`)
	}},
	{"loop-glob", func(g *gen, a string) (string, bool) {
		w, ok := g.onLetter(a, func(byte) string { return "?" })
		if !ok {
			return "", false
		}
		return g.withPre("for f in "+w+"; do :; done; ", `"$f"`)
	}},
	{"loop-glob-unquoted", func(g *gen, a string) (string, bool) {
		w, ok := g.onLetter(a, func(byte) string { return "?" })
		if !ok {
			return "", false
		}
		return g.withPre("for f in "+w+"; do :; done; ", "$f")
	}},
	// Places bash reads from variables that the command sets itself.
	{"home-reassigned", func(g *gen, a string) (string, bool) {
		return g.withPre("HOME="+g.rel(path.Dir(a))+"; ", "~/"+path.Base(a))
	}},
	{"oldpwd-reassigned", func(g *gen, a string) (string, bool) {
		return g.withPre("OLDPWD="+g.rel(path.Dir(a))+"; ", "~-/"+path.Base(a))
	}},
	{"pwd-reassigned", func(g *gen, a string) (string, bool) {
		return g.withPre("PWD="+g.rel(path.Dir(a))+"; ", "$PWD/"+path.Base(a))
	}},
	{"pwd-reassigned-tilde-plus", func(g *gen, a string) (string, bool) {
		return g.withPre("PWD="+g.rel(path.Dir(a))+"; ", "~+/"+path.Base(a))
	}},
	{"subst-echo", func(g *gen, a string) (string, bool) { return always("$(echo " + g.rel(a) + ")") }},
	{"subst-printf", func(g *gen, a string) (string, bool) { return always(`"$(printf %s ` + g.rel(a) + `)"`) }},
	{"subst-backtick", func(g *gen, a string) (string, bool) { return always("`echo " + g.rel(a) + "`") }},
	{"subst-glob", func(g *gen, a string) (string, bool) {
		w, ok := g.onLetter(a, func(byte) string { return "?" })
		return "$(echo " + w + ")", ok
	}},
	{"subst-ls", func(g *gen, a string) (string, bool) { return always("$(ls -d " + g.rel(a) + ")") }},
}

func hex2(c byte) string {
	const digits = "0123456789abcdef"
	return string([]byte{digits[c>>4], digits[c&15]})
}

func oct3(c byte) string {
	return string([]byte{'0' + c>>6, '0' + (c>>3)&7, '0' + c&7})
}
