//go:build unix

package main

import (
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestListenSocket: the socket is 0600 as soon as its path exists, under
// the widest umask; a file that is not a socket is refused and left as it
// was; a socket a server answers on is refused; a stale one is replaced;
// Close removes the path.
func TestListenSocket(t *testing.T) {
	// No t.Parallel: the umask is the process's.
	old := syscall.Umask(0)
	defer syscall.Umask(old)

	stale := func(t *testing.T, path string) {
		l, err := net.Listen("unix", path)
		if err != nil {
			t.Fatal(err)
		}
		l.(*net.UnixListener).SetUnlinkOnClose(false)
		l.Close() // the file stays, no one answers on it
	}
	for _, c := range []struct {
		name    string
		before  func(t *testing.T, path string) // what is at the path first
		wantErr string
	}{
		{name: "nothing there"},
		{name: "a stale socket", before: stale},
		{name: "a regular file", before: func(t *testing.T, path string) {
			if err := os.WriteFile(path, []byte("keep me"), 0o644); err != nil {
				t.Fatal(err)
			}
		}, wantErr: "not a socket"},
		{name: "a folder", before: func(t *testing.T, path string) {
			if err := os.Mkdir(path, 0o700); err != nil {
				t.Fatal(err)
			}
		}, wantErr: "not a socket"},
		{name: "a symlink to a file", before: func(t *testing.T, path string) {
			target := path + ".target"
			if err := os.WriteFile(target, []byte("keep me"), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(target, path); err != nil {
				t.Fatal(err)
			}
		}, wantErr: "not a socket"},
		{name: "a live serve", before: func(t *testing.T, path string) {
			l, err := listenSocket(path)
			if err != nil {
				t.Fatal(err)
			}
			go func() {
				for {
					c, err := l.Accept()
					if err != nil {
						return
					}
					c.Close()
				}
			}()
			t.Cleanup(func() { l.Close() })
		}, wantErr: "another regate serve is listening on"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "regate.sock")
			var before fs.FileInfo
			if c.before != nil {
				c.before(t, path)
				before, _ = os.Lstat(path)
			}
			l, err := listenSocket(path)
			if c.wantErr != "" {
				if err == nil {
					l.Close()
					t.Fatalf("listened; want an error with %q", c.wantErr)
				}
				if !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("error %v; want %q", err, c.wantErr)
				}
				now, statErr := os.Lstat(path)
				if statErr != nil || !os.SameFile(before, now) || now.Mode() != before.Mode() {
					t.Fatalf("what was at the path changed: %v %v", now, statErr)
				}
				if data, err := os.ReadFile(path); err == nil && string(data) != "keep me" {
					t.Fatalf("the file's contents changed: %q", data)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			st, err := os.Lstat(path)
			if err != nil {
				t.Fatal(err)
			}
			if st.Mode()&fs.ModeSocket == 0 || st.Mode().Perm() != 0o600 {
				t.Errorf("right after listen: %s, want a socket 0600", st.Mode())
			}
			if l.Addr().String() != path {
				t.Errorf("Addr %s, want %s", l.Addr(), path)
			}
			if entries, _ := os.ReadDir(dir); len(entries) != 1 {
				t.Errorf("the private folder is left behind: %v", entries)
			}
			conn, err := net.Dial("unix", path)
			if err != nil {
				t.Fatalf("the socket does not answer at its path: %v", err)
			}
			conn.Close()
			if err := l.Close(); err != nil {
				t.Fatal(err)
			}
			if _, err := os.Lstat(path); !os.IsNotExist(err) {
				t.Errorf("Close left the socket: %v", err)
			}
		})
	}
}
