package server

import (
	"context"
	"fmt"
	"os"
	"time"
)

// Watch reloads the policy whenever one of the watched files changes (its
// size, time or existence), polling every interval until ctx ends. Polling
// keeps it portable and needs no dependency; a policy edit is seen within
// one interval.
func (s *Server) Watch(ctx context.Context, interval time.Duration) {
	last := s.stamp()
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if now := s.stamp(); now != last {
				last = now
				s.Reload()
			}
		}
	}
}

func (s *Server) stamp() string {
	var b []byte
	for _, f := range s.cfg.Watch {
		st, err := os.Stat(f)
		if err != nil {
			b = append(b, "missing;"...)
			continue
		}
		b = fmt.Appendf(b, "%s:%d/%d;", f, st.ModTime().UnixNano(), st.Size())
		if st.IsDir() { // an agents folder: its files, which an edit does not touch the folder for
			entries, _ := os.ReadDir(f)
			for _, e := range entries {
				if info, err := e.Info(); err == nil {
					b = fmt.Appendf(b, "%s:%d/%d;", e.Name(), info.ModTime().UnixNano(), info.Size())
				}
			}
		}
	}
	return string(b)
}
