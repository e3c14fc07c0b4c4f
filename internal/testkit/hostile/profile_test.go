package hostile

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestProfileHostileFolders runs `regate profile resolve` and `compose` as
// processes on trusted folders holding every hostile entry at once: a FIFO
// and a 1 GiB sparse file as profiles, links to a secret and to /dev/zero,
// a folder named like a profile, and a FIFO as the project's config.json.
// Each run must end (nothing waits on a FIFO), without a crash, under the
// memory ceiling, with the secret nowhere in the output.
func TestProfileHostileFolders(t *testing.T) {
	root := t.TempDir()
	global, project := filepath.Join(root, "global"), filepath.Join(root, "project")
	secret := filepath.Join(root, "id_rsa")
	must(t, os.WriteFile(secret, []byte("-----BEGIN OPENSSH PRIVATE KEY----- SECRET"), 0o600))
	for _, d := range []string{filepath.Join(global, "profiles", "x.md"), filepath.Join(project, "profiles")} {
		must(t, os.MkdirAll(d, 0o755))
	}
	must(t, os.WriteFile(filepath.Join(global, "config.json"), []byte(`{"version": 1, "defaultProfile": "good"}`), 0o644))
	must(t, os.WriteFile(filepath.Join(global, "profiles", "good.md"), []byte("GOOD TEXT\n"), 0o644))
	must(t, os.Symlink(secret, filepath.Join(global, "profiles", "leak.md")))
	must(t, os.Symlink("/dev/zero", filepath.Join(global, "profiles", "zero.md")))
	if err := syscall.Mkfifo(filepath.Join(global, "profiles", "pipe.md"), 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	must(t, syscall.Mkfifo(filepath.Join(project, "config.json"), 0o600))
	big, err := os.Create(filepath.Join(global, "profiles", "big.md"))
	must(t, err)
	must(t, big.Truncate(1<<30))
	must(t, big.Close())
	prompt := filepath.Join(root, "prompt.txt")
	must(t, os.WriteFile(prompt, []byte("NATIVE PROMPT\n"), 0o644))

	base := []string{"--global", global, "--project", project, "--trusted", "--provider", "p", "--model", "m"}
	for _, args := range [][]string{
		append([]string{"profile", "resolve"}, base...),
		append([]string{"profile", "compose", "--prompt", prompt}, base...),
	} {
		t.Run(args[1], func(t *testing.T) {
			r := runRegate(t, HookDeadline, nil, []string{"HOME=" + root}, args...)
			noCrash(t, r)
			if r.exit != 0 {
				t.Fatalf("exit %d: %.400s", r.exit, r.stderr)
			}
			if out := r.stdout + r.stderr; strings.Contains(out, "SECRET") || !strings.Contains(out, "profile-symlink") && args[1] == "resolve" {
				t.Fatalf("the secret reached the output, or the link was not reported:\n%s", out)
			}
			if args[1] == "compose" && !strings.Contains(r.stdout, "GOOD TEXT") {
				t.Fatalf("the good profile was not composed:\n%s", r.stdout)
			}
			if r.peakRSS > HookRSS {
				t.Fatalf("peak RSS %d MiB, ceiling %d MiB", r.peakRSS>>20, HookRSS>>20)
			}
			t.Logf("in %s, peak %d MiB", r.elapsed.Round(1e6), r.peakRSS>>20)
		})
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
