package main

import (
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"time"
)

// listenSocket listens on a Unix socket at path that only this user can
// connect to from the moment the path exists.
//
// A socket takes its mode from the umask when it is bound, so a chmod
// after net.Listen leaves a gap in which another user can connect. The
// umask could be narrowed around the bind, but it is process-wide: a file
// any other goroutine (the Go runtime's, a test's) created meanwhile would
// get the narrow mode too. So the socket is bound inside a fresh 0700
// folder next to path, where no one else can reach it, chmod'ed 0600 there,
// and hard-linked into place. link(2), unlike rename(2), never replaces
// what is at path: a file that appeared there meanwhile is left alone and
// serve refuses to start.
func listenSocket(path string) (net.Listener, error) {
	if err := clearSocketPath(path); err != nil {
		return nil, err
	}
	private, err := os.MkdirTemp(filepath.Dir(path), ".rg") // 0700; a short name, as socket paths are short
	if err != nil {
		return nil, fmt.Errorf("--socket %s: %w", path, err)
	}
	defer os.RemoveAll(private)
	bound := filepath.Join(private, "s")
	l, err := net.Listen("unix", bound)
	if err != nil {
		return nil, fmt.Errorf("--socket %s: %w", path, err)
	}
	ul := l.(*net.UnixListener)
	// Close must not unlink the name it was bound to (gone by then) but the
	// one it is served at, and only while that is still this socket.
	ul.SetUnlinkOnClose(false)
	if err := os.Chmod(bound, 0o600); err != nil {
		ul.Close()
		return nil, fmt.Errorf("--socket %s: %w", path, err)
	}
	if err := os.Link(bound, path); err != nil {
		ul.Close()
		if errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("--socket %s: a file appeared there while serve was starting; it is left alone", path)
		}
		return nil, fmt.Errorf("--socket %s: %w", path, err)
	}
	st, err := os.Lstat(path)
	if err != nil {
		ul.Close()
		return nil, fmt.Errorf("--socket %s: %w", path, err)
	}
	return &socketListener{UnixListener: ul, path: path, st: st}, nil
}

// clearSocketPath makes way for a new socket at path: nothing there is
// fine, a stale socket (one no one answers on) is removed; a socket a
// server still answers on, or anything that is not a socket, is refused
// and left as it is.
func clearSocketPath(path string) error {
	st, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("--socket %s: %w", path, err)
	}
	if st.Mode()&fs.ModeSocket == 0 {
		return fmt.Errorf("--socket %s: there is a file there that is not a socket (%s); serve does not remove it", path, st.Mode().Type())
	}
	c, err := net.DialTimeout("unix", path, time.Second)
	if err == nil {
		c.Close()
		return fmt.Errorf("another regate serve is listening on %s", path)
	}
	if !errors.Is(err, syscall.ECONNREFUSED) {
		return fmt.Errorf("--socket %s: cannot tell whether a server is listening there (%v); it is left alone", path, err)
	}
	if err := os.Remove(path); err != nil {
		return fmt.Errorf("--socket %s: removing the stale socket: %w", path, err)
	}
	return nil
}

// socketListener removes its socket's path on Close, unless another
// socket has replaced it since.
type socketListener struct {
	*net.UnixListener
	path string
	st   os.FileInfo
	once sync.Once
}

// Addr is the path the socket is served at, not the one it was bound to.
func (l *socketListener) Addr() net.Addr { return &net.UnixAddr{Name: l.path, Net: "unix"} }

func (l *socketListener) Close() error {
	err := l.UnixListener.Close()
	l.once.Do(func() {
		if now, statErr := os.Lstat(l.path); statErr == nil && os.SameFile(now, l.st) {
			_ = os.Remove(l.path)
		}
	})
	return err
}
