//go:build unix

package facts_test

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/regate/regate/facts"
)

// TestFifoIsNotRead: a fifo planted where a .gitignore or a git index is
// read would block the read, and the decision with it; the host's file
// system refuses it at once, and still reads a regular file.
func TestFifoIsNotRead(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, ".gitignore")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	if _, err := (facts.OSFS{}).ReadFile(fifo); err == nil {
		t.Error("ReadFile of a fifo: no error")
	}
	if f, err := (facts.OSFS{}).Open(fifo); err == nil {
		f.Close()
		t.Error("Open of a fifo: no error")
	}
	regular := filepath.Join(dir, "index")
	if err := os.WriteFile(regular, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, err := (facts.OSFS{}).ReadFile(regular); err != nil || string(b) != "x" {
		t.Errorf("ReadFile of a regular file: %q, %v", b, err)
	}
}
