package server

import (
	"context"
	"fmt"
	"hash/maphash"
	"io"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/regate/regate/compiler"
	"github.com/regate/regate/internal/rulefile"
)

// StuckAfter is how long one look at the rule files may take before
// /health reports it stuck. Reads never wait (rulefile opens without
// blocking), so only a file system that hangs (a dead network mount) gets
// there; the watcher then keeps answering, and never starts a second look
// while the first is still out.
const StuckAfter = 10 * time.Second

// watchState is the watcher's report for /health and what tests swap.
type watchState struct {
	problem atomic.Pointer[watchProblem] // what the last look found wrong, or nil
	reading atomic.Pointer[string]       // the file being read now
	// open and stuckAfter default to rulefile.Open and StuckAfter.
	open       func(path string) (*os.File, error)
	stuckAfter time.Duration
	seedOnce   sync.Once
	hashSeed   maphash.Seed
}

// watchProblem is a rule file the watcher could not read, and why.
type watchProblem struct{ file, reason string }

// report adds the watcher's problem to a /health body: the file and the
// reason, and a reload_error naming both if the reload left none (a stuck
// read never gets to a reload).
func (w *watchState) report(body map[string]any) {
	p := w.problem.Load()
	if p == nil {
		return
	}
	body["reload_file"], body["reload_reason"] = p.file, p.reason
	if _, ok := body["reload_error"]; !ok {
		body["reload_error"] = p.file + ": " + p.reason
	}
}

// Watch reloads the policy whenever one of the watched files changes,
// looking every interval until ctx ends. A look hashes the contents of
// every watched file (and of the files in a watched folder), so an edit is
// seen even when it keeps the size and the modification time. Rule files
// are capped (compiler.MaxFileSize) and streamed through maphash with one
// small buffer, so a look stays cheap (BenchmarkFingerprint); maphash is
// not a cryptographic hash, and needs not be: it only tells an edit, and
// its seed is random per process. A file that is not a regular file (a FIFO,
// /dev/zero) is refused at once, never waited on: it is a reload error
// /health reports, and the watcher goes on looking.
func (s *Server) Watch(ctx context.Context, interval time.Duration) {
	stuckAfter := s.watch.stuckAfter
	if stuckAfter <= 0 {
		stuckAfter = StuckAfter
	}
	var last uint64
	first := true
	done := make(chan struct{}, 1)
	// look runs in its own goroutine, one at a time: last is touched by
	// one look after another, ordered by done. The first look reloads
	// too: an edit made after the policy in force was compiled and before
	// this look would otherwise never be seen (Reload swaps nothing when
	// the policy compiles the same).
	look := func() {
		defer func() { done <- struct{}{} }()
		sum, problem := s.fingerprint()
		s.watch.problem.Store(problem)
		if !first && sum == last {
			return
		}
		first, last = false, sum
		s.watch.reading.Store(nil)
		s.Reload()
	}
	go look()
	since := time.Now()
	busy := true
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-done:
			busy = false
		case now := <-t.C:
			if !busy {
				busy, since = true, now
				go look()
				continue
			}
			if took := now.Sub(since); took >= stuckAfter {
				file, what := "the policy", "compiling it"
				if f := s.watch.reading.Load(); f != nil {
					file, what = *f, "reading it"
				}
				s.watch.problem.Store(&watchProblem{file, fmt.Sprintf("stuck: %s has taken %s; the last good policy stays in force", what, took.Round(time.Second))})
			}
		}
	}
}

// fingerprint hashes the watched files: each path, and its contents or
// why it has none. A folder (of agent files) contributes the names and
// contents of its regular files, which an edit changes without touching
// the folder itself; its other entries count by name and type (the
// compile reports them, if they are rule files). The first top-level file
// that could not be read is the problem.
func (s *Server) fingerprint() (uint64, *watchProblem) {
	l := looker{open: s.watch.open, reading: &s.watch.reading, buf: make([]byte, 32<<10)}
	if l.open == nil {
		l.open = rulefile.Open
	}
	l.h.SetSeed(s.watch.seed())
	var problem *watchProblem
	for _, f := range s.cfg.Watch {
		fmt.Fprintf(&l.h, "%q\x00", f)
		st, err := os.Stat(f)
		switch {
		case err != nil:
			l.h.WriteString("missing\x00")
		case st.IsDir():
			l.folder(f)
		default:
			if err := l.file(f); err != nil && problem == nil {
				problem = &watchProblem{f, reason(err, f)}
			}
		}
	}
	s.watch.reading.Store(nil)
	return l.h.Sum64(), problem
}

// seed is the process's maphash seed, made once.
func (w *watchState) seed() maphash.Seed {
	w.seedOnce.Do(func() { w.hashSeed = maphash.MakeSeed() })
	return w.hashSeed
}

// looker is one look at the files.
type looker struct {
	h       maphash.Hash
	open    func(string) (*os.File, error)
	reading *atomic.Pointer[string]
	buf     []byte
}

func (l *looker) folder(dir string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		fmt.Fprintf(&l.h, "unreadable folder: %v\x00", err)
		return
	}
	for _, e := range entries {
		fmt.Fprintf(&l.h, "%q %v\x00", e.Name(), e.Type())
		if e.Type().IsRegular() {
			_ = l.file(dir + string(os.PathSeparator) + e.Name())
		}
	}
}

// file adds a file's contents, up to one byte past the compiler's limit
// (a larger file is the compile's file_too_large), or the error that kept
// them out.
func (l *looker) file(path string) error {
	l.reading.Store(&path)
	f, err := l.open(path)
	if err == nil {
		var n int64
		n, err = io.CopyBuffer(&l.h, io.LimitReader(f, compiler.MaxFileSize+1), l.buf)
		f.Close()
		fmt.Fprintf(&l.h, "\x00%d\x00", n)
	}
	if err != nil {
		fmt.Fprintf(&l.h, "unreadable: %v\x00", err)
	}
	return err
}

// reason is err without the path the error already starts with.
func reason(err error, path string) string {
	msg := err.Error()
	for _, prefix := range []string{path + ": ", "open " + path + ": "} {
		msg = strings.TrimPrefix(msg, prefix)
	}
	return msg
}
