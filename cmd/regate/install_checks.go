package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/regate/regate/compiler"
	"github.com/regate/regate/hosts"
	"github.com/regate/regate/runtime"
)

// An installPlan is the hook install writes and what it checked.
type installPlan struct {
	// command is the shell command the host runs.
	command string
	// dir is the folder the host runs it in, where the host takes one.
	dir string
	// bin and policy are the executable and policy file as found on this
	// machine (policy empty: the bundled default), for the proof command;
	// hardGuards the hard-guards file, if any.
	bin, policy, hardGuards string
	// binArg and policyArg are them as the host is to name them: with
	// --project, "regate" from PATH and a path relative to the project.
	binArg, policyArg string
	// compiled is the policy the hook will decide with, when it compiled.
	compiled *compiler.Output
}

// planInstall builds the hook command and lists every reason it would not
// guard the host's calls: a policy that is missing or does not compile, an
// executable that will vanish, and with --project a path that only exists
// on this machine.
func planInstall(ctx context.Context, p *installParams, host, project string) (installPlan, []string) {
	var plan installPlan
	var problems []string
	if _, err := hosts.Lookup(host, hosts.Options{}); err != nil {
		problems = append(problems, fmt.Sprintf("this regate cannot answer %s's hook (%v), so every call would fail", host, err))
	}
	var prog string
	switch {
	case p.project && p.bin == "":
		// A project file is shared: the hook runs whichever regate each
		// machine has on PATH.
		prog, plan.binArg = "regate", "regate"
		found, err := exec.LookPath("regate")
		if err != nil {
			problems = append(problems, "regate is not on PATH, so the hook's command would not be found and the host would run every tool unguarded; install regate on PATH (go install github.com/regate/regate/cmd/regate@latest)")
			found = "regate"
		}
		plan.bin = found
	case p.project:
		abs, _ := filepath.Abs(p.bin)
		rel, inside := within(project, abs)
		if !inside {
			problems = append(problems, fmt.Sprintf("--project writes a file other machines read, and --bin %s lies outside the project; leave --bin out to run regate from PATH", p.bin))
			prog = shellQuoteArg(abs)
		} else {
			prog = projectRef(host, rel, &plan)
		}
		problems = append(problems, executableProblems(abs)...)
		plan.bin, plan.binArg = abs, filepath.ToSlash(rel)
	default:
		bin := p.bin
		if bin == "" {
			var err error
			if bin, err = selfExecutable(); err != nil {
				problems = append(problems, "cannot tell where this regate executable is: "+err.Error()+"; name it with --bin")
				bin = "regate"
			}
		}
		abs, _ := filepath.Abs(bin)
		problems = append(problems, executableProblems(abs)...)
		prog = shellQuoteArg(abs)
		plan.bin, plan.binArg = abs, abs
	}
	plan.command = prog + " hook " + host + " --deadline " + p.deadline.String()
	if p.policy != "" {
		abs, _ := filepath.Abs(p.policy)
		plan.policy, plan.policyArg = abs, abs
		if p.project {
			rel, inside := within(project, abs)
			if !inside {
				problems = append(problems, fmt.Sprintf("--project writes a file other machines read, and the policy %s lies outside the project; put it in the project (for example .regate/policy.jsonc)", p.policy))
				plan.command += " --policy " + shellQuoteArg(abs)
			} else {
				plan.command += " --policy " + projectRef(host, rel, &plan)
				plan.policyArg = filepath.ToSlash(rel)
				if _, err := os.Stat(filepath.Join(project, ".git")); host == "codex" && err != nil {
					problems = append(problems, fmt.Sprintf("Codex finds a project's root by its .git, and %s has none, so the hook would not find the policy; run install from the repository's root", project))
				}
			}
		} else {
			plan.command += " --policy " + shellQuoteArg(abs)
		}
	}
	if p.hardGuards != "" {
		problems = append(problems, planHardGuards(p, host, project, &plan)...)
	}
	compiled, err := compileForInstall(ctx, plan.policy, plan.hardGuards)
	if err != nil {
		problems = append(problems, err.Error())
	}
	plan.compiled = compiled
	return plan, problems
}

// planHardGuards adds --hard-guards to the hook command, named as the
// policy is (with --project, from the project folder), and lists what
// would keep the hook from reading it.
func planHardGuards(p *installParams, host, project string, plan *installPlan) []string {
	var problems []string
	abs, _ := filepath.Abs(p.hardGuards)
	plan.hardGuards = abs
	if host == "opencode" {
		problems = append(problems, "OpenCode's plugin passes no --hard-guards to the hook, so the hard guards would not be read; leave --hard-guards out and move them into the policy")
	}
	if !p.project {
		plan.command += " --hard-guards " + shellQuoteArg(abs)
		return problems
	}
	rel, inside := within(project, abs)
	if !inside {
		plan.command += " --hard-guards " + shellQuoteArg(abs)
		return append(problems, fmt.Sprintf("--project writes a file other machines read, and the hard guards %s lie outside the project; put them in the project (for example .regate/hard-guards.jsonc)", p.hardGuards))
	}
	plan.command += " --hard-guards " + projectRef(host, rel, plan)
	return problems
}

