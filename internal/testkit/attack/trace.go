package attack

import (
	"path"
	"strconv"
	"strings"
)

// Kind is what a traced call did to a file.
type Kind string

const (
	// Read opened a file (or a folder) for reading.
	Read Kind = "read"
	// Write opened a file for writing, or created, renamed, linked,
	// truncated or removed one.
	Write Kind = "write"
	// Exec executed a program.
	Exec Kind = "exec"
)

// Event is one file access or program execution in a trace.
type Event struct {
	Kind Kind
	Pid  int
	// Path is absolute: for an open, the file the kernel opened (strace -y
	// resolves the descriptor it returned, links and all); for the other
	// calls, the name given, resolved against the calling process's folder.
	Path string
	// Dir is an open with O_DIRECTORY: a listing.
	Dir bool
	// Argv is an executed program's arguments.
	Argv []string
	// Cwd is the process's working folder at the call.
	Cwd string
	// Image is the program the process was running when it made the call
	// (after an Exec: the program it executed before).
	Image string
	// Launcher is the first Exec: the bash that runs the command.
	Launcher bool
	// Line is the strace record, for the report.
	Line string
}

// Trace is what one traced command did.
type Trace struct {
	Events []Event
}

// process is what the parser knows of one traced process.
type process struct {
	cwd, image string
	// ownCwd and ownImage: the process changed its folder or ran a
	// program itself, so its parent's clone returning later (strace may
	// print it after the child's own records) must not overwrite them.
	ownCwd, ownImage bool
}

// parser follows processes through an strace -f -y -o FILE log (one record
// a line, each prefixed with its pid).
type parser struct {
	procs   map[int]*process
	pending map[int]string // a record's first half, "<unfinished ...>"
	cloning []int          // processes inside a clone that has not returned
	root    int
	cwd0    string
	execs   int
	out     Trace
}

// ParseTrace reads strace output; cwd is the working folder of the first
// process. Unknown records are skipped: the parser never fails, and a
// record it cannot read yields no event.
func ParseTrace(text, cwd string) *Trace {
	p := &parser{procs: map[int]*process{}, pending: map[int]string{}, cwd0: cwd}
	for _, line := range strings.Split(text, "\n") {
		p.line(line)
	}
	return &p.out
}

func (p *parser) line(line string) {
	pidText, rest, ok := strings.Cut(line, " ")
	pid, err := strconv.Atoi(pidText)
	if !ok || err != nil {
		return
	}
	rest = strings.TrimLeft(rest, " ")
	if strings.HasPrefix(rest, "---") || strings.HasPrefix(rest, "+++") {
		return
	}
	if first, ok := strings.CutSuffix(rest, " <unfinished ...>"); ok {
		p.pending[pid] = first
		p.proc(pid) // a first record makes the process known
		if strings.HasPrefix(first, "clone") || strings.HasPrefix(first, "fork") || strings.HasPrefix(first, "vfork") {
			p.cloning = append(p.cloning, pid)
		}
		return
	}
	if strings.HasPrefix(rest, "<... ") {
		_, tail, ok := strings.Cut(rest, " resumed>")
		if !ok {
			return
		}
		rest = p.pending[pid] + tail
		delete(p.pending, pid)
		line = pidText + " " + rest
	}
	name, args, ret, ok := splitCall(rest)
	if !ok {
		return
	}
	p.call(pid, name, args, ret, line)
}

// proc returns the process, creating it: the first process starts in the
// command's folder; a process seen before its parent's clone returned is
// that parent's child (a parent inside clone cannot change its folder).
func (p *parser) proc(pid int) *process {
	if pr, ok := p.procs[pid]; ok {
		return pr
	}
	pr := &process{cwd: p.cwd0}
	if len(p.procs) == 0 {
		p.root = pid
	} else if n := len(p.cloning); n > 0 {
		if parent, ok := p.procs[p.cloning[n-1]]; ok {
			pr.cwd, pr.image = parent.cwd, parent.image
		}
	}
	p.procs[pid] = pr
	return pr
}

