package runtime

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// Log is a JSON Lines file only its owner can read (0600 in a 0700
// folder, both tightened when an earlier run left them looser), whose
// every value under a sensitive key is masked and every string bounded
// (the spec's "Log file sensitivity"), each entry held to MaxLogDepth and
// MaxLogEntryBytes. It is safe for concurrent use.
//
// The file holds whole lines only. Each entry is written by one write
// call; a write that fails part way (a full disk) is cut back off the file
// and returned as an error, so no later entry is glued onto a torn one,
// and the decision it recorded is an error too (the host blocks). A torn
// line an earlier process left at the end of the file is cut off when the
// file is opened.
type Log struct {
	mu sync.Mutex
	f  logFile
	// torn is set when a failed write could not be cut back off: the next
	// write cuts the file back to its last whole line first.
	torn     bool
	maxWidth int
	now      func() time.Time
	// key and context sign every object line (logsign.go); nil: unsigned.
	key     []byte
	context string
}

// logFile is what a Log needs of its file: *os.File, or in tests one that
// fails as a full disk does.
type logFile interface {
	io.Writer
	io.ReaderAt
	io.Seeker
	Truncate(size int64) error
	Close() error
}

// OpenLog opens (or creates) dir/name for appending. maxWidth bounds every
// string value in runes; 0 leaves values whole (up to MaxLogEntryBytes).
func OpenLog(dir, name string, maxWidth int) (*Log, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("runtime: log: %w", err)
	}
	if err := os.Chmod(dir, 0o700); err != nil {
		return nil, fmt.Errorf("runtime: log: %w", err)
	}
	f, err := os.OpenFile(filepath.Join(dir, name), os.O_CREATE|os.O_APPEND|os.O_RDWR, 0o600)
	if err != nil {
		return nil, fmt.Errorf("runtime: log: %w", err)
	}
	if err := f.Chmod(0o600); err != nil {
		f.Close()
		return nil, fmt.Errorf("runtime: log: %w", err)
	}
	if err := cutTornTail(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("runtime: log: %s: %w", f.Name(), err)
	}
	return &Log{f: f, maxWidth: maxWidth, now: time.Now}, nil
}

// Close closes the file. A nil Log (a log the policy turned off) has
// nothing to close.
func (l *Log) Close() error {
	if l == nil {
		return nil
	}
	return l.f.Close()
}

// SignWith makes every object line written from now on carry a MAC for
// context under key (logsign.go), which readers such as regate suggest
// verify. Call it before the first write. A nil Log is left alone.
func (l *Log) SignWith(key []byte, context string) *Log {
	if l != nil {
		l.key, l.context = key, context
	}
	return l
}

// Write writes v (any JSON value) as one line, masked and bounded. A nil
// Log writes nothing.
func (l *Log) Write(v any) error {
	if l == nil {
		return nil
	}
	return l.writeLine(newEntry(l.maxWidth).clean(v, ""))
}

// writeLine encodes v and appends it as one line.
func (l *Log) writeLine(v any) error {
	line, err := json.Marshal(v)
	if err != nil {
		return err
	}
	if l.key != nil {
		line = SignLine(l.key, l.context, line)
	}
	line = append(line, '\n')
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.torn {
		if err := cutTornTail(l.f); err != nil {
			return fmt.Errorf("a torn line is left in the log: %w", err)
		}
		l.torn = false
	}
	n, err := l.f.Write(line)
	if err == nil && n < len(line) {
		err = io.ErrShortWrite
	}
	if err != nil && n > 0 {
		if cerr := cutBack(l.f, int64(n)); cerr != nil {
			l.torn = true
			err = errors.Join(err, fmt.Errorf("the torn line is not cut off yet: %w", cerr))
		}
	}
	return err
}

// cutBack removes the n bytes a failed write appended. The file is opened
// for appending, so those bytes end where its offset now stands. Should
// the file have grown past them (another process appending to the same log
// in between), cutting would remove that process's line too: the error
// says so and the torn bytes stay, glued to the line that followed.
func cutBack(f logFile, n int64) error {
	end, err := f.Seek(0, io.SeekCurrent)
	if err != nil {
		return err
	}
	size, err := f.Seek(0, io.SeekEnd)
	if err != nil {
		return err
	}
	if size != end || end < n {
		return fmt.Errorf("the file is %d bytes, the failed write ended at %d", size, end)
	}
	return f.Truncate(end - n)
}

// cutTornTail cuts the file back to just after its last newline, when its
// last byte is not one: a line torn by a crash or a full disk.
func cutTornTail(f logFile) error {
	size, err := f.Seek(0, io.SeekEnd)
	if err != nil || size == 0 {
		return err
	}
	var buf [4096]byte
	end := size
	for end > 0 {
		start := max(end-int64(len(buf)), 0)
		chunk := buf[:end-start]
		if _, err := f.ReadAt(chunk, start); err != nil {
			return err
		}
		if end == size && chunk[len(chunk)-1] == '\n' {
			return nil // whole
		}
		if i := bytes.LastIndexByte(chunk, '\n'); i >= 0 {
			return f.Truncate(start + int64(i) + 1)
		}
		end = start
	}
	return f.Truncate(0)
}
