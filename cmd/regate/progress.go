package main

import (
	"fmt"
	"io"
	"os"
	"time"
)

// A progress tells a person how far a long command has got, on stderr, so
// that a first run that takes a while says so instead of sitting silent.
// When stderr is a terminal it keeps one line up to date (\r) and clears it
// at the end; otherwise (a log, a pipe, a test script) it stays silent for
// the first quietFor, then writes a line every logEvery, so a command that
// finishes quickly prints nothing and a long one in CI shows it is alive.
// stdout is never touched: what a command prints there is its result.
type progress struct {
	w     io.Writer
	live  bool // w is a terminal
	what  string
	now   func() time.Time
	start time.Time
	last  time.Time // the last line written
	shown bool      // a live line is on the terminal
}

const (
	quietFor     = 5 * time.Second
	logEvery     = 5 * time.Second
	liveEvery    = 100 * time.Millisecond
	liveQuietFor = 300 * time.Millisecond // a live line waits this long, so an instant command draws none
)

// newProgress reports on w (the command's stderr) what the command does.
func newProgress(w io.Writer, what string) *progress {
	return newProgressAt(w, what, isTerminal(w), time.Now)
}

func newProgressAt(w io.Writer, what string, live bool, now func() time.Time) *progress {
	t := now()
	return &progress{w: w, live: live, what: what, now: now, start: t, last: t}
}

// isTerminal reports whether w is a character device (a terminal).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// update reports done of total (total 0: unknown), when it is time to.
func (p *progress) update(done, total int) {
	if p == nil {
		return
	}
	t := p.now()
	elapsed := t.Sub(p.start)
	switch {
	case p.live && (elapsed < liveQuietFor || t.Sub(p.last) < liveEvery && p.shown):
		return
	case !p.live && (elapsed < quietFor || t.Sub(p.last) < logEvery):
		return
	}
	p.last = t
	line := fmt.Sprintf("%s: %d", p.what, done)
	if total > 0 {
		line = fmt.Sprintf("%s: %d of %d (%d%%)", p.what, done, total, done*100/total)
	}
	line += fmt.Sprintf(", %s", elapsed.Round(100*time.Millisecond))
	if p.live {
		fmt.Fprintf(p.w, "\r\x1b[K%s", line)
		p.shown = true
		return
	}
	fmt.Fprintln(p.w, line)
}

// finish clears the live line; a log keeps its lines.
func (p *progress) finish() {
	if p != nil && p.live && p.shown {
		fmt.Fprint(p.w, "\r\x1b[K")
		p.shown = false
	}
}
