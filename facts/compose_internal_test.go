package facts

import (
	"encoding/json"
	"errors"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/compose-spec/compose-go/v2/format"

	"github.com/regate/regate/bashfacts"
)

// composeFixtures are compose projects as agents meet them: each a set of
// files written into a temporary folder, the compose options and the
// folder (relative to the project) docker compose runs in.
var composeFixtures = []struct {
	name  string
	files map[string]string
	opts  bashfacts.ComposeOptions
	cwd   string
	floor bool // regate asks: compose's reading cannot be told
}{
	{name: "build, a read-only mount, a named volume, a default", files: map[string]string{
		"compose.yaml": "services:\n  api:\n    build: .\n    volumes:\n      - ./src:/src:ro\n      - data:/data\n    ports: [\"${PORT:-8080}:8080\"]\nvolumes:\n  data: {}\n",
		"Dockerfile":   "FROM alpine\n", "src/a.go": "package a\n",
	}},
	{name: "long syntax, env files, secrets and configs", files: map[string]string{
		"docker-compose.yml": "services:\n  web:\n    image: nginx\n    env_file:\n      - path: ./web.env\n        required: false\n      - common.env\n    volumes:\n      - type: bind\n        source: ./html\n        target: /usr/share/nginx/html\n        read_only: true\n      - type: bind\n        source: ./logs\n        target: /logs\n    secrets: [key]\n    configs: [conf]\nsecrets:\n  key:\n    file: ./key.pem\nconfigs:\n  conf:\n    file: ./nginx.conf\n",
		"common.env":         "A=1\n", "key.pem": "k", "nginx.conf": "c", "html/index.html": "x", "logs/x": "x",
	}},
	{name: "an override file", files: map[string]string{
		"compose.yml":          "services:\n  api:\n    image: alpine\n",
		"compose.override.yml": "services:\n  api:\n    volumes: [\"./conf:/conf:ro\"]\n    env_file: [dev.env]\n",
		"conf/a":               "x", "dev.env": "X=1\n",
	}},
	{name: "COMPOSE_FILE in .env", files: map[string]string{
		".env":        "COMPOSE_FILE=base.yml:extra.yml\n",
		"base.yml":    "services:\n  api:\n    image: alpine\n",
		"extra.yml":   "services:\n  api:\n    volumes: [\"./extra:/extra:ro\"]\n",
		"compose.yml": "services:\n  other:\n    image: alpine\n    volumes: [\"./not-this:/x\"]\n",
		"extra/a":     "x",
	}},
	{name: "-f in a subfolder: paths are the file's folder's", files: map[string]string{
		"deploy/stack.yml": "services:\n  api:\n    build: ../\n    volumes: [\"./data:/data:ro\"]\n",
		"deploy/data/a":    "x", "Dockerfile": "FROM alpine\n",
	}, opts: bashfacts.ComposeOptions{Files: []string{"deploy/stack.yml"}}},
	{name: "--project-directory", files: map[string]string{
		"infra/compose.yaml": "services:\n  api:\n    image: alpine\n    volumes: [\"./state:/state\"]\n    env_file: [app.env]\n",
		"infra/app.env":      "X=1\n",
	}, opts: bashfacts.ComposeOptions{Directory: "infra"}},
	{name: "found from a subfolder", files: map[string]string{
		"compose.yaml":         "services:\n  api:\n    build:\n      context: ./api\n      dockerfile: build/Dockerfile\n      additional_contexts:\n        shared: ./shared\n    develop:\n      watch:\n        - path: ./api/src\n          action: sync\n          target: /app/src\n",
		"api/build/Dockerfile": "FROM alpine\n", "api/src/a": "x", "shared/a": "x", "sub/dir/x": "x",
	}, cwd: "sub/dir"},
	{name: "a path from .env", files: map[string]string{
		".env":         "DATA=./other\nTAG=1\n",
		"compose.yaml": "services:\n  db:\n    image: postgres:${TAG}\n    volumes: [\"${DATA:-./data}:/var/lib/data:ro\"]\n",
		"other/a":      "x",
	}},
	{name: "the home folder, as ~ and HOME", files: map[string]string{
		"compose.yaml": "services:\n  ci:\n    image: alpine\n    volumes: [\"~/.cache/go:/go:ro\", \"${HOME}/.npmrc:/root/.npmrc:ro\"]\n",
	}},
	{name: "build contexts as a list, a Dockerfile inline", files: map[string]string{
		"compose.yaml": "services:\n  a:\n    build:\n      context: web\n      additional_contexts:\n        - shared=../lib\n        - img=docker-image://alpine\n  b:\n    build:\n      dockerfile_inline: |\n        FROM alpine\n",
		"web/a":        "x",
	}},
	{name: "an include, with its own .env", files: map[string]string{
		"compose.yaml":     "include:\n  - sub/compose.yaml\nservices:\n  api:\n    image: alpine\n    volumes: [\"./a:/a:ro\"]\n",
		"sub/compose.yaml": "services:\n  db:\n    image: postgres\n    volumes: [\"${SUBDATA}:/d:ro\"]\n    env_file: [db.env]\n",
		"sub/.env":         "SUBDATA=./data\n", "sub/db.env": "X=1\n", "sub/data/x": "x", "a/x": "x",
	}},
	{name: "an include with a project directory and environment file", files: map[string]string{
		"compose.yaml":    "include:\n  - path: [infra/base.yml, infra/extra.yml]\n    project_directory: infra\n    env_file: infra/vars.env\n",
		"infra/base.yml":  "services:\n  x:\n    image: alpine\n    volumes: [\"${CONF}:/c:ro\"]\n",
		"infra/extra.yml": "services:\n  x:\n    env_file: [x.env]\n",
		"infra/vars.env":  "CONF=./conf\n", "infra/x.env": "A=1\n", "infra/conf/c": "x",
	}},
	{name: "a service extends one of another file", files: map[string]string{
		"compose.yaml":    "services:\n  api:\n    extends:\n      file: common/base.yml\n      service: base\n    volumes: [\"./own:/own:ro\"]\n",
		"common/base.yml": "services:\n  base:\n    image: alpine\n    volumes: [\"./shared:/shared:ro\"]\n    env_file: [base.env]\n  other:\n    image: x\n    volumes: [\"./nope:/n\"]\n",
		"common/base.env": "A=1\n", "own/x": "x", "common/shared/x": "x",
	}},
	{name: "a path from the agent's environment", files: map[string]string{
		"compose.yaml": "services:\n  db:\n    image: postgres\n    volumes: [\"${DATA_DIR:-./data}:/data:ro\"]\n",
	}, floor: true},
}

