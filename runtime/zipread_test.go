package runtime_test

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/regate/regate/facts"
	"github.com/regate/regate/policies"
	"github.com/regate/regate/runtime"
)

// rawZip builds zip records byte by byte, to craft archives that
// archive/zip's writer would never make.
type rawZip struct{ bytes.Buffer }

func (z *rawZip) local(name, data, extra string) int {
	at := z.Len()
	z.le(uint32(0x04034b50), uint16(20), uint16(0), uint16(0), uint16(0), uint16(0),
		crc32.ChecksumIEEE([]byte(data)), uint32(len(data)), uint32(len(data)), uint16(len(name)), uint16(len(extra)))
	z.WriteString(name + extra + data)
	return at
}

func (z *rawZip) central(name, data, extra string, offset int) {
	z.le(uint32(0x02014b50), uint16(0x0314), uint16(20), uint16(0), uint16(0), uint16(0), uint16(0),
		crc32.ChecksumIEEE([]byte(data)), uint32(len(data)), uint32(len(data)), uint16(len(name)), uint16(len(extra)),
		uint16(0), uint16(0), uint16(0), uint32(0o100644<<16), uint32(offset))
	z.WriteString(name + extra)
}

func (z *rawZip) end(entries, dirSize, dirOffset int) {
	z.le(uint32(0x06054b50), uint16(0), uint16(0), uint16(entries), uint16(entries), uint32(dirSize), uint32(dirOffset), uint16(0))
}

func (z *rawZip) le(vs ...any) {
	for _, v := range vs {
		_ = binary.Write(&z.Buffer, binary.LittleEndian, v)
	}
}

// unicodePathField is an Info-ZIP Unicode Path extra field naming the
// entry plain as name.
func unicodePathField(plain, name string) string {
	var b bytes.Buffer
	body := append([]byte{1}, binary.LittleEndian.AppendUint32(nil, crc32.ChecksumIEEE([]byte(plain)))...)
	body = append(body, name...)
	_ = binary.Write(&b, binary.LittleEndian, [2]uint16{0x7075, uint16(len(body))})
	b.Write(body)
	return b.String()
}

// twoDirectories is an archive whose end record's offset does not add up:
// Go's archive/zip reads the central directory at the offset as written
// (a.csv), unzip and Python's zipfile the one after adding the bytes
// before it (.env).
func twoDirectories() string {
	var z rawZip
	a := z.local("a.csv", "1,2\n", "")
	z.WriteString(strings.Repeat("\x00", 100))
	first := z.Len()
	z.central("a.csv", "1,2\n", "", a)
	z.WriteString(strings.Repeat("\x00", 64))
	env := z.local(".env", "TOKEN=1\n", "")
	second := z.Len()
	extra := second - first
	z.central(".env", "TOKEN=1\n", "", env-extra)
	z.end(1, z.Len()-second, first)
	return z.String()
}

// unicodeNamed is an archive whose one entry is a.csv to Go and Python,
// and .env to unzip (its Unicode Path field).
func unicodeNamed() string {
	var z rawZip
	field := unicodePathField("a.csv", ".env")
	at := z.local("a.csv", "TOKEN=1\n", field)
	dir := z.Len()
	z.central("a.csv", "TOKEN=1\n", field, at)
	z.end(1, z.Len()-dir, dir)
	return z.String()
}

// nulNamed is an archive whose one entry Go names ".env\x00.txt" and
// unzip ".env".
func nulNamed() string {
	var z rawZip
	at := z.local(".env\x00.txt", "TOKEN=1\n", "")
	dir := z.Len()
	z.central(".env\x00.txt", "TOKEN=1\n", "", at)
	z.end(1, z.Len()-dir, dir)
	return z.String()
}

// extractsFile runs the real program cmd (when installed) in a folder
// holding the archive as name, and fails unless it made the file made:
// the archive shows what its row says. It returns what cmd printed.
func extractsFile(t *testing.T, name, archive, made string, cmd ...string) string {
	t.Helper()
	if _, err := exec.LookPath(cmd[0]); err != nil {
		return ""
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(archive), 0o644); err != nil {
		t.Fatal(err)
	}
	run := exec.Command(cmd[0], cmd[1:]...)
	run.Dir = dir
	out, _ := run.CombinedOutput()
	if _, err := os.Stat(filepath.Join(dir, made)); err != nil {
		t.Fatalf("%s did not make %s, so the archive does not show what the row says:\n%s", cmd[0], made, out)
	}
	return string(out)
}

// TestZipReadersDisagree: archives crafted so that zip readers list other
// names than Go's archive/zip (facts/zipread.go). Each row shows with the
// real unzip (where installed) that it extracts what Go does not list, and
// that regate asks or denies where it allowed these archives as their
// harmless names before 2026-12-07 (fourth stop).
func TestZipReadersDisagree(t *testing.T) {
	tgz := tarOf(t, true, [2]string{"docs/a.md", "a"})
	var appended bytes.Buffer
	appended.WriteString(tgz)
	zw := zip.NewWriter(&appended)
	zw.SetOffset(int64(len(tgz)))
	if w, err := zw.Create(".env"); err == nil {
		_, _ = w.Write([]byte("TOKEN=1\n"))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, archive, cmd, developer string
		unzipMakes                    string
	}{
		{"two central directories", twoDirectories(), "unzip x.zip", "ask", ".env"},
		{"two central directories, zipfile", twoDirectories(), "python3 -m zipfile -e x.zip .", "ask", ""},
		{"a Unicode Path field", unicodeNamed(), "unzip x.zip", "deny", ".env"},
		{"a NUL in a name", nulNamed(), "unzip x.zip", "deny", ".env"},
		{"a zip after a tar.gz", appended.String(), "unzip x.zip", "deny", ".env"},
		{"a zip after a tar.gz, read by tar", appended.String(), "tar -xzf x.zip", "allow", ""},
		{"bytes after the end record", zipOf(t, [2]string{"a.csv", "1"}) + "\x00", "unzip x.zip", "ask", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			fsys := facts.MapFS{"/home/u/repo/x.zip": "file:" + tc.archive, "/home/u/repo/.git/HEAD": "file:ref: refs/heads/main"}
			developer := newEngine(t, readPolicy(t, "developer.jsonc"), runtime.WithFS(fsys))
			def := newEngine(t, string(policies.Default()), runtime.WithFS(fsys))
			want := "ask"
			if tc.developer == "deny" {
				want = "deny"
			}
			decideUnderBoth(t, developer, def, []policyRow{{tc.cmd, tc.developer, want}})
			if tc.unzipMakes != "" {
				extractsFile(t, "x.zip", tc.archive, tc.unzipMakes, "unzip", "-q", "x.zip")
			}
		})
	}
}
