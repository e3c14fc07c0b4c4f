//go:build unix

package profile

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// tree writes files (body "" and a name ending in "/": a folder) under a
// new temporary folder and returns it.
func tree(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for name, body := range files {
		path := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(name, "/") {
			if err := os.MkdirAll(path, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

func mkfifo(t *testing.T, path string) {
	t.Helper()
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
}

// readFolder is ReadFolder that fails the test instead of hanging on a
// FIFO.
func readFolder(t *testing.T, dir string) Folder {
	t.Helper()
	done := make(chan Folder, 1)
	go func() { done <- ReadFolder(dir) }()
	select {
	case f := <-done:
		return f
	case <-time.After(10 * time.Second):
		t.Fatalf("ReadFolder(%s) is still reading after 10 s", dir)
		return Folder{}
	}
}

// faults are the folder's faults as "code@base name".
func faults(f Folder) []string {
	var out []string
	for _, d := range f.Faults {
		out = append(out, d.Code+"@"+filepath.Base(d.Pos.File))
	}
	return out
}

// TestReadFolderFaults: each kind of entry that cannot be used is skipped
// with its diagnostic at the file, the good profiles beside it are read,
// and nothing a link points at is read.
func TestReadFolderFaults(t *testing.T) {
	secret := filepath.Join(t.TempDir(), "id_rsa")
	if err := os.WriteFile(secret, []byte("-----BEGIN OPENSSH PRIVATE KEY-----"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		setup  func(t *testing.T, dir string)
		faults []string // "code@base name"
		ids    []string // the profiles read
	}{
		{"good profiles", func(t *testing.T, dir string) {}, nil, []string{"base", "review"}},
		{"a link to a secret", func(t *testing.T, dir string) {
			symlink(t, secret, filepath.Join(dir, "profiles", "leak.md"))
		}, []string{"profile-symlink@leak.md"}, []string{"base", "review"}},
		{"a link inside the folder", func(t *testing.T, dir string) {
			symlink(t, "base.md", filepath.Join(dir, "profiles", "alias.md"))
		}, []string{"profile-symlink@alias.md"}, []string{"base", "review"}},
		{"a link to /dev/zero", func(t *testing.T, dir string) {
			symlink(t, "/dev/zero", filepath.Join(dir, "profiles", "zero.md"))
		}, []string{"profile-symlink@zero.md"}, []string{"base", "review"}},
		{"a broken link", func(t *testing.T, dir string) {
			symlink(t, "nowhere.md", filepath.Join(dir, "profiles", "broken.md"))
		}, []string{"profile-symlink@broken.md"}, []string{"base", "review"}},
		{"a FIFO profile", func(t *testing.T, dir string) {
			mkfifo(t, filepath.Join(dir, "profiles", "pipe.md"))
		}, []string{"profile-unreadable@pipe.md"}, []string{"base", "review"}},
		{"a device profile, not a link", func(t *testing.T, dir string) {
			if err := syscall.Mknod(filepath.Join(dir, "profiles", "zero.md"), syscall.S_IFCHR|0o644, 1<<8|5); err != nil {
				t.Skipf("cannot make a device node: %v", err)
			}
		}, []string{"profile-unreadable@zero.md"}, []string{"base", "review"}},
		{"a folder named x.md", func(t *testing.T, dir string) {
			if err := os.Mkdir(filepath.Join(dir, "profiles", "x.md"), 0o755); err != nil {
				t.Fatal(err)
			}
		}, []string{"profile-unreadable@x.md"}, []string{"base", "review"}},
		{"an unreadable file", func(t *testing.T, dir string) {
			if os.Geteuid() == 0 {
				t.Skip("root reads a file of mode 000 anyway")
			}
			if err := os.WriteFile(filepath.Join(dir, "profiles", "locked.md"), []byte("x"), 0o000); err != nil {
				t.Fatal(err)
			}
		}, []string{"profile-unreadable@locked.md"}, []string{"base", "review"}},
		{"a sparse 1 GiB profile", func(t *testing.T, dir string) {
			if err := os.Truncate(filepath.Join(dir, "profiles", "review.md"), 1<<30); err != nil {
				t.Fatal(err)
			}
		}, []string{"profile-too-large@review.md"}, []string{"base"}},
		{"a file name that is not an id", func(t *testing.T, dir string) {
			if err := os.WriteFile(filepath.Join(dir, "profiles", "a b.md"), []byte("x"), 0o644); err != nil {
				t.Fatal(err)
			}
		}, []string{"profile-id@a b.md"}, []string{"base", "review"}},
		{"the profiles folder is a link", func(t *testing.T, dir string) {
			other := tree(t, map[string]string{"elsewhere.md": "x"})
			if err := os.RemoveAll(filepath.Join(dir, "profiles")); err != nil {
				t.Fatal(err)
			}
			symlink(t, other, filepath.Join(dir, "profiles"))
		}, []string{"profile-symlink@profiles"}, nil},
		{"profiles is a file", func(t *testing.T, dir string) {
			if err := os.RemoveAll(filepath.Join(dir, "profiles")); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "profiles"), []byte("x"), 0o644); err != nil {
				t.Fatal(err)
			}
		}, []string{"profiles-dir@profiles"}, nil},
		{"entries at the limit", func(t *testing.T, dir string) {
			fill(t, filepath.Join(dir, "profiles"), MaxFolderEntries-2) // with base.md and review.md
		}, nil, []string{"base", "review"}},
		{"one entry past the limit", func(t *testing.T, dir string) {
			fill(t, filepath.Join(dir, "profiles"), MaxFolderEntries-1)
		}, []string{"profiles-dir@profiles"}, nil},
		{"no profiles folder", func(t *testing.T, dir string) {
			if err := os.RemoveAll(filepath.Join(dir, "profiles")); err != nil {
				t.Fatal(err)
			}
		}, nil, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := tree(t, map[string]string{"config.json": `{"version": 1}`, "profiles/base.md": "BASE", "profiles/review.md": "REVIEW"})
			c.setup(t, dir)
			f := readFolder(t, dir)
			if got := faults(f); !slices.Equal(got, c.faults) {
				t.Errorf("faults %v; want %v", got, c.faults)
			}
			var ids []string
			for id, body := range f.Profiles {
				ids = append(ids, id)
				if strings.Contains(body, "PRIVATE KEY") || strings.Contains(body, "\x00") {
					t.Errorf("profile %s holds what a link pointed at: %.40q", id, body)
				}
			}
			slices.Sort(ids)
			if !slices.Equal(ids, c.ids) {
				t.Errorf("profiles %v; want %v", ids, c.ids)
			}
			if f.Config == nil || string(f.Config.Data) != `{"version": 1}` {
				t.Errorf("config %+v; want the file", f.Config)
			}
		})
	}
}

// fill writes n empty files that are not profiles into dir.
func fill(t *testing.T, dir string, n int) {
	t.Helper()
	for i := range n {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("n%04d.txt", i)), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestReadFolderIsListedNotGlobbed: a folder whose name holds [, * or ?
// reads its own profiles only, never a sibling's, and an unbalanced [ is
// no error.
func TestReadFolderIsListedNotGlobbed(t *testing.T) {
	root := tree(t, map[string]string{
		"a[b/profiles/mine.md": "MINE", "ab/profiles/sibling.md": "SIBLING", "a[b]/profiles/other.md": "OTHER",
		"a*/profiles/star.md": "STAR", "abc/profiles/third.md": "THIRD", "a?/profiles/q.md": "Q", "ax/profiles/x.md": "X",
	})
	for dir, want := range map[string]string{"a[b": "mine", "a*": "star", "a?": "q", "a[b]": "other"} {
		f := readFolder(t, filepath.Join(root, dir))
		var ids []string
		for id := range f.Profiles {
			ids = append(ids, id)
		}
		if len(f.Faults) != 0 || !slices.Equal(ids, []string{want}) {
			t.Errorf("%s: profiles %v, faults %v; want only %s", dir, ids, f.Faults, want)
		}
	}
}

// TestFileNamesAreEscaped: a file name holding a newline or an escape
// sequence reaches a diagnostic quoted and escaped, so it can neither
// fake a line of output nor drive the terminal; an ordinary name stays as
// it is.
func TestFileNamesAreEscaped(t *testing.T) {
	dir := tree(t, map[string]string{
		"profiles/ok.md": "OK",
		"profiles/x\ny.md:1:1: profile-marker: fake.md": "A",
		"profiles/evil\x1b[2J\x1b]0;owned\a.md":         "B",
		"profiles/naïve name.md":                        "C",
		"profiles/rtl\u202egnp.md":                      "D",
	})
	f := readFolder(t, dir)
	var got []string
	for _, d := range f.Faults {
		if strings.ContainsAny(d.Pos.File+d.Msg, "\n\x1b\a\u202e") {
			t.Errorf("a raw control character in %q: %q", d.Pos.File, d.Msg)
		}
		got = append(got, filepath.Base(d.Pos.File))
	}
	want := []string{`x\ny.md:1:1: profile-marker: fake.md"`, `evil\x1b[2J\x1b]0;owned\a.md"`, `naïve name.md`, `rtl\u202egnp.md"`}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("names %q; want %q", got, want)
	}
	for _, c := range []struct{ in, want string }{
		{"global/profiles/a.md", "global/profiles/a.md"},
		{"naïve name.md", "naïve name.md"},
		{"a\nb.md", `"a\nb.md"`},
		{"say \"hi\".md", `"say \"hi\".md"`},
		{"bad\xffbyte", `"bad\xffbyte"`},
	} {
		if got := DisplayName(c.in); got != c.want {
			t.Errorf("DisplayName(%q) = %s; want %s", c.in, got, c.want)
		}
	}
	out, err := Compile(Input{Profiles: map[string]map[string]string{Global: {"a\nb": "x"}}})
	if err != nil || len(out.Diagnostics) != 1 || out.Diagnostics[0].Pos.File != `"global/profiles/a\nb.md"` {
		t.Errorf("Compile of a profile id holding a newline: %v, %v", out.Diagnostics, err)
	}
	if got := Printable("line\none\x1b[31m\xff"); got != `line\none\x1b[31m\xff` || Printable(got) != got {
		t.Errorf("Printable: %s", got)
	}
}

// TestCompileFolderFaults: the folder's faults are reported with the
// compiler's own, and a trusted project whose config.json cannot be read
// is inactive (its profiles unreachable), not the active, empty project
// of no file; an untrusted project's faults are never reported.
func TestCompileFolderFaults(t *testing.T) {
	global := tree(t, map[string]string{"config.json": `{"version": 1, "defaultProfile": "project:local"}`})
	project := tree(t, map[string]string{"profiles/local.md": "LOCAL", "config.json/": ""})
	for _, trusted := range []bool{true, false} {
		in := Input{ProjectTrusted: trusted}
		in.AddFolder(Global, readFolder(t, global))
		in.AddFolder(Project, readFolder(t, project))
		out, err := Compile(in)
		if err != nil {
			t.Fatal(err)
		}
		var codes []string
		for _, d := range out.Diagnostics {
			codes = append(codes, d.Code)
		}
		if got := slices.Contains(codes, CodeConfigUnreadable); got != trusted {
			t.Errorf("trusted %v: diagnostics %v", trusted, codes)
		}
		if _, ok := out.Bodies["project:local"]; ok {
			t.Errorf("trusted %v: the project's profile is reachable through an unreadable config", trusted)
		}
	}
}

// TestReadFolderConfig: config.json may be a link (the user's own file,
// as upstream follows it), but only to a regular file; a FIFO, /dev/zero
// or a folder there is refused at once and the file counts as invalid, and
// a huge file is read no further than the limit.
func TestReadFolderConfig(t *testing.T) {
	for _, c := range []struct {
		name   string
		setup  func(t *testing.T, path string)
		faults []string
		config string // the config read; "-" none
	}{
		{"absent", func(t *testing.T, path string) {}, nil, "-"},
		{"a link to a regular file", func(t *testing.T, path string) {
			real := filepath.Join(t.TempDir(), "real.json")
			if err := os.WriteFile(real, []byte(`{"version": 1}`), 0o644); err != nil {
				t.Fatal(err)
			}
			symlink(t, real, path)
		}, nil, `{"version": 1}`},
		{"a FIFO", func(t *testing.T, path string) { mkfifo(t, path) }, []string{"config-unreadable@config.json"}, "-"},
		{"a link to /dev/zero", func(t *testing.T, path string) { symlink(t, "/dev/zero", path) }, []string{"config-unreadable@config.json"}, "-"},
		{"a folder", func(t *testing.T, path string) {
			if err := os.Mkdir(path, 0o755); err != nil {
				t.Fatal(err)
			}
		}, []string{"config-unreadable@config.json"}, "-"},
		{"a broken link", func(t *testing.T, path string) { symlink(t, "nowhere.json", path) }, nil, "-"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			c.setup(t, filepath.Join(dir, "config.json"))
			f := readFolder(t, dir)
			if got := faults(f); !slices.Equal(got, c.faults) {
				t.Errorf("faults %v; want %v", got, c.faults)
			}
			got := "-"
			if f.Config != nil {
				got = string(f.Config.Data)
			}
			if got != c.config {
				t.Errorf("config %q; want %q", got, c.config)
			}
		})
	}
	t.Run("a sparse 1 GiB file", func(t *testing.T) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "config.json"), nil, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Truncate(filepath.Join(dir, "config.json"), 1<<30); err != nil {
			t.Fatal(err)
		}
		f := readFolder(t, dir)
		if f.Config == nil || len(f.Config.Data) > 4<<20+1 {
			t.Fatalf("config of %d bytes read; want at most the limit + 1", len(f.Config.Data))
		}
		out, err := Compile(Input{Global: f.Config})
		if err != nil {
			t.Fatal(err)
		}
		if len(out.Diagnostics) != 1 || out.Diagnostics[0].Code != CodeConfigParse || !strings.Contains(out.Diagnostics[0].Msg, "limit") {
			t.Errorf("diagnostics %v; want config-parse naming the limit", out.Diagnostics)
		}
	})
}
