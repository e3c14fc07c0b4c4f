package facts

import (
	"errors"
	"fmt"
	"io/fs"
)

// The work budget of one call (issue 20). bashfacts bounds what a command
// decomposes into (MaxWords, MaxTokens, …); these bound what Build makes of
// it, and of a tool's own arguments (an MCP tool's list of paths, a search
// filter's globs). All fail closed, and none is met by a call a person or
// an agent makes:
//
//   - a path longer than MaxPathBytes is not resolved: the kernel refuses
//     it too (ENAMETOOLONG), and its check asks (<unresolved-path>);
//   - past MaxProbes file-system operations, every path still to resolve,
//     glob to expand or folder to walk fails and asks instead;
//   - a call of more than MaxChecks checks is decided as one check that
//     asks: an unparseable command (unless a rule denies the whole text),
//     or the tool's malformed floor.
const (
	// MaxPathBytes is the kernel's PATH_MAX.
	MaxPathBytes = 4096
	// MaxProbes counts lstat and readlink calls and directory entries
	// listed (globs, recursive reads, search filters). A recursive read
	// walks at most 5,000 entries and a search filter 20,000, so a call
	// may make several such walks.
	MaxProbes = 100_000
	// MaxChecks bounds the input document: bashfacts' MaxTokens path
	// tokens with their strict-mode checks fit.
	MaxChecks = 30_000
)

// maxResolvedBytes bounds the path a resolution builds while following
// links (each target may itself be up to PATH_MAX).
const maxResolvedBytes = 16 * MaxPathBytes

var (
	errPathTooLong = fmt.Errorf("file name too long (more than %d bytes)", MaxPathBytes)
	errBudget      = fmt.Errorf("regate's budget of %d file-system operations for one call is spent", MaxProbes)
)

// budget is what one call has spent. A nil budget (facts asked for outside
// Build) never runs out.
type budget struct {
	probes int
}

// probe spends n file-system operations, failing past MaxProbes.
func (b *budget) probe(n int) error {
	if b == nil {
		return nil
	}
	if b.probes += n; b.probes > MaxProbes {
		return errBudget
	}
	return nil
}

// isBudget reports whether err is the spent budget, which a walk must pass
// on instead of reading it as an unreadable folder.
func isBudget(err error) bool { return errors.Is(err, errBudget) }

// overBudget is the one check of a call past MaxChecks.
func overBudget(tool string, shell bool, command string, n int) Check {
	why := fmt.Sprintf("the call makes more than %d checks (%d), past regate's budget for one call", MaxChecks, n)
	if shell {
		return Check{Surface: "bash", Value: command, Forms: [][]string{{command}}, Unparseable: true, Reason: why}
	}
	return malformedCheck(tool, why)
}

// lstat is fs().Lstat, spending the budget.
func (e *Env) lstat(name string) (fs.FileMode, error) {
	if err := e.spent.probe(1); err != nil {
		return 0, err
	}
	return e.fs().Lstat(name)
}
