package bashfacts

import (
	"path"
	"sort"
	"strings"
)

// optionSpellings are the options whose other spellings strict mode folds
// together, for the programs where a rule about them matters most: each
// spelling maps to one canonical letter, and longName spells the letter in
// full. A program not listed has its short options folded only (bundled
// or apart, in any order), never renamed.
var optionSpellings = map[string]map[string]string{
	"rm": {
		"-r": "r", "-R": "r", "--recursive": "r", "-f": "f", "--force": "f",
		"-d": "d", "--dir": "d", "-v": "v", "--verbose": "v",
	},
	"git push": {"-f": "f", "--force": "f"},
}

var longName = map[string]map[string]string{
	"rm":       {"r": "--recursive", "f": "--force", "d": "--dir", "v": "--verbose"},
	"git push": {"f": "--force"},
}

// otherSpellings is a simple command's text spelt the other ways bash and
// the program read it the same (Unit.Spellings): a program given as a path
// by its base name (/bin/rm -rf x is rm -rf x), and its leading options
// bundled or apart, in any order, short or long (optionVariants).
func otherSpellings(text string) []string {
	word, rest, _ := strings.Cut(text, " ")
	var out []string
	if slash := strings.LastIndexByte(word, '/'); slash >= 0 && slash < len(word)-1 {
		base := word[slash+1:]
		if rest != "" {
			base += " " + rest
		}
		out = append(out, base)
		text = base
	}
	return append(out, optionVariants(text)...)
}

// maxFoldedOptions bounds the options folded: their orders are listed, and
// 4 options have 24.
const maxFoldedOptions = 4

// optionVariants spells a unit's leading options every other way the
// program reads the same: bundled or apart, in any order, short or long
// (rm -fr, rm -r -f and rm --recursive --force are rm -rf), so that a rule
// written one way meets the others; long options it does not fold follow
// the folded ones (rm -fr --no-preserve-root / is also rm -rf
// --no-preserve-root /). It returns nil when a short option carries a
// value, when there are more than maxFoldedOptions, or when there is
// nothing to fold.
func optionVariants(unit string) []string {
	if !strings.Contains(unit, " -") {
		return nil // no option: most units, spared the split
	}
	words := strings.Fields(unit)
	if len(words) < 2 {
		return nil
	}
	prefix := 1
	if words[0] == "git" && len(words) > 2 && !strings.HasPrefix(words[1], "-") {
		prefix = 2 // git SUBCOMMAND
	}
	program := strings.Join(words[:prefix], " ")
	table := optionSpellings[program]
	var letters []string
	seen := map[string]bool{}
	add := func(l string) {
		if !seen[l] {
			seen[l] = true
			letters = append(letters, l)
		}
	}
	end := prefix
	renamed := false
	var others []string
	for ; end < len(words); end++ {
		w := words[end]
		if w == "--" || len(w) < 2 || w[0] != '-' {
			break
		}
		if l, ok := table[w]; ok {
			add(l)
			renamed = renamed || strings.HasPrefix(w, "--") || l != w[1:]
			continue
		}
		if w[1] == '-' {
			// A long option not folded keeps its place after the folded
			// ones: GNU programs read options in any order.
			others = append(others, w)
			continue
		}
		if !isLetters(w[1:]) {
			return nil // a short option with a value (-n5): nothing is folded
		}
		for _, r := range w[1:] {
			l := string(r)
			if t, ok := table["-"+l]; ok {
				renamed = renamed || t != l
				l = t
			}
			add(l)
		}
	}
	n := len(letters)
	if n == 0 || n > maxFoldedOptions {
		return nil
	}
	if n == 1 && !renamed && longName[program][letters[0]] == "" {
		return nil // one short option: no other spelling
	}
	head := strings.Join(words[:prefix], " ")
	tail := strings.Join(append(others, words[end:]...), " ")
	spell := func(opts string) string {
		s := head + " " + opts
		if tail != "" {
			s += " " + tail
		}
		return s
	}
	set := map[string]bool{}
	for _, p := range permutations(letters) {
		// A bundle of the first k, the rest apart: rm -rfv is also
		// rm -rf -v, which a rule on rm -rf * names.
		for k := 1; k <= len(p); k++ {
			opts := "-" + strings.Join(p[:k], "")
			for _, l := range p[k:] {
				opts += " -" + l
			}
			set[spell(opts)] = true
		}
		split := make([]string, len(p))
		long := make([]string, len(p))
		for i, l := range p {
			split[i] = "-" + l
			long[i] = "-" + l
			if name, ok := longName[program][l]; ok {
				long[i] = name
			}
		}
		set[spell(strings.Join(split, " "))] = true
		set[spell(strings.Join(long, " "))] = true
	}
	delete(set, strings.Join(words, " "))
	out := make([]string, 0, len(set))
	for s := range set {
		out = append(out, s)
	}
	sort.Strings(out)
	return out
}

func isLetters(s string) bool {
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return false
		}
	}
	return s != ""
}

// permutations lists every order of xs.
func permutations(xs []string) [][]string {
	if len(xs) <= 1 {
		return [][]string{append([]string(nil), xs...)}
	}
	var out [][]string
	for i := range xs {
		rest := append(append([]string(nil), xs[:i]...), xs[i+1:]...)
		for _, p := range permutations(rest) {
			out = append(out, append([]string{xs[i]}, p...))
		}
	}
	return out
}

// resolvedText is a simple command's text with every word that walks down
// and back up a folder (a "..") spelt as the path it names, lexically
// (Unit.Resolved); "" when no word changes. A rule's "*" matches text, so
// "bash scripts/*" met bash scripts/../../tmp/x.sh: the resolved spelling
// is decided by the rules too, the catch-all included.
func resolvedText(texts []string) string {
	var out []string
	for i, t := range texts {
		r := resolvedWord(t)
		if r == t {
			continue
		}
		if out == nil {
			out = append([]string(nil), texts...)
		}
		out[i] = r
	}
	if out == nil {
		return ""
	}
	return strings.Join(out, " ")
}

// resolvedWord cleans a word whose path walks back over a name (a/../b,
// ./x/../../y, /../etc); a word with no such "..", or only leading ones,
// is returned as it is.
func resolvedWord(w string) string {
	if !strings.Contains(w, "/..") {
		return w
	}
	// Only the path after an option's "=" (--file=a/../b) is cleaned.
	prefix, p := "", w
	if k := strings.IndexByte(w, '='); k >= 0 && strings.HasPrefix(w, "-") {
		prefix, p = w[:k+1], w[k+1:]
	}
	c := path.Clean(p)
	if c == withoutDots(p) {
		return w // no ".." walks back over a name
	}
	if strings.HasPrefix(p, "./") && !strings.HasPrefix(c, "../") && c != ".." && !path.IsAbs(c) {
		c = "./" + c // a program in the current folder stays one
	}
	if strings.HasSuffix(p, "/") && c != "/" {
		c += "/"
	}
	return prefix + c
}

// withoutDots is p cleaned of "." and empty components alone, its ".."
// kept where they stand.
func withoutDots(p string) string {
	var kept []string
	for _, part := range strings.Split(p, "/") {
		if part != "." && part != "" {
			kept = append(kept, part)
		}
	}
	out := strings.Join(kept, "/")
	switch {
	case path.IsAbs(p):
		return "/" + out
	case out == "":
		return "."
	}
	return out
}