// projectRef is a path inside the project as the host's hook command names
// it: from the project folder the host exports, since a hook may run in a
// subfolder of it.
func projectRef(host, rel string, plan *installPlan) string {
	q := shellQuoteArg(filepath.ToSlash(rel))
	switch host {
	case "claude":
		return `"$CLAUDE_PROJECT_DIR"/` + q
	case "gemini":
		return `"$GEMINI_PROJECT_DIR"/` + q
	case "codex":
		// Codex exports no project folder; its project root is the git
		// root (project_root_markers), as its own hook examples use.
		return `"$(git rev-parse --show-toplevel)"/` + q
	default:
		// Copilot CLI runs the hook in cwd, relative to the repository root.
		plan.dir = "."
		return q
	}
}

// compileForInstall compiles the policy the way the hook does (the bundled
// default when path is empty) and loads it into an engine; any error, or a
// diagnostic that makes the file fail closed, is a refusal.
func compileForInstall(ctx context.Context, path, hardGuards string) (*compiler.Output, error) {
	name := path
	if name == "" {
		name = "the bundled default policy"
	}
	if hardGuards != "" {
		name += " (with the hard guards " + hardGuards + ")"
	}
	rf := &ruleFlags{policy: path, hardGuards: hardGuards}
	out, err := rf.compile(io.Discard)
	if err != nil {
		return nil, fmt.Errorf("the policy %s cannot be read (%s), so the hook would block every call", name, errText(err))
	}
	if fatal := out.Diagnostics.Fatal(); len(fatal) > 0 {
		return nil, fmt.Errorf("the policy %s does not compile (%d errors, the first: %s), so the hook would block every call; regate check --policy %s shows them all",
			name, len(fatal), oneLine(fatal[0].Error()), shellQuoteArg(path))
	}
	if _, err := runtime.New(ctx, out); err != nil {
		return nil, fmt.Errorf("the policy %s does not load: %s", name, errText(err))
	}
	return out, nil
}

// selfExecutable is this regate's path, preferring the PATH entry that
// reaches it (a package manager's symlink survives an upgrade; the file it
// resolves to does not).
func selfExecutable() (string, error) {
	self, err := os.Executable()
	if err != nil {
		return "", err
	}
	if onPath, err := exec.LookPath("regate"); err == nil {
		if abs, err := filepath.Abs(onPath); err == nil && sameFile(abs, self) {
			return abs, nil
		}
	}
	return self, nil
}

func sameFile(a, b string) bool {
	sa, err := os.Stat(a)
	if err != nil {
		return false
	}
	sb, err := os.Stat(b)
	return err == nil && os.SameFile(sa, sb)
}

// executableProblems lists why the host could not keep running bin: it is
// missing, or it lives where files are removed (a temporary folder, Go's
// build cache, as go run and go test leave it).
func executableProblems(bin string) []string {
	st, err := os.Stat(bin)
	if err != nil {
		return []string{fmt.Sprintf("the regate executable %s cannot be found (%v), so the host could not run the hook", bin, err)}
	}
	if st.IsDir() || st.Mode().Perm()&0o111 == 0 {
		return []string{fmt.Sprintf("%s is not an executable file, so the host could not run the hook", bin)}
	}
	if where, ok := transientFolder(bin); ok {
		return []string{fmt.Sprintf("the regate executable %s lives in %s, which is cleaned away (go run, go test, a temporary folder), and then the host would run every tool unguarded; go install it or name a lasting copy with --bin", bin, where)}
	}
	return nil
}

// transientFolder reports whether path lies in a folder whose files vanish:
// the temporary folder, Go's build cache, or a go-build work folder.
func transientFolder(path string) (string, bool) {
	for _, part := range strings.Split(filepath.ToSlash(path), "/") {
		if strings.HasPrefix(part, "go-build") {
			return "a Go build folder (" + part + ")", true
		}
	}
	dirs := map[string]string{os.TempDir(): "the temporary folder"}
	if c := os.Getenv("GOCACHE"); c != "" && c != "off" {
		dirs[c] = "Go's build cache"
	}
	if c, err := os.UserCacheDir(); err == nil {
		dirs[filepath.Join(c, "go-build")] = "Go's build cache"
	}
	if c := goEnvGOCACHE(); c != "" && c != "off" {
		dirs[c] = "Go's build cache"
	}
	for dir, what := range dirs {
		if _, inside := within(dir, path); inside {
			return what + " " + dir, true
		}
	}
	return "", false
}

// goEnvGOCACHE asks the go command for its build cache, when there is one.
func goEnvGOCACHE() string {
	goBin, err := exec.LookPath("go")
	if err != nil {
		return ""
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, goBin, "env", "GOCACHE").Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

// within reports whether path lies inside dir (symbolic links resolved
// where they exist), and path relative to dir.
func within(dir, path string) (string, bool) {
	if dir == "" {
		return "", false
	}
	d, p := resolved(dir), resolved(path)
	rel, err := filepath.Rel(d, p)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return "", false
	}
	return rel, true
}

// resolved is path with symbolic links resolved, as far up as it exists.
func resolved(path string) string {
	path = filepath.Clean(path)
	if r, err := filepath.EvalSymlinks(path); err == nil {
		return r
	}
	parent := filepath.Dir(path)
	if parent == path {
		return path
	}
	return filepath.Join(resolved(parent), filepath.Base(path))
}
