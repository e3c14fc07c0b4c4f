package facts

import (
	"errors"
	"os"
	"syscall"
	"time"
)

// LstatRecord reports a file's record, as git's index keeps it.
func (OSFS) LstatRecord(name string) (FileRecord, error) {
	fi, err := os.Lstat(name)
	if err != nil {
		return FileRecord{}, err
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return FileRecord{}, errors.New("no stat record for " + name)
	}
	return FileRecord{
		Mode: fi.Mode(), Size: fi.Size(),
		ModTime: time.Unix(st.Mtim.Unix()), ChgTime: time.Unix(st.Ctim.Unix()),
		Inode: st.Ino, Dev: st.Dev, UID: st.Uid, GID: st.Gid,
	}, nil
}
