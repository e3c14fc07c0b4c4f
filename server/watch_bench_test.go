package server

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/regate/regate/compiler"
)

// BenchmarkFingerprint: the cost of one look of the watcher, which hashes
// every watched file every interval (1 s by default): a typical policy, a
// large one, the compiler's limit, and a folder of 20 agent files.
func BenchmarkFingerprint(b *testing.B) {
	dir := b.TempDir()
	write := func(name string, size int) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(strings.Repeat("x", size)), 0o600); err != nil {
			b.Fatal(err)
		}
		return path
	}
	agents := filepath.Join(dir, "agents")
	if err := os.Mkdir(agents, 0o700); err != nil {
		b.Fatal(err)
	}
	for i := range 20 {
		if err := os.WriteFile(filepath.Join(agents, fmt.Sprintf("agent%d.md", i)), []byte(strings.Repeat("y", 2<<10)), 0o600); err != nil {
			b.Fatal(err)
		}
	}
	for _, c := range []struct {
		name  string
		watch []string
	}{
		{"policy-8KiB", []string{write("small.jsonc", 8<<10)}},
		{"policy-256KiB", []string{write("large.jsonc", 256<<10)}},
		{"policy-4MiB-limit", []string{write("limit.jsonc", compiler.MaxFileSize)}},
		{"agents-20x2KiB", []string{agents}},
	} {
		b.Run(c.name, func(b *testing.B) {
			s := &Server{cfg: Config{Watch: c.watch}}
			b.ReportAllocs()
			for b.Loop() {
				if _, problem := s.fingerprint(); problem != nil {
					b.Fatal(problem)
				}
			}
		})
	}
}
