//go:build unix

package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/regate/regate/compiler/profile"
)

// hostileFolder builds a trusted config folder, under a name holding
// [, * and ? (an unbalanced [ failed the glob, and the glob read
// siblings), whose profiles folder holds every kind of entry that cannot
// be used beside one good profile: links to a private key, to /dev/zero
// and to nothing, a FIFO, a folder named x.md, a file of mode 000, a
// sparse 1 GiB file, names with a newline and terminal escapes. A sibling
// folder the glob would have matched holds a profile that must stay
// unread. config is config.json's body.
func hostileFolder(t *testing.T, config string) (dir, secret string) {
	t.Helper()
	root := t.TempDir()
	secret = filepath.Join(root, "id_rsa")
	dir = filepath.Join(root, "prompts[a*?")
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.WriteFile(secret, []byte("-----BEGIN OPENSSH PRIVATE KEY----- SECRET"), 0o600))
	for _, d := range []string{"prompts[a*?/profiles/x.md", "promptsXab/profiles"} {
		must(os.MkdirAll(filepath.Join(root, d), 0o755))
	}
	must(os.WriteFile(filepath.Join(root, "promptsXab/profiles/sibling.md"), []byte("SIBLING TEXT"), 0o644))
	p := filepath.Join(dir, "profiles")
	must(os.WriteFile(filepath.Join(dir, "config.json"), []byte(config), 0o644))
	must(os.WriteFile(filepath.Join(p, "good.md"), []byte("GOOD TEXT"), 0o644))
	must(os.Symlink(secret, filepath.Join(p, "leak.md")))
	must(os.Symlink("/dev/zero", filepath.Join(p, "zero.md")))
	must(os.Symlink("nowhere.md", filepath.Join(p, "broken.md")))
	must(os.WriteFile(filepath.Join(p, "locked.md"), []byte("LOCKED"), 0o000))
	must(os.WriteFile(filepath.Join(p, "big.md"), nil, 0o644))
	must(os.Truncate(filepath.Join(p, "big.md"), 1<<30))
	must(os.WriteFile(filepath.Join(p, "x\nprofile      global:forged.md"), []byte("N"), 0o644))
	must(os.WriteFile(filepath.Join(p, "evil\x1b[2J\x1b]0;owned\a.md"), []byte("E"), 0o644))
	if err := syscall.Mkfifo(filepath.Join(p, "pipe.md"), 0o644); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
	return dir, secret
}

// runCLI runs regate with args, failing the test if it has not finished
// within 10 s (a FIFO read would block for ever).
func runCLI(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	done := make(chan int, 1)
	go func() { done <- Main(args, strings.NewReader(""), &out, &errb) }()
	select {
	case code = <-done:
	case <-time.After(10 * time.Second):
		t.Fatalf("regate %s is still running after 10 s", strings.Join(args, " "))
	}
	return code, out.String(), errb.String()
}

