package facts

import (
	"path"
	"slices"
	"strings"

	"github.com/regate/regate/bashfacts"
	"github.com/regate/regate/internal/matchkey"
)

// Call is one tool call as the host hands it over.
type Call struct {
	// Tool is the tool's registered name.
	Tool string `json:"tool"`
	// Input is the tool's arguments object.
	Input map[string]any `json:"input"`
	// Registered lists the tools registered in the session. When it is not
	// nil, a tool outside it is blocked before any rule.
	Registered []string `json:"registered,omitempty"`
	// Agent is the active agent, if any.
	Agent string `json:"agent,omitempty"`
}

// ShellTool marks a tool as a shell (the policy's shellTools).
type ShellTool struct {
	CommandArgument string
	WorkdirArgument string
	DecisionFloor   string
}

// Env is what facts need to know about the host.
type Env struct {
	// Cwd is the session's working directory; Home the user's home.
	Cwd, Home string
	// FS resolves symbolic links; nil means the host's file system.
	FS FS
	// FoldCase is set when the file system folds case (casefold.go).
	FoldCase bool
	// redirected are the descriptors the command being gated redirects
	// (bashfacts.Facts.FDs), set while its checks are built.
	redirected []int
	// ShellTools are the policy's aliased shells by tool name.
	ShellTools map[string]ShellTool
	// Extract decomposes bash; nil means bashfacts.Extract. The runtime
	// passes a cached one: Extract is a pure function of the command text.
	Extract func(string) (*bashfacts.Facts, error)
	// PathHint, when set, tells a recursive read's walk which paths can
	// matter to the decision (tree.go); nil keeps every path it finds.
	PathHint *PathHint
	// WriteHint does the same for a walk whose entries are changed or
	// deleted (rm -r, find -delete), which meet the write rules too
	// (compiler.Output.WriteHint); nil keeps every entry.
	WriteHint *PathHint
	// spent is the call's work budget (budget.go), set by Build.
	spent *budget
}

func (e *Env) fs() FS {
	if e.FS == nil {
		return OSFS{}
	}
	return e.FS
}

// Input is the document the Rego library decides on (input in Rego).
type Input struct {
	Tool         string  `json:"tool"`
	Unregistered bool    `json:"unregistered"`
	Agent        string  `json:"agent,omitempty"`
	Checks       []Check `json:"checks"`
	// Floor is "ask" when a shell tool's decisionFloor applies.
	Floor string `json:"floor,omitempty"`

	indexed bool // Index has added the derived members
}

// Check is one value the call is gated on, on one surface: a path (surface
// "path"), the tool's own value (surface = the tool's name, "mcp", "skill")
// or a bash unit (surface "bash"). Forms are groups of spellings of the
// value: the most specific rule is found within each group, and the most
// restrictive group wins (R2).
type Check struct {
	Surface string     `json:"surface"`
	Value   string     `json:"value"`
	Forms   [][]string `json:"forms"`
	// Origin is where a bash unit was found, "" at the top level.
	Origin string `json:"origin,omitempty"`
	// Error is set when a path could not be resolved; it asks.
	Error string `json:"error,omitempty"`
	// Wrapper is "opaque" or "indirection" for a unit that runs another
	// command: its allow is floored to ask.
	Wrapper string `json:"wrapper,omitempty"`
	// Runs is the command line a wrapper runs (bashfacts.Unit.Runs).
	Runs string `json:"runs,omitempty"`
	// Unparseable marks a command that could not be split into units; it
	// asks unless a rule denies its whole text (R8). Reason says why.
	Unparseable bool   `json:"unparseable,omitempty"`
	Reason      string `json:"reason,omitempty"`
	// Malformed says why a path-bearing argument could not be read as a
	// path (an array, a number, a missing path of a file tool): the check
	// asks whatever the rules allow (<malformed-input>), a deny still
	// denies, and neither a session approval nor yolo lifts it.
	Malformed string `json:"malformed,omitempty"`
	// Bare marks a bare name found to exist: the catch-all "*" alone does
	// not gate it.
	Bare bool `json:"bare,omitempty"`
	// At is where the value stands in the command (line:col), for bash.
	At string `json:"at,omitempty"`
	// Strict says why strict mode floors this check to ask; StrictOnly
	// marks a check only strict mode decides (docs/strict.md).
	Strict     string `json:"strict,omitempty"`
	StrictOnly bool   `json:"strict_only,omitempty"`
	// SpecOnly marks a check strict mode replaces by better-understood
	// ones: a word the spec's token rules read as a path that the
	// program's argument model says is a pattern or a string (grep's
	// pattern, find -name's glob). Only a policy without strict decides it.
	SpecOnly bool `json:"spec_only,omitempty"`
	// Plain marks a check with one group of spellings and none of the
	// members that change what its rule decides (error, malformed,
	// unparseable, bare, strict, within, wrapper): an input feature that
	// lets the decision look its rule up without testing them one by one.
	// A document without it decides the same, more slowly.
	Plain bool `json:"plain,omitempty"`
	// Within is the folder a recursive read names, on the check whose forms
	// are the paths found inside it (tree.go): a deny among them asks
	// instead, since the person named the folder, not the file.
	Within string `json:"within,omitempty"`
	// Changes marks a Within check whose paths the command deletes or
	// changes (rm -r, chmod -R, find -delete) rather than reads: the
	// message says so.
	Changes bool `json:"changes,omitempty"`
	// Role is "read" for the read-surface check of a file a bash command
	// reads (its program's argument model says so): the read rules decide
	// it, never the universal fallback, so a policy that allows "cat *" and
	// says nothing of read does not ask for every cat under strict mode.
	Role string `json:"role,omitempty"`
	// Keys are, per group of Forms, the candidate keys of its spellings
	// (internal/matchkey): what the compiled index is looked up by, so
	// that a decision never scans the rules. They follow from Surface and
	// Forms alone; the Rego library computes them when a document lacks
	// them.
	Keys [][]string `json:"keys,omitempty"`
	// AnyKeys, on a bare check, are the keys of every group together, each
	// once: an input feature that lets the decision learn in one lookup
	// that only the catch-all reaches any spelling.
	AnyKeys []string `json:"any_keys,omitempty"`
}

