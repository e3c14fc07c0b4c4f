package runtime_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/regate/regate/facts"
	"github.com/regate/regate/runtime"
)

// TestComposeProjects: docker compose up, run, build and config load the
// project, and strict mode decides what its files read and mount
// (facts/compose.go) as it decides the same options of docker run and
// docker build, under a policy that lets docker run with secrets denied.
// Commands that only act on running containers (ps, logs, down, exec) read
// nothing of the project's.
func TestComposeProjects(t *testing.T) {
	fsys := facts.MapFS{
		"/home/u/.ssh/id_rsa": "file",
		// A project: a read-only mount of src, a build context whose
		// .dockerignore leaves .env out, a .env nothing interpolates.
		"/home/u/app/compose.yaml":  "file:services:\n  api:\n    build: .\n    volumes:\n      - ./src:/src:ro\n  db:\n    image: postgres:16\n    ports: [\"${PG_PORT:-5432}:5432\"]\n",
		"/home/u/app/.env":          "file:COMPOSE_PROJECT_NAME=app\n",
		"/home/u/app/.dockerignore": "file:.env\n",
		"/home/u/app/Dockerfile":    "file:FROM alpine\n",
		"/home/u/app/src/main.go":   "file",
		// Interpolates a variable .env sets: its values reach the
		// containers.
		"/home/u/interp/docker-compose.yml": "file:services:\n  db:\n    image: postgres\n    environment:\n      POSTGRES_PASSWORD: ${DB_PASSWORD}\n",
		"/home/u/interp/.env":               "file:DB_PASSWORD=s3cret\n",
		// An env_file and a writable mount.
		"/home/u/envfile/compose.yml":   "file:services:\n  web:\n    image: nginx\n    env_file: .env\n",
		"/home/u/envfile/.env":          "file:X=1\n",
		"/home/u/rw/compose.yaml":       "file:services:\n  web:\n    image: nginx\n    volumes: [\".:/app\"]\n",
		"/home/u/keys/compose.yaml":     "file:services:\n  web:\n    image: nginx\n    volumes: [\"~/.ssh:/k:ro\"]\n",
		"/home/u/priv/compose.yaml":     "file:services:\n  web:\n    image: nginx\n    privileged: true\n",
		"/home/u/unknown/compose.yaml":  "file:services:\n  web:\n    image: nginx\n    volumes: [\"${DATA_DIR}:/data:ro\"]\n",
		"/home/u/home/compose.yaml":     "file:services:\n  web:\n    image: nginx\n    volumes: [\"${HOME}/.ssh:/k:ro\"]\n",
		"/home/u/secret/compose.yaml":   "file:services:\n  web:\n    image: nginx\n    secrets: [k]\nsecrets:\n  k:\n    file: ~/.ssh/id_rsa\n",
		"/home/u/include/compose.yaml":  "file:include:\n  - other.yaml\nservices:\n  web:\n    image: nginx\n",
		"/home/u/provider/compose.yaml": "file:services:\n  db:\n    provider:\n      type: awesomecloud\n",
		// A .env that links elsewhere: compose reads what it points at.
		"/home/u/link/compose.yaml": "file:services:\n  db:\n    image: postgres\n    environment:\n      PW: ${PW}\n",
		"/home/u/link/.env":         "link:/home/u/.ssh/id_rsa",
		"/home/u/empty/README":      "file",
		// A service extends one of another file, which mounts ~/.ssh.
		"/home/u/ext/compose.yaml": "file:services:\n  api:\n    extends:\n      file: base.yml\n      service: b\n",
		"/home/u/ext/base.yml":     "file:services:\n  b:\n    image: x\n    volumes: [\"~/.ssh:/k:ro\"]\n",
		// ... or whose mount interpolates a variable of the agent's
		// environment.
		"/home/u/ext2/compose.yaml": "file:services:\n  api:\n    extends:\n      file: base.yml\n      service: b\n",
		"/home/u/ext2/base.yml":     "file:services:\n  b:\n    image: x\n    volumes: [\"${DATA_DIR:-./data}:/d:ro\"]\n",
		// An included project mounts ~/.ssh.
		"/home/u/inc/compose.yaml":     "file:include:\n  - sub/compose.yaml\nservices:\n  web:\n    image: nginx\n",
		"/home/u/inc/sub/compose.yaml": "file:services:\n  w:\n    image: x\n    volumes: [\"~/.ssh:/k:ro\"]\n",
		// A mount from an environment file, which the environment
		// overrides.
		"/home/u/envdata/compose.yaml": "file:services:\n  db:\n    image: postgres\n    volumes: [\"${DATA}:/d:ro\"]\n",
		"/home/u/envdata/vars":         "file:DATA=./data\n",
		"/home/u/envdata/data/x":       "file",
		"/home/u/envdata/keys.yml":     "file:services:\n  db:\n    image: postgres\n    volumes: [\"~/.ssh:/k:ro\"]\n",
		// Found from a subfolder, as compose finds it.
		"/home/u/app/src/pkg/x.go": "file",
	}
	const rules = `"permission": {"*": "ask", "read": "allow",
		"bash": {"*": "ask", "cd *": "allow", "docker *": "allow", "docker-compose *": "allow"},
		"path": {"*": "allow", "*.env": "deny", "~/.ssh/*": "deny"},
		"write": {"*": "allow", "*.lock": "deny"}}`
	strict := newEngine(t, `{"strict": true, `+rules+`}`, runtime.WithFS(fsys), runtime.WithCwd("/home/u/app"))
	plain := newEngine(t, `{`+rules+`}`, runtime.WithFS(fsys), runtime.WithCwd("/home/u/app"))
	for _, c := range []struct{ cmd, strict, plain string }{
		{"docker compose up -d", "allow", "allow"},
		{"docker compose up --build api", "allow", "allow"},
		{"docker compose build", "allow", "allow"},
		{"docker compose config", "allow", "allow"},
		{"docker compose ps", "allow", "allow"},
		{"docker compose logs -f --tail=50 api", "allow", "allow"},
		{"docker compose exec db psql -U postgres", "allow", "allow"},
		{"docker compose down -v", "allow", "allow"},
		{"cd src/pkg && docker compose up -d", "allow", "allow"}, // the project above
		{"docker compose run --rm -v ./src:/src:ro api go test ./...", "allow", "allow"},
		{"docker compose run --rm -v .:/src:ro api ls", "ask", "allow"},
		{"docker compose --env-file .env up", "deny", "deny"},
		{"docker compose config --environment", "ask", "allow"},
		{"docker compose cp api:/app/x.lock ./x.lock", "deny", "allow"},
		{"docker compose -f - up", "ask", "allow"},
		{`docker compose -f "$F" up`, "ask", "allow"},
		{"cd /home/u/interp && docker compose up -d", "deny", "allow"},
		{"cd /home/u/interp && docker compose ps", "allow", "allow"},
		{"cd /home/u/envfile && docker compose up -d", "deny", "allow"},
		{"cd /home/u/envfile && docker compose logs web", "allow", "allow"},
		{"cd /home/u/rw && docker compose up -d", "ask", "allow"},
		{"cd /home/u/keys && docker compose up -d", "deny", "allow"},
		{"cd /home/u/priv && docker compose up -d", "ask", "allow"},
		{"cd /home/u/unknown && docker compose up -d", "ask", "allow"},
		{"cd /home/u/home && docker compose up -d", "deny", "allow"},
		{"cd /home/u/secret && docker compose up -d", "deny", "allow"},
		{"cd /home/u/include && docker compose up -d", "ask", "allow"}, // the included file does not exist
		{"cd /home/u/inc && docker compose up -d", "deny", "allow"},
		{"cd /home/u/inc && docker compose ps", "allow", "allow"},
		{"cd /home/u/ext && docker compose up -d", "deny", "allow"},
		{"cd /home/u/ext2 && docker compose up -d", "ask", "allow"},
		{"cd /home/u/provider && docker compose up -d", "ask", "allow"},
		{"cd /home/u/link && docker compose up -d", "ask", "allow"},
		{"docker compose -f /home/u/keys/compose.yaml up -d", "deny", "allow"},
		{"docker compose --project-directory /home/u/envfile up -d", "deny", "allow"},
		{"cd /home/u/empty && docker compose up -d", "allow", "allow"}, // no project: compose fails
		// The environment compose runs in is the command's: a variable it
		// sets is not the .env's value, and COMPOSE_FILE is -f.
		{"cd /home/u/envdata && docker compose --env-file vars up -d", "allow", "allow"},
		{"cd /home/u/envdata && DATA=/home/u/.ssh docker compose --env-file vars up -d", "ask", "allow"},
		{"cd /home/u/envdata && export DATA=/home/u/.ssh; docker compose --env-file vars up -d", "ask", "ask"},
		{"cd /home/u/envdata && COMPOSE_FILE=keys.yml docker compose --env-file vars up -d", "ask", "allow"},
		{"cd /home/u/envdata && export COMPOSE_FILE=keys.yml && docker compose --env-file vars up -d", "ask", "ask"},
		{"cd /home/u/envdata && docker compose -f keys.yml --env-file vars up -d", "deny", "allow"},
		// docker-compose, the same program installed standalone.
		{"cd /home/u/keys && docker-compose up -d", "deny", "allow"},
		{"cd /home/u/keys && docker-compose ps", "allow", "allow"},
		{"docker-compose -f /home/u/rw/compose.yaml up", "ask", "allow"},
	} {
		for engine, want := range map[*runtime.Engine]string{strict: c.strict, plain: c.plain} {
			d, err := engine.Decide(context.Background(), facts.Call{Tool: "bash", Input: map[string]any{"command": c.cmd}})
			if err != nil || string(d.Action) != want {
				t.Errorf("%s (strict %v): %s (%s, %s, %v); want %s", c.cmd, engine == strict, d.Action, d.Matched, d.Reason, err, want)
			}
		}
	}
}

