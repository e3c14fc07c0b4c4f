package facts_test

import (
	"reflect"
	"testing"

	"github.com/regate/regate/facts"
)

// TestKernelForms: a path is resolved as the kernel walks it, component by
// component, besides the spec's lexical reading; per-process places
// (/proc/self, /dev/fd) are the command's, not regate's.
func TestKernelForms(t *testing.T) {
	env := facts.Env{Cwd: "/home/u/repo", Home: "/home/u", FS: facts.MapFS{
		"/home/u/repo/link":   "link:/home/u/.ssh/keys",
		"/home/u/.ssh/keys/a": "file",
		"/home/u/.ssh/id_rsa": "file",
		"/home/u/repo/README": "file",
		"/home/u/repo/etc":    "link:/etc",
		"/home/u/repo/up":     "link:etc/../x", // the kernel walks etc first: /etc/.. is /
		"/home/u/repo/loop1":  "link:loop2",
		"/home/u/repo/loop2":  "link:loop1",
		"/home/u/repo/fdlink": "link:/dev/fd/3",
		"/home/u/repo/sub/f":  "file",
	}}
	tests := []struct {
		value     string
		canonical []string
		kernel    []string
		fd        string
		strict    bool
		err       bool
	}{
		// The lexical reading cleans link/.. away; the kernel goes to the
		// folder of the link's target.
		{value: "link/../id_rsa", canonical: []string{"/home/u/repo/id_rsa", "id_rsa"}, kernel: []string{"/home/u/.ssh/id_rsa"}},
		{value: "./link/./../id_rsa", canonical: []string{"/home/u/repo/id_rsa", "id_rsa"}, kernel: []string{"/home/u/.ssh/id_rsa"}},
		{value: "sub/../README", canonical: []string{"/home/u/repo/README", "README"}},
		// The kernel fails below a missing folder or a file: no other form.
		{value: "missing/../README", canonical: []string{"/home/u/repo/README", "README"}},
		{value: "README/../sub", canonical: []string{"/home/u/repo/sub", "sub"}},
		// A link's target is walked as the kernel does, not cleaned first.
		{value: "up", canonical: []string{"/x"}},
		// A loop the lexical reading never meets still fails closed.
		{value: "loop1/../README", canonical: []string{"/home/u/repo/README", "README"}, err: true},
		// /proc/self is the command's process: its cwd is where the
		// command stands, its root is /.
		{value: "/proc/self/cwd/.env", canonical: []string{"/home/u/repo/.env", ".env"}},
		{value: "/proc/self/cwd/../.ssh/id_rsa", canonical: []string{"/proc/self/.ssh/id_rsa"}, kernel: []string{"/home/u/.ssh/id_rsa"}},
		{value: "/proc/self/root/home/u/.ssh/id_rsa", canonical: []string{"/home/u/.ssh/id_rsa"}},
		{value: "/proc/thread-self/root/etc/passwd", canonical: []string{"/etc/passwd"}},
		{value: "/proc/self/environ", canonical: []string{"/proc/self/environ"}},
		// Descriptors: standard streams are streams; any other is a file
		// regate cannot see.
		{value: "/dev/stdin", canonical: []string{"/proc/self/fd/0"}, fd: "0"},
		{value: "/dev/fd/1", canonical: []string{"/proc/self/fd/1"}, fd: "1"},
		{value: "/dev/fd/3", canonical: []string{"/proc/self/fd/3"}, fd: "3", strict: true},
		{value: "/proc/self/fd/9", canonical: []string{"/proc/self/fd/9"}, fd: "9", strict: true},
		{value: "/dev//./fd/3", canonical: []string{"/proc/self/fd/3"}, fd: "3", strict: true},
		{value: "fdlink", canonical: []string{"/proc/self/fd/3"}, fd: "3", strict: true},
		{value: "/proc/1/root/etc/shadow", canonical: []string{"/proc/1/root/etc/shadow"}, strict: true},
	}
	for _, tc := range tests {
		t.Run(tc.value, func(t *testing.T) {
			f := env.PathForms(tc.value, env.Cwd)
			if !reflect.DeepEqual(f.Canonical, tc.canonical) {
				t.Errorf("canonical %q, want %q", f.Canonical, tc.canonical)
			}
			if !reflect.DeepEqual(f.Kernel, tc.kernel) {
				t.Errorf("kernel %q, want %q", f.Kernel, tc.kernel)
			}
			if f.FD != tc.fd || (f.Strict != "") != tc.strict {
				t.Errorf("fd %q strict %q, want fd %q strict %v", f.FD, f.Strict, tc.fd, tc.strict)
			}
			if (f.Err != "") != tc.err {
				t.Errorf("err %q, want error %v", f.Err, tc.err)
			}
		})
	}
}

// TestCaseFolding: on a file system that folds case, an existing path is
// also spelt as the disk lists it; FoldsCase sees which file systems do.
func TestCaseFolding(t *testing.T) {
	files := map[string]string{
		"/home/u/Repo/.env":     "file",
		"/home/u/.ssh/id_rsa":   "file",
		"/home/u/Repo/Makefile": "file",
	}
	folding := facts.FoldMapFS(files)
	if !facts.FoldsCase(folding, "/home/u/Repo") {
		t.Error("FoldsCase(FoldMapFS) = false")
	}
	if facts.FoldsCase(facts.MapFS(files), "/home/u/Repo") {
		t.Error("FoldsCase(MapFS) = true")
	}
	if facts.FoldsCase(folding, "/") {
		t.Error(`FoldsCase("/") = true: a path without a letter cannot tell`)
	}
	env := facts.Env{Cwd: "/home/u/Repo", Home: "/home/u", FS: folding, FoldCase: true}
	for _, tc := range []struct{ value, want string }{
		{".ENV", "/home/u/Repo/.env"},
		{"~/.SSH/ID_RSA", "/home/u/.ssh/id_rsa"},
		{"/HOME/U/repo/makefile", "/home/u/Repo/Makefile"},
		{"new.TXT", "/home/u/Repo/new.TXT"}, // nothing on disk: as written
	} {
		f := env.PathForms(tc.value, env.Cwd)
		if f.Canonical[0] != tc.want {
			t.Errorf("%s: canonical %q, want %q first", tc.value, f.Canonical, tc.want)
		}
	}
	env.FoldCase = false
	if f := env.PathForms(".ENV", env.Cwd); f.Canonical[0] != "/home/u/Repo/.ENV" {
		t.Errorf("without folding: canonical %q", f.Canonical)
	}
}
