package bashfacts

import (
	"regexp"
	"strings"

	"github.com/regate/regate/bashfacts/argmodel"
)

// Code a program runs that its argument model finds: an interpreter that
// reads its program from standard input the command feeds (a pipe, a
// heredoc: Result.StdinCode) makes strict mode ask, as does inline code,
// which the models floor themselves (python -c, node -e).
//
// Code in a language regate reads (argmodel's Program.Language): the words
// a program's model gives the role code are a sed script, an awk program or
// a jq program (jqcode.go).
// A sed script's r and R files are read paths of the unit and its w and W
// files write paths; what a script or a program runs, or does beyond
// reading its input and printing, makes strict mode ask. The model finds
// the code whatever the spelling (sed --expr=…, sed -l 5 SCRIPT, sed -s -E
// SCRIPT), so the reading never rests on a list of options.

// codeFile is a file a unit's code opens: the model argument whose value
// names it, and what the code does with it (argmodel.Read or Write).
type codeFile struct {
	name string
	role string
	arg  int
	// unknown says why the name cannot be known: it holds an expansion.
	unknown string
}

// readCode reads the code words of m's program, keeps the files they open
// for addCode, and returns why strict mode asks, or "".
func (m *modelRead) readCode() string {
	m.code = m.code[:0]
	if m.res.PipedCode != "" {
		return m.prog + " runs the code a command prints (" + m.res.PipedCode + "), which regate does not see"
	}
	if m.res.StdinCode && m.sc.stdin.from != "" {
		// python <<'EOF', curl … | node: code regate is not shown.
		return m.prog + " reads its program from " + m.sc.stdin.from
	}
	switch m.res.Language {
	case argmodel.Sed:
		return m.readSedCode()
	case argmodel.Awk, argmodel.Jq:
		read := awkCode
		if m.res.Language == argmodel.Jq {
			read = jqCode
		}
		for k, wd := range m.res.Words {
			if wd.Role != argmodel.Code {
				continue
			}
			if m.unresolved(k) {
				return m.prog + " program holds an expansion regate does not resolve"
			}
			if why := read(m.prog, wd.Value); why != "" {
				return why
			}
		}
	}
	return ""
}

// readSedCode reads every script of a sed call together, as sed compiles
// them (readSed), and keeps the files they open.
func (m *modelRead) readSedCode() string {
	var scripts []string
	var at []int
	dynamic := false
	for k, wd := range m.res.Words {
		if wd.Role == argmodel.Code {
			scripts, at = append(scripts, wd.Value), append(at, k)
			dynamic = dynamic || m.args[k].Dynamic
			if m.unresolved(k) {
				return "sed script holds an expansion regate does not resolve"
			}
		}
	}
	if len(scripts) == 0 {
		return ""
	}
	s := readSed(scripts)
	// Which script a file is named in, for its position: the first that
	// holds the name.
	argOf := func(name string) int {
		for i, script := range scripts {
			if strings.Contains(script, name) {
				return at[i]
			}
		}
		return at[0]
	}
	add := func(name, role string) {
		f := codeFile{name: name, role: role, arg: argOf(name)}
		switch {
		case dynamic && homeName(name):
			// "1r $HOME/…": bash expands the home, which facts expands too.
		case dynamic && strings.ContainsAny(name, "$`"):
			f.unknown = "the " + role + " path " + name + " of a sed script depends on an expansion regate does not resolve"
		case strings.HasPrefix(name, "~") || strings.HasPrefix(name, "$"):
			f.name = "./" + name // sed expands neither: a file of the working folder
		}
		m.code = append(m.code, f)
	}
	for _, name := range s.reads {
		add(name, argmodel.Read)
	}
	for _, name := range s.writes {
		add(name, argmodel.Write)
	}
	switch {
	case s.problem != "":
		return "sed script " + strconvQuote(strings.Join(scripts, "; ")) + " is not one sed compiles (" + s.problem + ")"
	case s.runs != "":
		return "sed script " + strconvQuote(strings.Join(scripts, "; ")) + " " + s.runs
	}
	return ""
}

