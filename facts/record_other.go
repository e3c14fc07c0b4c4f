//go:build !linux

package facts

import "errors"

// LstatRecord is not read on this system: every tracked file counts as
// changed (worktree.go).
func (OSFS) LstatRecord(name string) (FileRecord, error) {
	return FileRecord{}, errors.New("no stat record on this system")
}
