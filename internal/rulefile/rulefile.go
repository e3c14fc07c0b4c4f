package rulefile

import (
	"errors"
	"fmt"
	"io"
	"os"
)

// ErrNotRegular is wrapped by the error Read returns for a path that is
// not a regular file (a FIFO, a device, a socket, a directory).
var ErrNotRegular = errors.New("not a regular file")

// NotRegularError is the error for a path that is not a regular file: it
// names what the path is instead (Kind: "a named pipe", "a directory", ...)
// and wraps ErrNotRegular.
type NotRegularError struct {
	Path, Kind string
}

func (e *NotRegularError) Error() string {
	return fmt.Sprintf("%s: %v (%s)", e.Path, ErrNotRegular, e.Kind)
}

func (e *NotRegularError) Unwrap() error { return ErrNotRegular }

// ErrTooLarge is wrapped by the error Read returns for a file past the
// limit.
var ErrTooLarge = errors.New("file too large")

// ErrSymlink is wrapped by the error ReadEntry returns for an entry that is
// a symbolic link (or became one between the check and the open).
var ErrSymlink = errors.New("a symbolic link")

// Read returns the contents of the regular file at path (links followed),
// refusing anything else. A file of more than limit bytes is not read past
// limit+1 bytes: Read returns those with an error wrapping ErrTooLarge, for
// a caller that reports the size itself (the compiler's file_too_large).
// The limit holds while reading, so a file that grows is caught too.
func Read(path string, limit int64) ([]byte, error) {
	f, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	return readOpened(f, st, path, limit)
}

// ReadEntry reads the entry name of the folder dir as Read reads a path,
// but never through a symbolic link: an entry that is a link, whatever it
// points at (a secret elsewhere, /dev/zero, nothing), is refused with
// ErrSymlink and not opened. Because dir is an os.Root, an entry swapped
// for a link between the check and the open still cannot lead outside
// dir; and the file opened must be the very entry checked (os.SameFile),
// or it is refused as well. The error names dir's path joined with name.
func ReadEntry(dir *os.Root, name string, limit int64) ([]byte, error) {
	path := dir.Name() + string(os.PathSeparator) + name
	before, err := dir.Lstat(name)
	if err != nil {
		return nil, err
	}
	if before.Mode()&os.ModeSymlink != 0 {
		return nil, fmt.Errorf("%s: %w, not followed", path, ErrSymlink)
	}
	f, err := dir.OpenFile(name, os.O_RDONLY|nonBlocking, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !os.SameFile(before, st) {
		return nil, fmt.Errorf("%s: %w: the entry changed between the check and the open", path, ErrSymlink)
	}
	return readOpened(f, st, path, limit)
}

// readOpened reads the opened file f, whose own status is st: a regular
// file only, never past limit+1 bytes.
func readOpened(f *os.File, st os.FileInfo, path string, limit int64) ([]byte, error) {
	if !st.Mode().IsRegular() {
		return nil, &NotRegularError{Path: path, Kind: kind(st.Mode())}
	}
	b, err := readUpTo(f, st.Size(), limit+1)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if int64(len(b)) > limit {
		return b, fmt.Errorf("%s: %w: more than %d bytes", path, ErrTooLarge, limit)
	}
	return b, nil
}

// Open opens the regular file at path (links followed) for reading,
// refusing anything else without waiting, for a caller that streams it
// (the serve watcher hashes rule files without holding them). The caller
// bounds what it reads and closes the file.
func Open(path string) (*os.File, error) {
	f, err := openNonBlocking(path)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, &NotRegularError{Path: path, Kind: kind(st.Mode())}
	}
	return f, nil
}

// readUpTo reads r to its end or to max bytes, whichever comes first.
// The buffer is sized from the file's size once (size+1, so the end is seen
// without growing it) instead of grown from 512 bytes; a file that grows
// while read still grows the buffer, never past max.
func readUpTo(r io.Reader, size, max int64) ([]byte, error) {
	if size < 0 || size >= max {
		size = max - 1
	}
	b := make([]byte, 0, size+1)
	lr := io.LimitReader(r, max)
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		n, err := lr.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, err
		}
	}
}

// kind names what a path that is not a regular file is.
func kind(m os.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&os.ModeNamedPipe != 0:
		return "a named pipe"
	case m&os.ModeSocket != 0:
		return "a socket"
	case m&os.ModeDevice != 0:
		return "a device"
	}
	return m.Type().String()
}