// BenchmarkComposeUp decides docker compose up -d in strict mode, uncached,
// in a project on disk: three services, a build context of 200 files with
// a .dockerignore, a read-only mount, an env_file, a .env the compose file
// interpolates. Facts load the project on every call (what a hook process
// does once). docker build and docker run of the same context and mount
// are the comparison: the difference is compose's.
func BenchmarkComposeUp(b *testing.B) {
	dir := b.TempDir()
	files := map[string]string{
		"compose.yaml": "services:\n  api:\n    build: .\n    volumes: [\"./src:/src:ro\"]\n    env_file: [api.env]\n" +
			"  db:\n    image: postgres:${PG:-16}\n    environment:\n      POSTGRES_DB: ${DB}\n" +
			"  cache:\n    image: redis\n",
		".env": "DB=app\n", "api.env": "X=1\n", ".dockerignore": ".env\n", "Dockerfile": "FROM alpine\n",
	}
	for i := range 200 {
		files[fmt.Sprintf("src/p%d/f%d.go", i/20, i)] = "package p\n"
	}
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	e := newEngine(b, `{"strict": true, "permission": {"*": "ask", "read": "allow",
		"bash": {"*": "ask", "docker *": "allow"}, "path": {"*": "allow", "*.pem": "deny"}}}`,
		runtime.WithFS(facts.OSFS{}), runtime.WithCwd(dir), runtime.WithCacheSize(0))
	for _, cmd := range []string{"docker compose up -d", "docker build . && docker run -v ./src:/src:ro --env-file api.env app"} {
		b.Run(cmd, func(b *testing.B) {
			call := facts.Call{Tool: "bash", Input: map[string]any{"command": cmd}}
			b.ReportAllocs()
			for b.Loop() {
				if d, err := e.Decide(context.Background(), call); err != nil || d.Action != "allow" {
					b.Fatal(d, err)
				}
			}
		})
	}
}
