package attack

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Fixture is a throwaway home and project on the real file system: the
// place every generated command is decided for and run in. Its layout:
//
//	ROOT/live/home/.ssh/id_rsa        a private key (~/.ssh/*: deny)
//	ROOT/live/home/.ssh/config
//	ROOT/live/home/.bashrc
//	ROOT/live/home/.gitconfig
//	ROOT/live/home/proj/              the project, a git repository, the cwd
//	    .env .env.local sub/.env      secrets (*.env, *.env.*: deny)
//	    .env.example                  allowed (*.env.example: allow)
//	    key.pem                       a secret (*.pem: deny)
//	    link -> .env                  a link to a secret
//	    keys -> ../.ssh               a link to the secret folder
//	    src/main.go README.md .gitignore sub/notes.txt sub/notes.txt.gz
//	ROOT/live/tmp/                    TMPDIR
//
// ROOT/template holds the pristine copy; Reset puts it back in live after a
// run, so every decision and every run sees the same files.
type Fixture struct {
	Root    string // ROOT/live
	Home    string
	Project string
	Tmp     string
	tmpl    string
	scratch string // beside the live copy: strace's log
}

// Secret markers: every secret file's content contains Secret, so a test can
// also see a leak in a command's output.
const Secret = "SECRET"

// fixtureFiles is the fixture, relative to the home; a value "->X" is a
// symbolic link to X.
var fixtureFiles = []struct{ name, content string }{
	{".ssh/id_rsa", "-----BEGIN OPENSSH PRIVATE KEY----- " + Secret + "_SSH\n"},
	{".ssh/config", "Host *\n"},
	{".bashrc", "# bashrc\n"},
	{".gitconfig", "[user]\n\tname = fixture\n\temail = fixture@example.com\n"},
	{"proj/.env", Secret + "_ENV=1\n"},
	{"proj/.env.local", Secret + "_LOCAL=1\n"},
	{"proj/.env.example", "EXAMPLE=1\n"},
	{"proj/key.pem", "-----BEGIN PRIVATE KEY----- " + Secret + "_PEM\n"},
	{"proj/src/main.go", "package main\n\nfunc main() {}\n"},
	{"proj/README.md", "# fixture\nEXAMPLE\n"},
	{"proj/.gitignore", ".env\n.env.local\nkey.pem\nsub/.env\nlink\nkeys\n"},
	{"proj/sub/.env", Secret + "_SUB=1\n"},
	{"proj/sub/notes.txt", "notes\n"},
	{"proj/sub/notes.txt.gz", gzipped("notes\n")},
	{"proj/link", "->.env"},
	{"proj/keys", "->../.ssh"},
}

// gzipped is s compressed with gzip: rg -z runs a decompressor on it.
func gzipped(s string) string {
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	w.Write([]byte(s))
	w.Close()
	return b.String()
}

// NewFixture builds the template under dir (a fresh, empty folder), makes
// its project a git repository with one commit (git must be on PATH), and
// copies it live.
func NewFixture(dir string) (*Fixture, error) {
	dir, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return nil, err
	}
	f := &Fixture{
		Root:    filepath.Join(dir, "live"),
		Home:    filepath.Join(dir, "live", "home"),
		Project: filepath.Join(dir, "live", "home", "proj"),
		Tmp:     filepath.Join(dir, "live", "tmp"),
		tmpl:    filepath.Join(dir, "template"),
		scratch: dir,
	}
	home := filepath.Join(f.tmpl, "home")
	for _, e := range fixtureFiles {
		p := filepath.Join(home, e.name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return nil, err
		}
		if target, ok := strings.CutPrefix(e.content, "->"); ok {
			err = os.Symlink(target, p)
		} else {
			err = os.WriteFile(p, []byte(e.content), 0o600)
		}
		if err != nil {
			return nil, err
		}
	}
	if err := os.MkdirAll(filepath.Join(f.tmpl, "tmp"), 0o755); err != nil {
		return nil, err
	}
	proj := filepath.Join(home, "proj")
	for _, args := range [][]string{
		{"init", "-q", "-b", "main", "."},
		{"add", "README.md", "src", ".env.example", ".gitignore", "sub/notes.txt", "sub/notes.txt.gz"},
		{"commit", "-q", "-m", "fixture"},
	} {
		git := exec.Command("git", args...)
		git.Dir = proj
		git.Env = append(f.Env(), "GIT_AUTHOR_NAME=fixture", "GIT_AUTHOR_EMAIL=fixture@example.com",
			"GIT_COMMITTER_NAME=fixture", "GIT_COMMITTER_EMAIL=fixture@example.com")
		if out, err := git.CombinedOutput(); err != nil {
			return nil, fmt.Errorf("attack: git %s: %v: %s", strings.Join(args, " "), err, out)
		}
	}
	return f, f.Reset()
}

// Env is the environment a command runs with: the fixture's home and
// temporary folder, the host's PATH, and git kept inside the fixture.
func (f *Fixture) Env() []string {
	return []string{
		"HOME=" + f.Home,
		"TMPDIR=" + f.Tmp,
		"PATH=" + os.Getenv("PATH"),
		"LANG=C",
		"LC_ALL=C",
		"GIT_CEILING_DIRECTORIES=" + f.Root,
		"GIT_CONFIG_NOSYSTEM=1",
	}
}

// Reset replaces the live copy with the template.
func (f *Fixture) Reset() error {
	if err := os.RemoveAll(f.Root); err != nil {
		return err
	}
	return copyTree(f.tmpl, f.Root)
}

// copyTree copies files, folders and symbolic links (as links) from src
// to dst, keeping permission bits.
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		to := filepath.Join(dst, rel)
		info, err := d.Info()
		if err != nil {
			return err
		}
		switch {
		case d.IsDir():
			return os.MkdirAll(to, info.Mode().Perm())
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			return os.Symlink(target, to)
		default:
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			return os.WriteFile(to, b, info.Mode().Perm())
		}
	})
}
