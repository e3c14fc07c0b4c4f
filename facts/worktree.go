package facts

import (
	"bytes"
	"crypto/sha1"
	"fmt"
	"io"
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
// owner), and, where those differ or the entry is racy (modified in the
// second the index was written, or later), hashing the contents to compare
// them with the blob the entry names. regate makes the same
// comparison and reads, as a history read does, the files git would
// compare: so a repository that tracks a key the rules deny lets git diff
// through while that key is untouched (touched or checked out again
// included), and asks once it is changed, deleted, or staged with
// intent-to-add. A file system that cannot report
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
		if en.Stage != 0 || en.IntentToAdd || en.SkipWorktree {
			return true // conflicted, a placeholder, or sparse
		}
		if e.spent.probe(1) != nil {
			return true
		}
		r, err := rfs.LstatRecord(path.Join(root, en.Name))
		switch {
		case err != nil:
			return true // gone: git prints its removal
		case sameRecord(en, r) && en.ModifiedAt.Unix() < stamp.ModTime.Unix():
			return false // as recorded, and not racy (git compares seconds)
		}
		return !e.sameContent(root, en, r)
	}
}

// maxHashBytes bounds the file sameContent hashes: a larger one counts as
// changed.
const maxHashBytes = 1 << 20

// sameContent reports whether a tracked file whose record differs from
// the index's (or is racy) still holds the blob the entry names, as git
// checks next: sha1 of "blob SIZE\0" and the contents. A file git would
// filter (a clean filter, line endings) hashes otherwise, and counts as
// changed.
func (e *Env) sameContent(root string, en *index.Entry, r FileRecord) bool {
	if !r.Mode.IsRegular() || r.Size > maxHashBytes || uint32(r.Size) != en.Size {
		return false
	}
	f, err := e.openRegularFile(path.Join(root, en.Name), en.Name)
	if err != nil {
		return false
	}
	defer f.Close()
	h := sha1.New()
	fmt.Fprintf(h, "blob %d\x00", r.Size)
	n, err := io.Copy(h, io.LimitReader(f, maxHashBytes+1))
	return err == nil && n == r.Size && bytes.Equal(h.Sum(nil), en.Hash[:])
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
