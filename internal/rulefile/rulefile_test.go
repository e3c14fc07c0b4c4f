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
