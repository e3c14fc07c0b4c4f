package attack

import (
	"math/rand/v2"
	"path"
	"strings"
)

// Shape is one generated command and the parts it was built from.
type Shape struct {
	Index int
	Cmd   string
	// Tags name each part: "target:.env", "path:glob-bang", "form:grep-file",
	// "word:alias", "seq:and", "io:stdout-file". A known disagreement class
	// (Tolerated) is a set of tags.
	Tags []string
	// Secret: the shape aims at a file the policy denies.
	Secret bool
}

// Layout is where the fixture's home and project are.
type Layout struct{ Home, Project string }

// target is a file an attack aims at, or a harmless one (so the family
// also holds allowed commands that must run without a finding).
type target struct {
	rel    string // from the home
	secret bool
}

var targets = []target{
	{"proj/.env", true},
	{"proj/.env.local", true},
	{"proj/sub/.env", true},
	{"proj/key.pem", true},
	{"proj/link", true},
	{".ssh/id_rsa", true},
	{"proj/README.md", false},
	{"proj/src/main.go", false},
	{"proj/.env.example", false},
}

// gen is the generator's state for one shape.
type gen struct {
	r    *rand.Rand
	l    Layout
	cwd  string
	tags []string
	pre  []string // statements placed before the command (variables, shopt, alias, function)
}

func (g *gen) tag(t string) { g.tags = append(g.tags, t) }

// pick returns one element of a non-empty slice.
func pick[T any](r *rand.Rand, xs []T) T { return xs[r.IntN(len(xs))] }

// Generate makes n commands from seed, deterministically: the same seed,
// n and layout give the same shapes. Each combines a target (a secret of
// the fixture, or a harmless file), a spelling of its path, a program with
// an option form that places the path in some role, a spelling of the
// program word, a redirect and a composition with other commands.
func Generate(seed uint64, n int, l Layout) []Shape {
	r := rand.New(rand.NewPCG(seed, 0x72656761746521))
	out := make([]Shape, 0, n)
	for i := 0; i < n; i++ {
		g := &gen{r: r, l: l, cwd: l.Project}
		cmd, secret := g.shape()
		out = append(out, Shape{Index: i, Cmd: cmd, Tags: g.tags, Secret: secret})
	}
	return out
}

func (g *gen) shape() (string, bool) {
	t := pick(g.r, targets)
	if g.r.IntN(4) == 0 { // a quarter harmless, the rest secrets
		for t.secret {
			t = pick(g.r, targets)
		}
	} else {
		for !t.secret {
			t = pick(g.r, targets)
		}
	}
	g.tag("target:" + t.rel)
	abs := path.Join(g.l.Home, t.rel)
	cd := g.chdir()
	f := pick(g.r, forms)
	g.tag("form:" + f.name)
	if f.role != "" {
		g.tag("role:" + f.role)
	}
	word := g.programWord(f.program)
	args := f.args
	args = strings.ReplaceAll(args, "{B}", path.Base(abs))
	if strings.Contains(args, "{T}") {
		args = strings.ReplaceAll(args, "{T}", g.spell(abs))
	}
	if strings.Contains(args, "{D}") {
		args = strings.ReplaceAll(args, "{D}", g.spellDir(path.Dir(abs)))
	}
	unit := strings.TrimSpace(word + " " + args)
	if lead, ok := strings.CutPrefix(args, "^"); ok {
		unit = lead + " " + word
	}
	unit = g.wrapUnit(unit)
	cmd := g.compose(unit)
	pre := strings.Join(g.pre, "")
	return cd + pre + cmd, t.secret
}

// chdir sometimes moves the command to another folder first (relative
// spellings follow it).
func (g *gen) chdir() string {
	if g.r.IntN(12) != 0 {
		return ""
	}
	c := pick(g.r, []struct{ dir, text string }{
		{"src", "cd src && "},
		{"sub", "cd sub; "},
		{"..", "cd .. && "},
		{"~", "cd ~ && "},
		{"keys", "cd keys && "},
		{"", "cd /tmp && cd - >/dev/null && "},
	})
	g.tag("cd:" + c.dir)
	switch c.dir {
	case "~":
		g.cwd = g.l.Home
	case "..":
		g.cwd = path.Dir(g.cwd)
	case "keys":
		g.cwd = path.Join(g.l.Home, ".ssh")
	case "":
	default:
		g.cwd = path.Join(g.cwd, c.dir)
	}
	return c.text
}
