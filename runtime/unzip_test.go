package runtime_test

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/regate/regate/facts"
	"github.com/regate/regate/policies"
	"github.com/regate/regate/runtime"
)

// zipOf is a zip archive of the named entries: a name ending in "/" is a
// folder, a value beginning with "->" a symbolic link to the rest.
func zipOf(t *testing.T, entries ...[2]string) string {
	t.Helper()
	var b bytes.Buffer
	z := zip.NewWriter(&b)
	for _, e := range entries {
		h := &zip.FileHeader{Name: e[0], Method: zip.Store}
		body := e[1]
		switch {
		case len(body) > 2 && body[:2] == "->":
			h.SetMode(fs.ModeSymlink | 0o777)
			body = body[2:]
		case e[0] != "" && e[0][len(e[0])-1] == '/':
			h.SetMode(fs.ModeDir | 0o755)
		default:
			h.SetMode(0o644)
		}
		w, err := z.CreateHeader(h)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write([]byte(body)); err != nil {
			t.Fatal(err)
		}
	}
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestUnzipWritesWhatUnzipWrites: the real unzip extracts crafted
// archives, and regate's writes for the same command must name every file
// unzip made (and, where the row is exact, nothing else): names with
// folders, "..", a leading "/", "./", -j, -d before and after the
// archive, a name with "\" (which unzip keeps as a character in an
// archive made on Unix), exclusions, a name unzip takes from a Unicode
// Path field, -L (lowercased names; zipread_test.go crafts the
// archives readers disagree on).
func TestUnzipWritesWhatUnzipWrites(t *testing.T) {
	if _, err := exec.LookPath("unzip"); err != nil {
		t.Skip("unzip is not installed")
	}
	plain := zipOf(t, [2]string{"a.txt", "a"}, [2]string{"sub/", ""}, [2]string{"sub/b.txt", "b"}, [2]string{"./c.txt", "c"})
	climbing := zipOf(t, [2]string{"../x.txt", "x"}, [2]string{"a/../../y.txt", "y"}, [2]string{"/abs/z.txt", "z"})
	cases := []struct {
		name, archive, cmd string
		exact              bool
	}{
		{"plain", plain, "unzip -q x.zip", true},
		{"into a folder", plain, "unzip -q -d out x.zip", true},
		{"-d after the archive", plain, "unzip -q x.zip -d out", true},
		{"-d attached", plain, "unzip -qdout x.zip", true},
		{"junk paths", plain, "unzip -qj x.zip -d flat", true},
		{"climbing and absolute names", climbing, "unzip -q x.zip; true", true},
		{"a backslash", zipOf(t, [2]string{`w\v.txt`, "w"}), "unzip -q x.zip", false},
		{"exclusions", plain, "unzip -q x.zip -x sub/b.txt -d out", false},
		{"members", plain, "unzip -q x.zip a.txt", false},
		{"a Unicode Path field", unicodeNamed(), "unzip -q x.zip", false},
		{"-L lowercases a name made on FAT", fatZip(t, "DIR/X.ENV"), "unzip -qL x.zip", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "x.zip"), []byte(tc.archive), 0o644); err != nil {
				t.Fatal(err)
			}
			checkExtraction(t, dir, tc.cmd, tc.exact, "out", "flat") // -d's folder is a write too
		})
	}
}

// fatZip is a zip archive of one file, name, made (as its header says) on
// MS-DOS, an upper-case-only system.
func fatZip(t *testing.T, name string) string {
	t.Helper()
	var b bytes.Buffer
	z := zip.NewWriter(&b)
	w, err := z.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Store, CreatorVersion: 0x0014})
	if err == nil {
		_, err = w.Write([]byte("x"))
	}
	if err == nil {
		err = z.Close()
	}
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// checkExtraction runs cmd in dir with bash, after regate, in strict mode,
// has listed the writes it decides for it (but for the folders named in
// folders), and holds those writes to the files cmd changed (checkWrites).
func checkExtraction(t *testing.T, dir, cmd string, exact bool, folders ...string) {
	t.Helper()
	e := newEngine(t, `{"strict": true, "bash": {"*": "allow"}}`, runtime.WithFS(facts.OSFS{}), runtime.WithCwd(dir))
	var ours []string
	for _, c := range e.Facts(facts.Call{Tool: "bash", Input: map[string]any{"command": cmd}}).Checks {
		if c.Surface == "write" && !slices.Contains(folders, c.Value) {
			ours = append(ours, c.Value)
		}
		if c.Strict != "" {
			t.Errorf("strict mode asks: %s", c.Strict)
		}
	}
	before := snapshot(dir)
	run := exec.Command("bash", "-c", cmd)
	run.Dir = dir
	if out, err := run.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", cmd, err, out)
	}
	checkWrites(t, cmd, ours, changedPaths(dir, before, snapshot(dir)), exact)
}

