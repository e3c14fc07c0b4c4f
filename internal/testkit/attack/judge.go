package attack

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path"
	"strings"

	"github.com/regate/regate/compiler"
	"github.com/regate/regate/facts"
	"github.com/regate/regate/policies"
	"github.com/regate/regate/runtime"
	"github.com/tailscale/hujson"
)

// Judge decides generated commands with the bundled default policy, on the
// fixture's real file system, and holds what an allowed command did (its
// trace) to the same policy.
type Judge struct {
	fix *Fixture
	// policy is the bundled default policy; commands is the same without
	// its path rules (every path allowed), to judge a program executed by
	// its command rules and strict floors alone: what it then opens is
	// judged apart, as the kernel saw it, and an argument that is data
	// (a listing passed through $(…)) is not mistaken for a path.
	policy, commands *compiler.Output
	engines          map[engineKey]*runtime.Engine
	// asked memoises the judgement of events: a trace repeats the same
	// reads (git opens .git/HEAD a dozen times), and the fixture is the
	// same for every run.
	asked   map[memoKey]runtime.Decision
	secrets []string // well-known secrets outside the fixture
}

type memoKey struct {
	out           *compiler.Output
	cwd, tool, in string
}

type engineKey struct {
	out *compiler.Output
	cwd string
}

// NewJudge compiles the bundled default policy with the fixture's home as ~.
func NewJudge(fix *Fixture) (*Judge, error) {
	policy, err := compile(policies.Default(), fix.Home)
	if err != nil {
		return nil, err
	}
	src, err := withoutPathRules(policies.Default())
	if err != nil {
		return nil, err
	}
	commands, err := compile(src, fix.Home)
	if err != nil {
		return nil, err
	}
	j := &Judge{fix: fix, policy: policy, commands: commands, engines: map[engineKey]*runtime.Engine{}, asked: map[memoKey]runtime.Decision{},
		secrets: []string{"/etc/shadow", "/etc/gshadow", "/etc/sudoers", "/root/.ssh", "/root/.aws"}}
	if home, err := os.UserHomeDir(); err == nil && home != "" && home != "/" {
		j.secrets = append(j.secrets, path.Join(home, ".ssh"), path.Join(home, ".aws"), path.Join(home, ".config"))
	}
	return j, nil
}

func compile(src []byte, home string) (*compiler.Output, error) {
	out, err := compiler.Compile(compiler.Input{Policy: &compiler.Source{Name: policies.DefaultName, Data: src}},
		compiler.WithHome(home))
	if err != nil {
		return nil, err
	}
	if fatal := out.Diagnostics.Fatal(); len(fatal) > 0 {
		return nil, fmt.Errorf("attack: the default policy: %v", fatal)
	}
	return out, nil
}

// withoutPathRules is the policy with "path": {"*": "allow"} and no
// examples (they expect the path rules).
func withoutPathRules(src []byte) ([]byte, error) {
	std, err := hujson.Standardize(append([]byte(nil), src...))
	if err != nil {
		return nil, err
	}
	var doc map[string]any
	if err := json.Unmarshal(std, &doc); err != nil {
		return nil, err
	}
	perm, ok := doc["permission"].(map[string]any)
	if !ok {
		return nil, errors.New("attack: the default policy has no permission object")
	}
	perm["path"] = map[string]any{"*": "allow"}
	delete(doc, "examples")
	return json.Marshal(doc)
}

// Decide decides a call as a session standing in cwd would. The engine
// keeps no decision cache: every decision is made from the facts alone,
// in any order (the cache key is issue 19's first class, tested apart).
func (j *Judge) Decide(ctx context.Context, cwd string, call facts.Call) (runtime.Decision, error) {
	return j.decide(ctx, j.policy, cwd, call)
}

func (j *Judge) decide(ctx context.Context, out *compiler.Output, cwd string, call facts.Call) (runtime.Decision, error) {
	key := engineKey{out, cwd}
	e, ok := j.engines[key]
	if !ok {
		var err error
		e, err = runtime.New(ctx, out, runtime.WithCwd(cwd), runtime.WithFS(facts.OSFS{}), runtime.WithCacheSize(0))
		if err != nil {
			return runtime.Decision{}, err
		}
		j.engines[key] = e
	}
	return e.Decide(ctx, call)
}

// Finding is one thing an allowed command did that the policy does not
// allow on its own.
type Finding struct {
	Event Event
	// What the access is, as the policy is asked about it: "read PATH",
	// "ls PATH", "write PATH", "bash CMD", or "prints a secret".
	What string
	// Decision is the policy's answer to What.
	Decision string
}

func (f Finding) String() string {
	return fmt.Sprintf("%s: %s\n\t\tstrace: %s", f.What, f.Decision, f.Event.Line)
}

