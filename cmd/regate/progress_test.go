package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestProgress: a log hears nothing for the first five seconds and then a
// line every five; a terminal gets one line rewritten in place, no more
// than ten times a second, cleared at the end.
func TestProgress(t *testing.T) {
	type step struct {
		at         time.Duration
		done, tot  int
		wantOutput string // what this update adds
	}
	tests := []struct {
		name  string
		live  bool
		steps []step
		final string // what finish adds
	}{
		{"a quick command in a log prints nothing", false, []step{
			{time.Second, 10, 100, ""}, {4 * time.Second, 90, 100, ""},
		}, ""},
		{"a long command in a log prints a line every five seconds", false, []step{
			{time.Second, 1, 10, ""},
			{5 * time.Second, 2, 10, "conformance x.jsonl: 2 of 10 (20%), 5s\n"},
			{7 * time.Second, 3, 10, ""},
			{10 * time.Second, 4, 10, "conformance x.jsonl: 4 of 10 (40%), 10s\n"},
			{16 * time.Second, 1234, 0, "conformance x.jsonl: 1234, 16s\n"},
		}, ""},
		{"a terminal gets one live line", true, []step{
			{100 * time.Millisecond, 1, 4, ""},
			{400 * time.Millisecond, 2, 4, "\r\x1b[Kconformance x.jsonl: 2 of 4 (50%), 400ms"},
			{450 * time.Millisecond, 3, 4, ""},
			{600 * time.Millisecond, 4, 4, "\r\x1b[Kconformance x.jsonl: 4 of 4 (100%), 600ms"},
		}, "\r\x1b[K"},
		{"an instant command on a terminal draws nothing", true, []step{
			{10 * time.Millisecond, 4, 4, ""},
		}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
			now := base
			var out bytes.Buffer
			p := newProgressAt(&out, "conformance x.jsonl", tc.live, func() time.Time { return now })
			for _, s := range tc.steps {
				before := out.Len()
				now = base.Add(s.at)
				p.update(s.done, s.tot)
				if got := out.String()[before:]; got != s.wantOutput {
					t.Errorf("at %s: wrote %q, want %q", s.at, got, s.wantOutput)
				}
			}
			before := out.Len()
			p.finish()
			if got := out.String()[before:]; got != tc.final {
				t.Errorf("finish wrote %q, want %q", got, tc.final)
			}
		})
	}
}

// TestProgressNil: a nil progress (nobody to tell) does nothing.
func TestProgressNil(t *testing.T) {
	var p *progress
	p.update(1, 2)
	p.finish()
}

// TestIsTerminal: a file or a buffer is no terminal, so test scripts and
// logs never get a live line.
func TestIsTerminal(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "log"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for name, w := range map[string]io.Writer{"file": f, "buffer": &bytes.Buffer{}, "builder": &strings.Builder{}} {
		if isTerminal(w) {
			t.Errorf("%s is taken for a terminal", name)
		}
	}
}