// TestUnzipDecidesEachEntry: under the developer policy, which allows
// unzip * and writes in the project and denies secrets, an archive is
// allowed when what it makes is allowed, and meets the rules of each file
// it makes: a .env (denied), a git hook (git runs it: asks), a folder of
// the home's dot-files (asks); a symbolic link, an archive that does not
// exist yet or does not parse, and a -d bash expands ask. Before unzip had
// a model, every row was allowed.
func TestUnzipDecidesEachEntry(t *testing.T) {
	fsys := facts.MapFS{
		"/home/u/repo/data.zip":  "file:" + zipOf(t, [2]string{"a.csv", "1"}, [2]string{"more/b.csv", "2"}),
		"/home/u/repo/env.zip":   "file:" + zipOf(t, [2]string{"conf/.env", "S=1"}),
		"/home/u/repo/hooks.zip": "file:" + zipOf(t, [2]string{".git/hooks/pre-commit", "#!/bin/sh"}),
		"/home/u/repo/link.zip":  "file:" + zipOf(t, [2]string{"l", "->/home/u/.ssh"}),
		"/home/u/repo/bad.zip":   "file:not a zip",
		"/home/u/repo/.git/HEAD": "file:ref: refs/heads/main",
	}
	developer := newEngine(t, readPolicy(t, "developer.jsonc"), runtime.WithFS(fsys))
	def := newEngine(t, string(policies.Default()), runtime.WithFS(fsys))
	decideUnderBoth(t, developer, def, []policyRow{
		{"unzip data.zip", "allow", "ask"},
		{"unzip -o data.zip -d data/", "allow", "ask"},
		{"unzip -qj data.zip -d /tmp/x", "allow", "ask"},
		{"unzip data.zip -d ~/.config/app", "ask", "ask"},
		{"unzip env.zip", "deny", "deny"},
		{"unzip -j env.zip -d flat", "deny", "deny"},
		{"unzip hooks.zip", "ask", "ask"},
		{"unzip link.zip", "ask", "ask"},
		{"unzip bad.zip", "ask", "ask"},
		{"unzip later.zip", "ask", "ask"},
		{"cp /tmp/x.zip later.zip && unzip later.zip", "ask", "ask"},
		{`unzip data.zip -d "$OUT"`, "ask", "ask"},
		{"unzip data.zip -d ~/.config -d data", "ask", "ask"}, // unzip writes into the first
		{"unzip data.zip -d data -d ~/.config", "ask", "ask"},
		{"unzip -l env.zip", "allow", "ask"},
		{"unzip -p env.zip", "deny", "deny"}, // prints the archived .env
		{"unzip -p data.zip a.csv", "allow", "ask"},
		{"git apply later.patch", "ask", "ask"}, // a patch made by the command first, as printf … > p && git apply p
	})
}

// tarOf is a tar archive of the named entries, gzip-compressed when gz: a
// name ending in "/" is a folder, a value beginning with "->" a symbolic
// link to the rest.
func tarOf(t *testing.T, gz bool, entries ...[2]string) string {
	t.Helper()
	var b bytes.Buffer
	var w io.Writer = &b
	var z *gzip.Writer
	if gz {
		z = gzip.NewWriter(&b)
		w = z
	}
	tw := tar.NewWriter(w)
	for _, e := range entries {
		h := &tar.Header{Name: e[0], Mode: 0o644, Typeflag: tar.TypeReg, Size: int64(len(e[1]))}
		body := e[1]
		switch {
		case len(body) > 2 && body[:2] == "->":
			h.Typeflag, h.Linkname, h.Size, body = tar.TypeSymlink, body[2:], 0, ""
		case strings.HasSuffix(e[0], "/"):
			h.Typeflag, h.Mode, h.Size = tar.TypeDir, 0o755, 0
		}
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write([]byte(body)); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if z != nil {
		if err := z.Close(); err != nil {
			t.Fatal(err)
		}
	}
	return b.String()
}

// TestTarWritesWhatTarWrites: GNU tar extracts crafted archives, and
// regate's writes for the same command must name every file tar made
// (and, where the row is exact, nothing else): folders, a leading "/",
// "./", a name with ".." (which tar skips), --strip-components (which
// skips the names it empties), -C before and after -f, gzip.
func TestTarWritesWhatTarWrites(t *testing.T) {
	if _, err := exec.LookPath("tar"); err != nil {
		t.Skip("tar is not installed")
	}
	plain := [][2]string{{"pkg/", ""}, {"pkg/a.txt", "a"}, {"pkg/sub/b.txt", "b"}, {"./c.txt", "c"}, {"/abs/d.txt", "d"}}
	cases := []struct {
		name, archive, cmd string
		exact              bool
	}{
		{"plain", tarOf(t, false, plain...), "tar -xf x.tar", true},
		{"gzip, old-style bundle", tarOf(t, true, plain...), "tar xzf x.tar", true},
		{"gzip told from the bytes", tarOf(t, true, plain...), "tar -xf x.tar", true},
		{"into a folder", tarOf(t, false, plain...), "mkdir out && tar -xf x.tar -C out", true},
		{"-C first", tarOf(t, false, plain...), "mkdir out && tar -C out -xf x.tar", true},
		{"long options", tarOf(t, false, plain...), "mkdir out && tar --extract --file=x.tar --directory=out", true},
		{"strip components", tarOf(t, false, plain...), "tar -xf x.tar --strip-components=1", true},
		{"dot-dot names are skipped", tarOf(t, false, [2]string{"a/../../up.txt", "u"}, [2]string{"ok.txt", "o"}), "tar -xf x.tar; true", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "x.tar"), []byte(tc.archive), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Mkdir(filepath.Join(dir, "out"), 0o755); err != nil {
				t.Fatal(err)
			}
			checkExtraction(t, dir, strings.TrimPrefix(tc.cmd, "mkdir out && "), tc.exact)
		})
	}
}

