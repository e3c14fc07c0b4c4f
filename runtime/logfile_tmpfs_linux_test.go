package runtime_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/regate/regate/facts"
	"github.com/regate/regate/runtime"
)

// tinyDisk mounts a 16 KiB tmpfs for the test, or skips it: mounting needs
// root (or CAP_SYS_ADMIN), which a developer's run or a container may not
// have. The fake full disk of TestLogWritesWholeLines runs everywhere.
func tinyDisk(t *testing.T) string {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("a real full disk needs a tmpfs mount, and mounting needs root; TestLogWritesWholeLines covers the same with a fake disk")
	}
	dir := t.TempDir()
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size=16k,mode=0700"); err != nil {
		t.Skipf("cannot mount a 16 KiB tmpfs (%v): no real full disk to test on; TestLogWritesWholeLines covers the same with a fake disk", err)
	}
	t.Cleanup(func() {
		if err := syscall.Unmount(dir, 0); err != nil {
			t.Errorf("unmount %s: %v", dir, err)
		}
	})
	return dir
}

// TestDecisionLogOnAFullDisk logs decisions onto a real 16 KiB file system
// until it is full: the entry that does not fit is an error and leaves no
// torn line; once space is freed, the next entry starts on its own line.
func TestDecisionLogOnAFullDisk(t *testing.T) {
	disk := tinyDisk(t)
	// A filler to delete later, so that space can be freed.
	if err := os.WriteFile(filepath.Join(disk, "filler"), bytes.Repeat([]byte("f"), 4096), 0o600); err != nil {
		t.Fatal(err)
	}
	l, err := runtime.OpenDecisionLog(filepath.Join(disk, "logs"), 2000)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	d := runtime.Decision{Action: "ask", Matched: "*", Layer: "policy"}
	call := facts.Call{Tool: "write", Input: map[string]any{"path": "/r/a.txt", "content": strings.Repeat("c", 1500)}}
	logged := 0
	for ; logged < 100; logged++ {
		if _, err = l.Log(call, d, "rev"); err != nil {
			break
		}
	}
	if !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("after %d events: %v; want ENOSPC", logged, err)
	}
	file := filepath.Join(disk, "logs", runtime.DecisionLogFile)
	if n := countWholeLines(t, file); n != logged {
		t.Errorf("the full log holds %d whole events; %d were logged", n, logged)
	}
	if err := os.Remove(filepath.Join(disk, "filler")); err != nil {
		t.Fatal(err)
	}
	if _, err := l.Log(call, d, "rev"); err != nil {
		t.Fatalf("with space freed: %v", err)
	}
	if n := countWholeLines(t, file); n != logged+1 {
		t.Errorf("the log holds %d whole events; want %d", n, logged+1)
	}
}

func countWholeLines(t *testing.T, path string) int {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) > 0 && b[len(b)-1] != '\n' {
		t.Errorf("the log ends in a torn line: …%q", b[max(0, len(b)-40):])
	}
	n := 0
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var ev map[string]any
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil || ev["decision_id"] == nil {
			t.Errorf("line %d is not an event: %v: %.60q", n+1, err, sc.Bytes())
		}
		n++
	}
	return n
}