func (p *parser) call(pid int, name string, args []string, ret, line string) {
	pr := p.proc(pid)
	val, deco, failed := parseReturn(ret)
	if name == "clone" || name == "clone3" || name == "fork" || name == "vfork" {
		for i, c := range p.cloning {
			if c == pid {
				p.cloning = append(p.cloning[:i], p.cloning[i+1:]...)
				break
			}
		}
		if child, err := strconv.Atoi(val); err == nil && !failed && child > 0 {
			if c, ok := p.procs[child]; ok {
				if !c.ownCwd {
					c.cwd = pr.cwd
				}
				if !c.ownImage {
					c.image = pr.image
				}
			} else {
				p.procs[child] = &process{cwd: pr.cwd, image: pr.image}
			}
		}
		return
	}
	if failed {
		return
	}
	ev := Event{Pid: pid, Cwd: pr.cwd, Image: pr.image, Line: line}
	at := func(dirArg, nameArg string) string { return resolveAt(pr.cwd, dirArg, unquote(nameArg)) }
	switch name {
	case "open", "openat", "openat2", "creat":
		var flags string
		switch {
		case name == "open" && len(args) >= 2:
			flags, ev.Path = args[1], at("", args[0])
		case name == "openat" && len(args) >= 3, name == "openat2" && len(args) >= 3:
			flags, ev.Path = args[2], at(args[0], args[1])
		case name == "creat" && len(args) >= 1:
			flags, ev.Path = "O_CREAT|O_WRONLY|O_TRUNC", at("", args[0])
		default:
			return
		}
		if strings.Contains(flags, "O_PATH") {
			return // a handle, no data
		}
		if deco != "" {
			ev.Path = strings.TrimSuffix(deco, " (deleted)")
		}
		ev.Kind, ev.Dir = Read, strings.Contains(flags, "O_DIRECTORY")
		for _, w := range [...]string{"O_WRONLY", "O_RDWR", "O_CREAT", "O_TRUNC", "O_APPEND"} {
			if strings.Contains(flags, w) {
				ev.Kind = Write
			}
		}
		p.add(ev)
	case "execve", "execveat":
		pathArg, argvArg := 0, 1
		dir := ""
		if name == "execveat" {
			pathArg, argvArg, dir = 1, 2, args[0]
		}
		if len(args) <= argvArg {
			return
		}
		ev.Kind, ev.Path, ev.Argv = Exec, resolveAt(pr.cwd, dir, unquote(args[pathArg])), unquoteList(args[argvArg])
		p.execs++
		ev.Launcher = p.execs == 1 && pid == p.root
		pr.image, pr.ownImage = ev.Path, true
		p.add(ev)
	case "chdir":
		if len(args) == 1 {
			pr.cwd, pr.ownCwd = Physical(joinRaw(pr.cwd, unquote(args[0]))), true
		}
	case "fchdir":
		if len(args) == 1 {
			if d := decoration(args[0]); d != "" {
				pr.cwd, pr.ownCwd = d, true
			}
		}
	default:
		p.writes(ev, name, args, at)
	}
}

// writes records the calls that change a name: rename (both names),
// unlink, rmdir, mkdir, link, symlink (the new name) and truncate.
func (p *parser) writes(ev Event, name string, args []string, at func(string, string) string) {
	var names []string
	switch {
	case (name == "rename" || name == "link") && len(args) >= 2:
		names = []string{at("", args[0]), at("", args[1])}
	case (name == "renameat" || name == "renameat2" || name == "linkat") && len(args) >= 4:
		names = []string{at(args[0], args[1]), at(args[2], args[3])}
	case (name == "unlink" || name == "rmdir" || name == "mkdir" || name == "truncate") && len(args) >= 1:
		names = []string{at("", args[0])}
	case (name == "unlinkat" || name == "mkdirat") && len(args) >= 2:
		names = []string{at(args[0], args[1])}
	case name == "symlink" && len(args) >= 2:
		names = []string{at("", args[1])}
	case name == "symlinkat" && len(args) >= 3:
		names = []string{at(args[1], args[2])}
	}
	if name == "link" || name == "linkat" {
		names = names[len(names)-1:]
	}
	for _, n := range names {
		ev.Kind, ev.Path = Write, n
		p.add(ev)
	}
}

func (p *parser) add(ev Event) { p.out.Events = append(p.out.Events, ev) }

// resolveAt is name resolved against the folder a descriptor argument
// names (strace -y prints it as AT_FDCWD</dir> or 3</dir>), or cwd.
// The final component is kept as written (a call that removes or renames
// a link acts on the link).
func resolveAt(cwd, dirArg, name string) string {
	if !path.IsAbs(name) {
		dir := cwd
		if d := decoration(dirArg); d != "" {
			dir = d
		}
		name = joinRaw(dir, name)
	}
	dir, base := path.Split(name)
	if base == "" || base == "." || base == ".." {
		return Physical(name)
	}
	return path.Join(Physical(dir), base)
}

// joinRaw joins without cleaning: "a/link/.." must reach the kernel's
// reading, not the lexical one.
func joinRaw(dir, name string) string {
	if path.IsAbs(name) {
		return name
	}
	return dir + "/" + name
}