// Build extracts the facts of one call, indexed (Index). It never
// decides: every check it returns goes to the Rego library.
func Build(call Call, env Env) *Input {
	in := Unindexed(call, env)
	in.Index()
	return in
}

// Index adds to every check the members that follow from its others alone
// (Keys, AnyKeys, Plain): input features that let the decision look rules
// up rather than scan them. A decision cache keyed on the rest need not
// compute them for a call it has decided before. Index is idempotent.
func (in *Input) Index() {
	if in.indexed {
		return
	}
	in.indexed = true
	for i := range in.Checks {
		c := &in.Checks[i]
		c.Keys = keysOf(c)
		c.AnyKeys = nil
		if c.Bare {
			c.AnyKeys = anyKeys(c.Keys)
		}
		c.Plain = len(c.Forms) == 1 && c.Error == "" && c.Malformed == "" && !c.Unparseable && !c.Bare &&
			c.Strict == "" && c.Within == "" && c.Wrapper == ""
	}
}

// Unindexed extracts the facts of one call without the members Index
// derives.
func Unindexed(call Call, env Env) *Input {
	env.spent = &budget{}
	in := env.build(call)
	if n := len(in.Checks); n > MaxChecks {
		cmd, shell := "", false
		if st, ok := env.ShellTools[call.Tool]; ok || call.Tool == "bash" {
			arg := "command"
			if ok {
				arg = st.CommandArgument
			}
			cmd, _ = call.Input[arg].(string)
			cmd, shell = strings.TrimSpace(cmd), true
		}
		in.Checks = []Check{overBudget(call.Tool, shell, cmd, n)}
	}
	return in
}

// anyKeys are the keys of every group, each once, in the order first seen.
func anyKeys(groups [][]string) []string {
	if len(groups) == 1 {
		return groups[0]
	}
	var out []string
	seen := map[string]bool{}
	for _, g := range groups {
		for _, k := range g {
			if !seen[k] {
				seen[k] = true
				out = append(out, k)
			}
		}
	}
	return out
}

// keysOf lists the candidate keys of every group of c's forms.
func keysOf(c *Check) [][]string {
	class := matchkey.ClassOf(c.Surface)
	out := make([][]string, len(c.Forms))
	for g, grp := range c.Forms {
		out[g] = matchkey.AppendGroup(nil, class, grp)
	}
	return out
}

