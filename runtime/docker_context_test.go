package runtime_test

import (
	"archive/tar"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/regate/regate/facts"
	"github.com/regate/regate/runtime"
)

// fakeDockerDaemon answers the docker CLI on a unix socket as far as a
// build: it records the names of the files in the build context the CLI
// sends. It returns the DOCKER_HOST to give the CLI and the names sent.
func fakeDockerDaemon(t *testing.T) (string, func() []string) {
	t.Helper()
	sock := filepath.Join(t.TempDir(), "d.sock")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Skipf("no unix socket: %v", err)
	}
	var mu sync.Mutex
	var sent []string
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/_ping" {
			w.Header().Set("Api-Version", "1.45")
			_, _ = io.WriteString(w, "OK")
			return
		}
		tr := tar.NewReader(r.Body)
		mu.Lock()
		sent = sent[:0]
		for {
			h, err := tr.Next()
			if err != nil {
				break
			}
			if h.Typeflag != tar.TypeDir {
				sent = append(sent, h.Name)
			}
		}
		mu.Unlock()
		_, _ = io.WriteString(w, `{"stream":"ok\n"}`+"\n")
	})}
	go func() { _ = srv.Serve(l) }()
	t.Cleanup(func() { _ = srv.Close() })
	return "unix://" + sock, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return slices.Sorted(slices.Values(sent))
	}
}

// TestDockerBuildContextIsWhatDockerSends: docker build PATH is a folder
// read recursively but for what the context's .dockerignore excludes, as
// the docker CLI excludes it. Each case builds a context with the real CLI
// against a fake daemon that records the files it receives, and regate's
// walk of the context must gate every one of them, and exactly those where
// it reads the .dockerignore (without -f, and without a
// Dockerfile.dockerignore that BuildKit would read instead).
func TestDockerBuildContextIsWhatDockerSends(t *testing.T) {
	if _, err := exec.LookPath("docker"); err != nil {
		t.Skip("docker is not installed")
	}
	host, sent := fakeDockerDaemon(t)
	tree := []string{"Dockerfile", ".env", "README.md", "src/a.go", "src/.env.local", "sub/.env", "node_modules/x/index.js", "docs/x.md"}
	for _, c := range []struct {
		name, ignore, extra, cmd string
		exact                    bool
	}{
		{"no dockerignore", "", "", "docker build .", true},
		{"the secret left out", ".env\n", "", "docker build .", true},
		{"every .env left out", "**/.env\n**/.env.*\n", "", "docker build .", true},
		{"a folder left out", "node_modules\n*.md\n", "", "docker build .", true},
		{"all but src", "*\n!src\n", "", "docker build .", true},
		{"all but src, then .env again", "*\n!src\n!.env\n", "", "docker build .", true},
		{"the Dockerfile named", "Dockerfile\n.dockerignore\n.env\n", "", "docker build .", true},
		{"comments and blanks", "# x\n\n  .env  \n/sub\n", "", "docker build .", true},
		{"with -f", ".env\n", "", "docker build -f Dockerfile .", false},
		{"a Dockerfile.dockerignore beside", ".env\n", "Dockerfile.dockerignore", "docker build .", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			files := slices.Clone(tree)
			if c.ignore != "" {
				files = append(files, ".dockerignore")
			}
			if c.extra != "" {
				files = append(files, c.extra)
			}
			for _, f := range files {
				body := "x\n"
				switch f {
				case "Dockerfile":
					body = "FROM scratch\n"
				case ".dockerignore":
					body = c.ignore
				}
				p := filepath.Join(dir, f)
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			run := exec.Command("bash", "-c", c.cmd)
			run.Dir, run.Env = dir, append(os.Environ(), "DOCKER_HOST="+host, "DOCKER_CONFIG="+t.TempDir(), "DOCKER_BUILDKIT=0")
			if out, err := run.CombinedOutput(); err != nil {
				t.Fatalf("%s: %v\n%s", c.cmd, err, out)
			}
			docker := sent()
			if len(docker) == 0 {
				t.Fatal("the fake daemon received no context")
			}
			e := newEngine(t, `{"strict": true, "permission": {"path": {"*": "allow", "/*": "ask"}, "bash": {"*": "allow"}}}`, runtime.WithFS(facts.OSFS{}), runtime.WithCwd(dir))
			var ours []string
			for _, ch := range e.Facts(facts.Call{Tool: "bash", Input: map[string]any{"command": c.cmd}}).Checks {
				if ch.Within == "" || ch.Surface != "path" {
					continue
				}
				for _, g := range ch.Forms {
					for _, s := range g {
						rel, ok := strings.CutPrefix(s, dir+"/")
						if fi, err := os.Stat(filepath.Join(dir, rel)); ok && err == nil && !fi.IsDir() && !slices.Contains(ours, rel) {
							ours = append(ours, rel)
						}
					}
				}
			}
			slices.Sort(ours)
			for _, f := range docker {
				if !slices.Contains(ours, f) {
					t.Errorf("docker sent %s; regate's walk: %v", f, ours)
				}
			}
			if c.exact && !slices.Equal(ours, docker) {
				t.Errorf("regate's walk %v; docker sent %v", ours, docker)
			}
		})
	}
}