// Judge holds each event of a trace to the policy:
//   - a file opened for reading inside the fixture (or a well-known secret)
//     must be allowed to the read tool; a folder listed by a program other
//     than bash must be allowed to the ls tool (bash's own listing, to
//     expand a glob, yields names only and is left out);
//   - a file written, created, renamed or removed anywhere must be allowed
//     to the write tool, except the streams under /dev, bash's here-document
//     files in TMPDIR, and git's own index lock;
//   - a program executed must be allowed as a bash command made of its base
//     name and arguments, decided where the process stood by the policy's
//     command rules and strict floors (its path rules set aside: what the
//     program opens is judged above), except the launching bash and git's
//     helpers under git's exec path.
func (j *Judge) Judge(ctx context.Context, tr *Trace) []Finding {
	var out []Finding
	for _, ev := range tr.Events {
		what, call, cwd := j.question(ev)
		if what == "" {
			continue
		}
		policy := j.policy
		if ev.Kind == Exec {
			policy = j.commands
		}
		q := memoKey{policy, cwd, call.Tool, what}
		d, ok := j.asked[q]
		var err error
		if !ok {
			if d, err = j.decide(ctx, policy, cwd, call); err == nil {
				j.asked[q] = d
			}
		}
		switch {
		case err != nil:
			out = append(out, Finding{Event: ev, What: what, Decision: "fault: " + err.Error()})
		case ev.Kind == Exec && d.Surface != "bash":
			// an argument's path fact (data that looks like a path, a path
			// that cannot be resolved): what the program opened is judged
			// by its own events
		case d.Action != "allow":
			out = append(out, Finding{Event: ev, What: what, Decision: string(d.Action) + " (" + d.Matched + ")"})
		}
	}
	return out
}

// question is the call the policy is asked about an event, or "" when the
// event is of no interest.
func (j *Judge) question(ev Event) (string, facts.Call, string) {
	switch ev.Kind {
	case Read:
		if !j.ofInterest(ev.Path) {
			return "", facts.Call{}, ""
		}
		tool := "read"
		if fi, err := os.Stat(ev.Path); ev.Dir || (err == nil && fi.IsDir()) {
			if isShell(ev.Image) {
				return "", facts.Call{}, ""
			}
			tool = "ls"
		}
		return tool + " " + ev.Path, facts.Call{Tool: tool, Input: map[string]any{"path": ev.Path}}, j.fix.Project
	case Write:
		if j.exemptWrite(ev) {
			return "", facts.Call{}, ""
		}
		return "write " + ev.Path, facts.Call{Tool: "write", Input: map[string]any{"path": ev.Path, "content": ""}}, j.fix.Project
	case Exec:
		if ev.Launcher || isGitHelper(ev) {
			return "", facts.Call{}, ""
		}
		argv := append([]string{path.Base(ev.Path)}, ev.Argv[min(1, len(ev.Argv)):]...)
		cmd := ShellJoin(argv)
		return "bash " + cmd, facts.Call{Tool: "bash", Input: map[string]any{"command": cmd}}, ev.Cwd
	}
	return "", facts.Call{}, ""
}

func (j *Judge) ofInterest(p string) bool {
	if within(p, j.fix.Root) {
		return true
	}
	for _, s := range j.secrets {
		if within(p, s) {
			return true
		}
	}
	return false
}

func (j *Judge) exemptWrite(ev Event) bool {
	switch {
	case within(ev.Path, "/dev"), within(ev.Path, "/proc"):
		return true
	case isShell(ev.Image) && path.Dir(ev.Path) == j.fix.Tmp && strings.HasPrefix(path.Base(ev.Path), "sh-thd"):
		return true // bash's here-document file
	case path.Base(ev.Image) == "git" && (ev.Path == path.Join(j.fix.Project, ".git", "index.lock") || ev.Path == path.Join(j.fix.Project, ".git", "index")):
		return true // git status refreshing its index
	}
	return false
}

// isShell is a process still running bash (the launcher, a subshell, a
// child before its exec).
func isShell(image string) bool { return image == "" || path.Base(image) == "bash" }

// isGitHelper is a program git runs from its exec path.
func isGitHelper(ev Event) bool {
	return path.Base(ev.Image) == "git" && strings.Contains(ev.Path, "/git-core/")
}

func within(p, dir string) bool {
	return p == dir || strings.HasPrefix(p, strings.TrimSuffix(dir, "/")+"/")
}

// ShellJoin quotes words for bash: a word of safe characters stays bare,
// any other is single-quoted.
func ShellJoin(words []string) string {
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = shellQuote(w)
	}
	return strings.Join(q, " ")
}

func shellQuote(w string) string {
	if w != "" && strings.Trim(w, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-+=./:,@%") == "" {
		return w
	}
	return "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
}
