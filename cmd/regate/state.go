package main

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/regate/regate/cmd/regate/internal/statedir"
	"github.com/regate/regate/runtime"
)

// stateFlags name the state folder: the compiled policies and session
// approvals that outlive one process (docs/hosts.md).
type stateFlags struct {
	dir string
	off bool
}

func (s *stateFlags) bind(cmd *cobra.Command) {
	cmd.Flags().StringVar(&s.dir, "state-dir", "", "folder of compiled policies and session approvals (default $"+statedir.EnvVar+", else regate's folder in the user cache folder)")
	cmd.Flags().BoolVar(&s.off, "no-state", false, "compile every time and keep no session approvals")
}

// open opens the state folder; when it cannot, it says why on w and
// returns nil, and the caller goes on without it (compiling every time,
// no approvals: slower, and asking more, never less).
func (s *stateFlags) open(w io.Writer) *statedir.Dir {
	if s.off {
		return nil
	}
	d, err := s.dirAt()
	if err != nil {
		fmt.Fprintf(w, "regate: no state folder, so nothing is cached: %v\n", err)
		return nil
	}
	return d
}

// dirAt opens the folder --state-dir names, else the default one.
func (s *stateFlags) dirAt() (*statedir.Dir, error) {
	root := s.dir
	if root == "" {
		var err error
		if root, err = statedir.DefaultRoot(); err != nil {
			return nil, err
		}
	}
	return statedir.Open(root)
}

// required opens the state folder for a command that exists to use it.
func (s *stateFlags) required() (*statedir.Dir, error) {
	if s.off {
		return nil, withCode(exitUsage, fmt.Errorf("--no-state leaves nothing to record approvals in"))
	}
	d, err := s.dirAt()
	if err != nil {
		return nil, withCode(exitFault, err)
	}
	return d, nil
}

// useRecordedApprovals gives eng's session the approvals `regate approve`
// recorded for session under the policy identity policy (policyID).
// Approvals that cannot be read or compiled are left out (the call asks
// more, never less), and w is told why. A nil state folder holds none.
func useRecordedApprovals(eng *runtime.Engine, state *statedir.Dir, policy, session string, w io.Writer) {
	if state == nil || session == "" {
		return
	}
	approvals, err := state.Approvals(policy, session)
	if err == nil && len(approvals) > 0 {
		err = eng.Session().Approve(approvals...)
	}
	if err != nil {
		fmt.Fprintf(w, "regate: session approvals left out: %v\n", oneLine(err.Error()))
	}
}