// homeName reports a name that begins with the home folder's variable and
// holds no other expansion.
func homeName(name string) bool {
	for _, home := range []string{"$HOME/", "${HOME}/"} {
		if rest, ok := strings.CutPrefix(name, home); ok {
			return !strings.ContainsAny(rest, "$`")
		}
	}
	return false
}

// unresolved reports a code argument bash builds from an expansion whose
// value regate does not know: a command substitution, or a variable the
// command sets to a value it cannot name. The host's own variables ($HOME,
// $USER) are the environment's, which the agent does not choose.
func (m *modelRead) unresolved(k int) bool {
	if !m.args[k].Dynamic {
		return false
	}
	i := k
	if m.src != nil {
		i = m.src[k]
	}
	return !m.w.environmentOnly(m.words[i])
}

// addCode adds the files a unit's code opens as StrictOnly tokens with
// their role, placed at the word that holds the code.
func (m *modelRead) addCode() {
	w := m.w
	for _, f := range m.code {
		i := f.arg
		if m.src != nil {
			i = m.src[f.arg]
		}
		kind := TokenArgument
		if m.args[f.arg].Text != m.res.Words[f.arg].Value {
			kind = TokenOption // a script attached to its option
		}
		w.addToken(Token{Value: f.name, Pos: w.pos(m.words[i].Pos()), Kind: kind, Dir: m.sc.dir,
			StrictOnly: true, Role: f.role, Unknown: f.unknown})
	}
}

// awkCode is why an awk program floors, or "". It reads the text as a
// whole, not awk's grammar, so it may ask for a harmless program (a
// comparison after print: print ($1 > 2)), never the other way.
func awkCode(prog, code string) string {
	switch {
	case strings.Contains(code, "system(") || strings.Contains(code, "system ("):
		return prog + " program calls system()"
	case strings.Contains(code, "getline"):
		return prog + " program reads with getline, from a file or a command regate does not gate"
	case strings.Contains(code, "@include") || strings.Contains(code, "@load"):
		return prog + " program includes a file regate cannot see"
	case indirectCall.MatchString(code):
		// gawk's @f(): f = "sys" "tem"; @f("id") runs id.
		return prog + " program calls a function named by a variable (gawk's @f()), which may be system()"
	case awkIdent.MatchString(code):
		// BEGIN { ARGV[1] = ".env"; ARGC = 2 } { print } reads .env.
		return prog + " program uses ARGV or ARGC, which can change the files it reads"
	case wholeEnviron(code):
		return prog + " program reads ENVIRON other than by a name, which prints the environment, tokens included"
	}
	for j := 0; j < len(code); j++ {
		if code[j] == '|' && (j+1 >= len(code) || code[j+1] != '|') && (j == 0 || code[j-1] != '|') {
			return prog + " program pipes to or from a command"
		}
	}
	// print and printf write to a file after ">" or ">>" in the same
	// statement.
	for _, stmt := range strings.FieldsFunc(code, func(r rune) bool { return r == ';' || r == '}' || r == '{' || r == '\n' }) {
		if k := strings.Index(stmt, "print"); k >= 0 && strings.Contains(stmt[k:], ">") {
			return prog + " program writes a file with print >"
		}
	}
	return ""
}

// awkIdent finds ARGV and ARGC, the list of files awk reads.
var awkIdent = regexp.MustCompile(`\bARG[VC]\b`)

// indirectCall is gawk's indirect function call, @NAME(…).
var indirectCall = regexp.MustCompile(`@[A-Za-z_][A-Za-z0-9_]*\s*\(`)

// wholeEnviron reports an awk program that uses ENVIRON other than as
// ENVIRON["NAME"]: for (k in ENVIRON) prints every variable, as a bare
// printenv does.
func wholeEnviron(code string) bool {
	for rest := code; ; {
		k := strings.Index(rest, "ENVIRON")
		if k < 0 {
			return false
		}
		rest = strings.TrimLeft(rest[k+len("ENVIRON"):], " \t")
		if !strings.HasPrefix(rest, `["`) {
			return true
		}
	}
}
