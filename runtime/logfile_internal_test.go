package runtime

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/regate/regate/compiler"
	"github.com/regate/regate/facts"
)

// fullDisk is a log file on a disk with room bytes free: a write past them
// lands its first bytes, as the kernel's does, and fails with ENOSPC.
type fullDisk struct {
	*os.File
	room     int
	truncErr error // when set, the next Truncate fails with it
}

func (f *fullDisk) Write(p []byte) (int, error) {
	if len(p) <= f.room {
		f.room -= len(p)
		return f.File.Write(p)
	}
	n, err := f.File.Write(p[:f.room])
	f.room = 0
	if err != nil {
		return n, err
	}
	return n, syscall.ENOSPC
}

func (f *fullDisk) Truncate(size int64) error {
	if err := f.truncErr; err != nil {
		f.truncErr = nil
		return err
	}
	return f.File.Truncate(size)
}

// wholeLines reads a JSON Lines file and fails the test unless every line
// is one JSON object and the file ends with a newline.
func wholeLines(t *testing.T, path string) []map[string]any {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) > 0 && b[len(b)-1] != '\n' {
		t.Errorf("%s does not end with a newline: …%q", path, b[max(0, len(b)-40):])
	}
	var out []map[string]any
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 4<<20)
	for sc.Scan() {
		var v map[string]any
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			t.Errorf("line %d is not whole: %v: %.80q", len(out)+1, err, sc.Bytes())
		}
		out = append(out, v)
	}
	return out
}

// TestLogWritesWholeLines fills the disk part way through a line, then
// frees it: the failed entry is an error and leaves nothing behind, and
// the next entry starts on its own line.
func TestLogWritesWholeLines(t *testing.T) {
	for _, tc := range []struct {
		name     string
		room     int   // bytes free when the second entry is written
		truncErr error // the cut back fails once
	}{
		{name: "nothing of the line fits", room: 0},
		{name: "one byte fits", room: 1},
		{name: "all but the newline fits", room: -1},
		{name: "half the line fits", room: 40},
		{name: "the cut back fails, the next write cuts", room: 40, truncErr: errors.New("EIO")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			l, err := OpenLog(dir, "log.jsonl", 0)
			if err != nil {
				t.Fatal(err)
			}
			defer l.Close()
			disk := &fullDisk{File: l.f.(*os.File), room: 1 << 20}
			l.f = disk
			if err := l.Write(map[string]any{"n": 1}); err != nil {
				t.Fatal(err)
			}
			second := map[string]any{"n": 2, "pad": strings.Repeat("p", 100)}
			line, _ := json.Marshal(newEntry(0).clean(second, ""))
			disk.room, disk.truncErr = tc.room, tc.truncErr
			if tc.room < 0 {
				disk.room = len(line)
			}
			err = l.Write(second)
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatalf("a write to a full disk: %v; want ENOSPC", err)
			}
			if tc.truncErr != nil && !l.torn {
				t.Errorf("a failed cut back is not remembered")
			}
			disk.room = 1 << 20 // space freed
			if err := l.Write(map[string]any{"n": 3}); err != nil {
				t.Fatal(err)
			}
			lines := wholeLines(t, filepath.Join(dir, "log.jsonl"))
			var got []any
			for _, v := range lines {
				got = append(got, v["n"])
			}
			if len(got) != 2 || got[0] != 1.0 || got[1] != 3.0 {
				t.Errorf("entries %v; want [1 3]", got)
			}
		})
	}
}

// TestDecisionOnAFullDiskIsAnError: a decision whose event cannot be
// logged is an error, which the host turns into a block.
func TestDecisionOnAFullDiskIsAnError(t *testing.T) {
	dir := t.TempDir()
	dl, err := OpenDecisionLog(dir, 100)
	if err != nil {
		t.Fatal(err)
	}
	defer dl.Close()
	disk := &fullDisk{File: dl.file.f.(*os.File), room: 10}
	dl.file.f = disk
	out, err := compiler.Compile(compiler.Input{Policy: &compiler.Source{Name: "p.jsonc", Data: []byte(`{"permission": {"*": "allow"}}`)}})
	if err != nil {
		t.Fatal(err)
	}
	eng, err := New(context.Background(), out, WithDecisionLog(dl))
	if err != nil {
		t.Fatal(err)
	}
	call := facts.Call{Tool: "read", Input: map[string]any{"path": "/etc/hostname"}}
	if _, err := eng.Decide(context.Background(), call); !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("decide on a full disk: %v; want the log's ENOSPC", err)
	}
	disk.room = 1 << 20
	if d, err := eng.Decide(context.Background(), call); err != nil || d.Action != "allow" {
		t.Fatalf("decide with room again: %+v, %v", d, err)
	}
	if lines := wholeLines(t, filepath.Join(dir, DecisionLogFile)); len(lines) != 1 {
		t.Errorf("%d events; want the one logged decision", len(lines))
	}
}

// TestOpenLogCutsATornTail: a line an earlier process left half written
// (a crash, a full disk before this check existed) is cut off at open.
func TestOpenLogCutsATornTail(t *testing.T) {
	for _, tc := range []struct {
		name, before, want string
	}{
		{"empty", "", ""},
		{"whole", "{\"n\":1}\n", "{\"n\":1}\n"},
		{"torn after a whole line", "{\"n\":1}\n{\"n\":", "{\"n\":1}\n"},
		{"torn alone", "{\"n\":", ""},
		{"torn past one read", "{\"n\":1}\n" + strings.Repeat("x", 10000), "{\"n\":1}\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "log.jsonl")
			if err := os.WriteFile(path, []byte(tc.before), 0o600); err != nil {
				t.Fatal(err)
			}
			l, err := OpenLog(dir, "log.jsonl", 0)
			if err != nil {
				t.Fatal(err)
			}
			if b, _ := os.ReadFile(path); string(b) != tc.want {
				t.Errorf("after open: %q; want %q", b, tc.want)
			}
			if err := l.Write(map[string]any{"n": 2}); err != nil {
				t.Fatal(err)
			}
			l.Close()
			if lines := wholeLines(t, path); lines[len(lines)-1]["n"] != 2.0 {
				t.Errorf("last entry %v", lines[len(lines)-1])
			}
		})
	}
}

// TestLogValuesEncodeAsTheTypes: the log walks calls as plain values;
// those must encode as encoding/json encodes the type, so that skipping
// the encoder changes no line. (Package ask holds its review events to the
// same.)
func TestLogValuesEncodeAsTheTypes(t *testing.T) {
	calls := []facts.Call{
		{},
		{Tool: "bash", Input: map[string]any{"command": "ls"}},
		{Tool: "mcp", Input: map[string]any{}, Registered: []string{"bash", "mcp"}, Agent: "review"},
	}
	var values []any
	for _, c := range calls {
		values = append(values, c)
	}
	for _, v := range values {
		// As the log wrote them before it walked them: encoded, decoded and
		// encoded again (in key order).
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		var plain any
		if err := json.Unmarshal(b, &plain); err != nil {
			t.Fatal(err)
		}
		want, _ := json.Marshal(plain)
		got, err := json.Marshal(newEntry(0).clean(v, ""))
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Errorf("logged as %s; encoding/json writes %s", got, want)
		}
	}
}