// TestProfileHostileFolder runs profile resolve and profile compose on the
// hostile folder: no hang, no crash, the good profile applies, every
// entry that cannot be used is a diagnostic (escaped), nothing a link
// points at reaches the prompt, and a stale block behind a byte-order mark
// in a CRLF prompt is replaced cleanly.
func TestProfileHostileFolder(t *testing.T) {
	dir, _ := hostileFolder(t, `{"version": 1, "defaultProfile": "good", "profiles": {"good": {"extends": "sibling"}}}`)
	// The base named in extends lives only in the sibling folder: if that
	// were read, good would expand; it must be missing instead.
	code, out, errOut := runCLI(t, "profile", "resolve", "--global", dir, "--provider", "p", "--model", "m")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "profile      none\n") || !strings.Contains(out, "profile-missing") {
		t.Errorf("good extends sibling, which is in another folder: want it missing\n%s", out)
	}

	dir, secret := hostileFolder(t, `{"version": 1, "defaultProfile": "good"}`)
	code, out, errOut = runCLI(t, "profile", "resolve", "--global", dir, "--provider", "p", "--model", "m")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	want := map[string]string{ // file → code
		"leak.md": profile.CodeProfileSymlink, "zero.md": profile.CodeProfileSymlink, "broken.md": profile.CodeProfileSymlink,
		"pipe.md": profile.CodeProfileUnreadable, "x.md": profile.CodeProfileUnreadable, "big.md": profile.CodeProfileTooLarge,
		`x\nprofile      global:forged.md"`: profile.CodeProfileID, `evil\x1b[2J\x1b]0;owned\a.md"`: profile.CodeProfileID,
	}
	if os.Geteuid() != 0 {
		want["locked.md"] = profile.CodeProfileUnreadable
	}
	line := regexp.MustCompile(`^(profile|mode|binding|layers) +|^"?` + regexp.QuoteMeta(dir) + `/profiles/(.*):1:1: ([a-z-]+): `)
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	got := map[string]string{}
	for _, l := range lines {
		m := line.FindStringSubmatch(l)
		switch {
		case m == nil:
			t.Errorf("a line that is not resolve's own: %q", l)
		case m[2] != "":
			got[m[2]] = m[3]
		}
		if strings.ContainsAny(l, "\x1b\a\r") {
			t.Errorf("a raw control character reached the output: %q", l)
		}
	}
	for file, c := range want {
		if got[file] != c {
			t.Errorf("%s: diagnostic %q; want %q", file, got[file], c)
		}
	}
	if !strings.HasPrefix(out, "profile      global:good\n") || strings.Count(out, "\nprofile ") != 0 {
		t.Errorf("want the good profile, and no forged profile line:\n%s", out)
	}

	prompt := filepath.Join(t.TempDir(), "prompt.txt")
	stale := "\uFEFF\r\n" + profile.BeginMarker + "\r\nSTALE\r\n" + profile.EndMarker + "\r\n\r\nNATIVE\r\nAGENTS"
	if err := os.WriteFile(prompt, []byte(stale), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut = runCLI(t, "profile", "compose", "--global", dir, "--provider", "p", "--model", "m", "--prompt", prompt)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	wantPrompt := profile.BeginMarker + "\r\n" + profile.Control + "\r\n\r\nGOOD TEXT\r\n" + profile.EndMarker + "\r\n\r\nNATIVE\r\nAGENTS"
	if out != wantPrompt {
		t.Errorf("composed %q\nwant %q", out, wantPrompt)
	}
	if b, _ := os.ReadFile(secret); strings.Contains(out+errOut, string(b)) || strings.Contains(out, "SIBLING") {
		t.Errorf("a linked or sibling file reached the output")
	}
	if strings.Count(errOut, "\n") != len(want) || strings.ContainsAny(errOut, "\x1b\a") {
		t.Errorf("compose's diagnostics: want one escaped line per fault:\n%s", errOut)
	}
}

// TestProfileHostileConfig: a config.json that is a FIFO or a link to
// /dev/zero is refused at once (config-unreadable), and a 1 GiB one is
// read no further than the limit (config-parse): the scope is invalid, no
// hang, no crash, exit 0.
func TestProfileHostileConfig(t *testing.T) {
	for _, c := range []struct {
		name  string
		setup func(path string) error
		code  string
	}{
		{"fifo", func(path string) error { return syscall.Mkfifo(path, 0o644) }, profile.CodeConfigUnreadable},
		{"dev zero", func(path string) error { return os.Symlink("/dev/zero", path) }, profile.CodeConfigUnreadable},
		{"1 GiB", func(path string) error {
			if err := os.WriteFile(path, nil, 0o644); err != nil {
				return err
			}
			return os.Truncate(path, 1<<30)
		}, profile.CodeConfigParse},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir, _ := hostileFolder(t, "")
			path := filepath.Join(dir, "config.json")
			if err := os.Remove(path); err != nil {
				t.Fatal(err)
			}
			if err := c.setup(path); err != nil {
				t.Skipf("cannot set up: %v", err)
			}
			for _, cmd := range []string{"resolve", "compose"} {
				code, out, errOut := runCLI(t, "profile", cmd, "--global", dir, "--project", dir, "--trusted", "--use", "project:good", "--provider", "p", "--model", "m")
				if code != 0 {
					t.Fatalf("%s: exit %d: %s", cmd, code, errOut)
				}
				if !strings.Contains(out+errOut, ": "+c.code+": ") {
					t.Errorf("%s: no %s diagnostic:\n%s%s", cmd, c.code, out, errOut)
				}
				// The project's config cannot be read, so the project is
				// inactive: its profile is not applied.
				if strings.Contains(out, "GOOD TEXT") || strings.Contains(out, "profile      project:good") {
					t.Errorf("%s: a project whose config cannot be read applied its profile:\n%s", cmd, out)
				}
			}
		})
	}
}

// TestComposePromptIsBounded: a prompt path that never ends (/dev/zero)
// is refused at the bound, not read into gigabytes.
func TestComposePromptIsBounded(t *testing.T) {
	code, _, errOut := runCLI(t, "profile", "compose", "--prompt", "/dev/zero")
	if code != exitUsage || !strings.Contains(errOut, "more than") {
		t.Fatalf("exit %d: %s", code, errOut)
	}
}
