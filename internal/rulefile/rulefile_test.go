//go:build unix

package rulefile_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/regate/regate/internal/rulefile"
)

// TestRead: a regular file (and a link to one) is read; a FIFO with no
// writer, /dev/zero, a directory and a file past the limit are refused at
// once, never waited on.
func TestRead(t *testing.T) {
	dir := t.TempDir()
	regular := filepath.Join(dir, "policy.jsonc")
	if err := os.WriteFile(regular, []byte(`{"permission": {}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.jsonc")
	if err := os.Symlink(regular, link); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo.jsonc")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
	big := filepath.Join(dir, "big.jsonc")
	if err := os.WriteFile(big, []byte(strings.Repeat(" ", 101)), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		path string
		want error
	}{
		{regular, nil},
		{link, nil},
		{fifo, rulefile.ErrNotRegular},
		{"/dev/zero", rulefile.ErrNotRegular},
		{dir, rulefile.ErrNotRegular},
		{big, rulefile.ErrTooLarge},
	} {
		done := make(chan error, 1)
		go func() { _, err := rulefile.Read(c.path, 100); done <- err }()
		select {
		case err := <-done:
			if c.want == nil && err != nil || c.want != nil && !errors.Is(err, c.want) {
				t.Errorf("%s: %v; want %v", c.path, err, c.want)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: Read is still waiting after 5 s", c.path)
		}
	}
}

// TestReadEntry: an entry found by listing is read only when it is itself
// a regular file. A link is refused whatever it points at (a readable
// file, /dev/zero, nothing) and never opened; a FIFO, a directory and a
// file past the limit are refused at once, as by Read.
func TestReadEntry(t *testing.T) {
	dir := t.TempDir()
	secret := filepath.Join(t.TempDir(), "id_rsa")
	for name, body := range map[string]string{"plain.md": "body", "big.md": strings.Repeat(" ", 101)} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(secret, []byte("PRIVATE KEY"), 0o600); err != nil {
		t.Fatal(err)
	}
	for link, target := range map[string]string{"leak.md": secret, "zero.md": "/dev/zero", "broken.md": "nowhere", "inside.md": "plain.md"} {
		if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "folder.md"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo.md"), 0o644); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	for _, c := range []struct {
		name string
		want error // nil: read, with the body "body"
	}{
		{"plain.md", nil},
		{"leak.md", rulefile.ErrSymlink},
		{"zero.md", rulefile.ErrSymlink},
		{"broken.md", rulefile.ErrSymlink},
		{"inside.md", rulefile.ErrSymlink},
		{"fifo.md", rulefile.ErrNotRegular},
		{"folder.md", rulefile.ErrNotRegular},
		{"big.md", rulefile.ErrTooLarge},
		{"absent.md", os.ErrNotExist},
	} {
		type result struct {
			b   []byte
			err error
		}
		done := make(chan result, 1)
		go func() { b, err := rulefile.ReadEntry(root, c.name, 100); done <- result{b, err} }()
		select {
		case r := <-done:
			switch {
			case c.want == nil && (r.err != nil || string(r.b) != "body"):
				t.Errorf("%s: %q, %v; want the body", c.name, r.b, r.err)
			case c.want != nil && !errors.Is(r.err, c.want):
				t.Errorf("%s: %v; want %v", c.name, r.err, c.want)
			case c.want == rulefile.ErrSymlink && len(r.b) > 0:
				t.Errorf("%s: a link was read: %q", c.name, r.b)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: ReadEntry is still waiting after 5 s", c.name)
		}
	}
}
