package facts

import (
	"io/fs"
	"path"
	"time"

	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/index"
)

// What git diff prints without a revision (role worktree-changes): the
// tracked files whose work-tree copy differs from the index. git finds
// them by comparing each file's lstat with what the index recorded of it
// when it last wrote the file's entry (mode, size, times, inode, device,
// owner), reading the contents only where those differ; and it counts an
// entry modified in the same second as the index was written, or later,
// as changed (racy: a write in that second would not show). regate makes the same
// comparison and reads, as a history read does, the files git would
// compare: so a repository that tracks a key the rules deny lets git diff
// through while that key is untouched, and asks once it is changed,
// deleted, or staged with intent-to-add. A file system that cannot report
// these records (MapFS) counts every file as changed, as before.

// FileRecord is what lstat reports of a file that git's index records.
type FileRecord struct {
	Mode             fs.FileMode
	Size             int64
	ModTime, ChgTime time.Time
	Inode, Dev       uint64
	UID, GID         uint32
}

// RecordFS is a file system that reports a file's record, as lstat does
// (not following a final link). OSFS is one on Linux.
type RecordFS interface {
	LstatRecord(name string) (FileRecord, error)
}

// changedSince returns whether an entry of the index of gitDir may differ
// from its copy in the work tree at root: git diff reads it then.
func (e *Env) changedSince(gitDir, root string) func(*index.Entry) bool {
	rfs, ok := e.fs().(RecordFS)
	if !ok {
		return func(*index.Entry) bool { return true }
	}
	stamp, err := rfs.LstatRecord(path.Join(gitDir, "index"))
	if err != nil {
		return func(*index.Entry) bool { return true }
	}
	return func(en *index.Entry) bool {
		if en.Mode == filemode.Submodule {
			return false // a submodule's diff is its commit's name
		}
		if en.Stage != 0 || en.IntentToAdd || en.SkipWorktree || en.ModifiedAt.Unix() >= stamp.ModTime.Unix() {
			return true // conflicted, a placeholder, sparse, or racy (git compares seconds)
		}
		if e.spent.probe(1) != nil {
			return true
		}
		r, err := rfs.LstatRecord(path.Join(root, en.Name))
		return err != nil || !sameRecord(en, r)
	}
}

// sameRecord reports whether lstat's record of a file matches the index
// entry's, field by field as git's default core.checkStat compares them
// (the index keeps 32 bits of size, inode and device).
func sameRecord(en *index.Entry, r FileRecord) bool {
	return recordMode(r.Mode) == en.Mode &&
		uint32(r.Size) == en.Size &&
		r.ModTime.Equal(en.ModifiedAt) && r.ChgTime.Equal(en.CreatedAt) &&
		uint32(r.Inode) == en.Inode && uint32(r.Dev) == en.Dev &&
		r.UID == en.UID && r.GID == en.GID
}

// recordMode is the index mode git gives a file of mode m: a link, an
// executable (any owner execute bit) or a regular file.
func recordMode(m fs.FileMode) filemode.FileMode {
	switch {
	case m&fs.ModeSymlink != 0:
		return filemode.Symlink
	case m.IsRegular() && m&0o100 != 0:
		return filemode.Executable
	case m.IsRegular():
		return filemode.Regular
	}
	return filemode.Empty
}