// TestComposeProjectIsWhatComposeLoads loads each fixture with regate and
// with the real docker compose (docker compose config, which resolves a
// project without a daemon), and requires regate to name every bind
// mount, environment file, secret and config file and build context
// compose resolved, and nothing else.
func TestComposeProjectIsWhatComposeLoads(t *testing.T) {
	if exec.Command("docker", "compose", "version").Run() != nil {
		t.Skip("docker compose is not installed")
	}
	for _, fx := range composeFixtures {
		t.Run(fx.name, func(t *testing.T) {
			root, home := t.TempDir(), t.TempDir()
			for name, text := range fx.files {
				p := filepath.Join(root, name)
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			cwd := filepath.Join(root, fx.cwd)
			e := &Env{Cwd: cwd, Home: home}
			use, err := e.composeProject(cwd, fx.opts)
			if err != nil {
				t.Fatal(err)
			}
			if fx.floor {
				if len(use.floors) == 0 {
					t.Fatal("regate read the project as known; want it to ask")
				}
				return
			}
			if len(use.floors) != len(use.writable) {
				t.Fatalf("regate asks: %v", use.floors)
			}
			got := composeSummary(use)
			want := realCompose(t, cwd, home, fx.opts)
			if !slices.Equal(got, want) {
				t.Errorf("regate reads\n  %s\ncompose loads\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
			}
		})
	}
}

// composeSummary lists what regate reads of a project, one line a fact.
func composeSummary(u *composeUse) []string {
	var out []string
	for _, w := range u.writable {
		out = append(out, "rw "+w)
	}
	for _, r := range u.reads {
		out = append(out, "read "+r)
	}
	for _, d := range u.trees {
		out = append(out, "tree "+d)
	}
	for _, c := range u.contexts {
		out = append(out, "context "+c.dir)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// realCompose lists the same of the project docker compose resolves from
// cwd with opts, in an environment with only PATH and HOME.
func realCompose(t *testing.T, cwd, home string, o bashfacts.ComposeOptions) []string {
	args := []string{"compose"}
	for _, f := range o.Files {
		args = append(args, "-f", f)
	}
	if o.Directory != "" {
		args = append(args, "--project-directory", o.Directory)
	}
	cmd := exec.Command("docker", append(args, "config", "--format", "json", "--no-env-resolution")...)
	cmd.Dir, cmd.Env = cwd, []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "DOCKER_CONFIG=" + home + "/.docker"}
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("docker %v: %v\n%s", args, err, out)
	}
	var p struct {
		Services map[string]struct {
			Volumes []struct {
				Type, Source string
				ReadOnly     bool `json:"read_only"`
			}
			EnvFile []struct{ Path string } `json:"env_file"`
			Build   *struct {
				Context            string
				AdditionalContexts map[string]string `json:"additional_contexts"`
			}
			Develop *struct{ Watch []struct{ Path string } }
		}
		Secrets, Configs map[string]struct{ File string }
	}
	if err := json.Unmarshal(out, &p); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	var facts []string
	for _, s := range p.Services {
		for _, v := range s.Volumes {
			switch {
			case v.Type == "bind" && v.ReadOnly:
				facts = append(facts, "tree "+v.Source)
			case v.Type == "bind":
				facts = append(facts, "rw "+v.Source)
			}
		}
		for _, f := range s.EnvFile {
			facts = append(facts, "read "+f.Path)
		}
		if s.Build != nil {
			facts = append(facts, "context "+s.Build.Context)
			for _, c := range s.Build.AdditionalContexts {
				if filepath.IsAbs(c) { // not an image, a service or a URL
					facts = append(facts, "tree "+c)
				}
			}
		}
		if s.Develop != nil {
			for _, w := range s.Develop.Watch {
				facts = append(facts, "tree "+w.Path)
			}
		}
	}
	for _, m := range []map[string]struct{ File string }{p.Secrets, p.Configs} {
		for _, k := range slices.Sorted(maps.Keys(m)) {
			facts = append(facts, "read "+m[k].File)
		}
	}
	slices.Sort(facts)
	return slices.Compact(facts)
}

// FuzzComposeProject loads random compose files: regate never crashes on
// one (testdata/fuzz holds `env_file: [path: null]`, on which docker
// compose itself panics); a panic of compose-go's interpolation would be an
// error, which asks, and no project.
func FuzzComposeProject(f *testing.F) {
	for _, fx := range composeFixtures {
		for name, text := range fx.files {
			if strings.Contains(name, "compose") || strings.HasSuffix(name, ".yml") {
				f.Add(text)
			}
		}
	}
	f.Fuzz(func(t *testing.T, text string) {
		e := &Env{Cwd: "/p", Home: "/h", FS: MapFS{"/p/compose.yaml": "file:" + text, "/p/.env": "file:A=1\n"}}
		use, err := e.composeProject("/p", bashfacts.ComposeOptions{})
		if errors.Is(err, errComposePanic) && use != nil {
			t.Fatalf("a project after %v", err)
		}
		if err == nil && use == nil {
			t.Fatal("no project and no error, with compose.yaml in the folder")
		}
	})
}

// FuzzComposeVolume: regate reads a volume's short syntax as compose-go's
// format.ParseVolume does (the function compose's loader calls): the
// same error or none, and then the same kind, source and read-only flag.
func FuzzComposeVolume(f *testing.F) {
	for _, seed := range []string{"./src:/src:ro", ".:/app", "data:/data", "/data", "~/.ssh:/k:ro,z", "a:/b", `C:\x:/y:rw`,
		`\\pipe:/p`, "${A:-x}:/d", "./a:/b:ro:x", "./a::/b", "x", "./é:/ü:ro", "./a:/b\x00:ro", "./a:/b${c"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, spec string) {
		got, gotErr := parseComposeVolume(spec)
		want, wantErr := format.ParseVolume(spec)
		if (gotErr == nil) != (wantErr == nil) {
			t.Fatalf("%q: regate %v, compose-go %v", spec, gotErr, wantErr)
		}
		if gotErr != nil {
			return
		}
		if got.Type != want.Type || got.ReadOnly != want.ReadOnly || (got.Type == "bind" && got.Source != want.Source) {
			t.Fatalf("%q: regate %+v, compose-go %+v", spec, got, want)
		}
	})
}