func (e *Env) build(call Call) *Input {
	in := &Input{Tool: call.Tool, Agent: call.Agent}
	if call.Registered != nil && !slices.Contains(call.Registered, call.Tool) {
		in.Unregistered = true
	}
	args := call.Input
	if args == nil {
		args = map[string]any{}
	}
	cwd := path.Clean(e.Cwd)
	if st, ok := e.ShellTools[call.Tool]; ok || call.Tool == "bash" {
		if !ok {
			// The host codecs put the folder a command runs in (Gemini
			// CLI's dir_path, OpenCode's workdir) in workdir: it is a path
			// and the base of the command's relative paths.
			st = ShellTool{CommandArgument: "command", WorkdirArgument: "workdir"}
		}
		in.Checks = e.shellChecks(args, st, cwd)
		if st.DecisionFloor == "ask" {
			in.Floor = "ask"
		}
		return in
	}
	switch call.Tool {
	case "mcp":
		in.Checks = append(in.Checks, e.mcpPathChecks(args, cwd)...)
		targets := MCPTargets(args)
		in.Checks = append(in.Checks, Check{Surface: "mcp", Value: targets[0], Forms: [][]string{targets}})
	case "skill":
		name, _ := args["name"].(string)
		in.Checks = append(in.Checks, Check{Surface: "skill", Value: name, Forms: [][]string{{name}}})
	default:
		checks := e.pathToolChecks(call.Tool, args, cwd)
		if !fileTools[call.Tool] && !searchTools[call.Tool] {
			// A tool regate has no model of: every path it holds
			// (toolpaths.go), the tool's own check carrying each.
			if more := e.unmodelledPathChecks(call.Tool, args, cwd); len(more) > 0 {
				if _, hasPath := args["path"]; !hasPath {
					checks = nil // the tool's check without a value
				}
				checks = append(checks, more...)
			}
		}
		in.Checks = append(in.Checks, checks...)
		e.markExecConfigWrite(call.Tool, in.Checks)
		if call.Tool == "grep" {
			base := "."
			if p, ok := args["path"].(string); ok && p != "" {
				base = p
			}
			if _, filtered := args["glob"]; !filtered {
				in.Checks = append(in.Checks, e.searchTreeChecks(base, cwd)...)
			}
			in.Checks = append(in.Checks, e.filterChecks(call.Tool, args, base, cwd)...)
		}
	}
	return in
}

// searchTreeChecks are what a host's search tool reads below the folder it
// searches, for strict mode (tree.go): Claude Code's Grep runs ripgrep with
// --hidden, which still honours .gitignore, and Gemini's runs git grep in a
// repository, so the walk is the one git grep makes (hidden names read,
// gitignored paths and version-control folders skipped inside a
// repository, everything but those folders outside one). A
// search of the home folder reaches ~/.ssh: it asks. (A filter, "glob",
// gates what it names instead: filterChecks.)
//
// Only a search that reaches beyond the project is walked: a folder that is
// not the working directory or below it (~, .., /). A search inside the
// project is the agent's daily work, which the walk's bound would turn
// into a prompt in every large repository; there the path rules meet the
// folder as before (docs/strict.md, "Host search tools").
func (e *Env) searchTreeChecks(base, cwd string) []Check {
	if within(e.PathForms(base, cwd), e.PathForms(".", cwd)) {
		return nil
	}
	out := e.treeChecks(bashfacts.Token{Value: base}, cwd, searchRole)
	for i := range out {
		out[i].At = ""
	}
	return out
}

// within reports whether every absolute canonical form of f is the
// project's (p's) folder or below it: links resolved, so a link in the
// project to the home folder is not within it.
func within(f, p Forms) bool {
	if f.Err != "" || p.Err != "" {
		return false
	}
	root, n := "", 0
	for _, c := range p.Canonical {
		if path.IsAbs(c) {
			root = c
			break
		}
	}
	for _, c := range f.Canonical {
		if !path.IsAbs(c) {
			continue
		}
		if n++; root == "" || (c != root && !strings.HasPrefix(c, strings.TrimSuffix(root, "/")+"/")) {
			return false
		}
	}
	return n > 0
}

// pathChecks gates one path on the path surface: its check, then the
// strict-only check of its directory spelling, if it names a directory.
func (e *Env) pathChecks(value, base string) []Check {
	f := e.PathForms(value, base)
	c := Check{Surface: "path", Value: value, Forms: f.groups(), Error: f.Err, Strict: f.Strict}
	if d, ok := dirVariant(c, f); ok {
		return []Check{c, d}
	}
	return []Check{c}
}
