package profile

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkReadFolder reads a folder of a config and 20 profiles of 2 KiB
// each: every file opened without waiting, checked and read to its cap.
func BenchmarkReadFolder(b *testing.B) {
	dir := b.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "profiles"), 0o755); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "config.json"), []byte(`{"version": 1, "defaultProfile": "p0"}`), 0o644); err != nil {
		b.Fatal(err)
	}
	for i := range 20 {
		if err := os.WriteFile(filepath.Join(dir, "profiles", fmt.Sprintf("p%d.md", i)), []byte(strings.Repeat("x", 2048)), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		if f := ReadFolder(dir); len(f.Profiles) != 20 || len(f.Faults) != 0 {
			b.Fatalf("read %d profiles, faults %v", len(f.Profiles), f.Faults)
		}
	}
}