// TestTarDecidesEachEntry: under the developer policy, which allows tar *
// (before, tar -x asked in strict mode whatever the archive held), an
// archive is allowed when each file it makes is, and meets the rules of
// each: a .env is denied, a folder of the home's dot-files asks; a link, a
// compression regate does not read, standard input, -C with member names
// (tar applies it to the names after it alone), -P and --transform ask.
func TestTarDecidesEachEntry(t *testing.T) {
	fsys := facts.MapFS{
		"/home/u/repo/ok.tgz":       "file:" + tarOf(t, true, [2]string{"pkg/a.txt", "a"}, [2]string{"pkg/b.txt", "b"}),
		"/home/u/repo/env.tar":      "file:" + tarOf(t, false, [2]string{"conf/.env", "S=1"}),
		"/home/u/repo/link.tar":     "file:" + tarOf(t, false, [2]string{"l", "->/home/u/.ssh"}),
		"/home/u/repo/x.tar.xz":     "file:\xfd7zXZ\x00rest",
		"/home/u/repo/.git/HEAD":    "file:ref: refs/heads/main",
		"/home/u/repo/pkg/keep.txt": "file:k",
	}
	developer := newEngine(t, readPolicy(t, "developer.jsonc"), runtime.WithFS(fsys))
	def := newEngine(t, string(policies.Default()), runtime.WithFS(fsys))
	decideUnderBoth(t, developer, def, []policyRow{
		{"tar -xzf ok.tgz", "allow", "ask"},
		{"tar xzf ok.tgz -C /tmp/x", "allow", "ask"},
		{"tar -xf ok.tgz --strip-components=1", "allow", "ask"},
		{"tar -xf ok.tgz -C ~/.config/app", "ask", "ask"},
		{"tar -xf env.tar", "deny", "deny"},
		{"tar -xf env.tar --strip-components 1", "deny", "deny"},
		{"tar -xf env.tar --strip-components 2", "allow", "ask"}, // tar skips the emptied name
		{"tar -xf link.tar", "ask", "ask"},
		{"tar -xJf x.tar.xz", "ask", "ask"},
		{"tar -xf -", "ask", "ask"},
		{"curl -s localhost:8080/a.tgz | tar -xz", "ask", "ask"},
		{"tar -xf ok.tgz pkg/a.txt -C /tmp/x", "ask", "ask"},
		{"tar -xf ok.tgz -C a -C b", "ask", "ask"},
		{"tar -xPf ok.tgz", "ask", "ask"},
		{"tar -xf ok.tgz --transform 's,^,../,'", "ask", "ask"},
		{"tar -xf later.tgz", "ask", "ask"},
		{`tar -xf "$ARCHIVE"`, "ask", "ask"}, // a variable of the host's environment: its entries are unknown
		{`unzip "$ARCHIVE"`, "ask", "ask"},
		{`git apply "$PATCH"`, "ask", "ask"},
		{"tar -tzf env.tar", "allow", "ask"},
		{"tar -xOf env.tar", "deny", "deny"}, // prints the archived .env
		{"tar -xOzf ok.tgz", "allow", "ask"},
		{"cat ok.tgz | tar -xzO", "ask", "ask"},
		{"tar -czf out.tgz -C ~/.ssh .", "ask", "ask"}, // -C still floors when tar reads the names after it
		{"tar -czf out.tgz -C pkg .", "ask", "ask"},
	})
}
