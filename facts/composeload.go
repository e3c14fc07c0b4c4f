package facts

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"path"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/compose-spec/compose-go/v2/dotenv"
	"go.yaml.in/yaml/v3"

	"github.com/regate/regate/bashfacts"
)

// maxComposeBytes bounds each compose or environment file read.
const maxComposeBytes = 1 << 20

// composeUse is what a docker compose project reads and mounts, as compose
// loads it (composeProject): the facts its checks are made of.
type composeUse struct {
	files    []string // the compose files, read
	reads    []string // files whose contents reach a container or the output
	trees    []string // folders (or files) mounted read-only or synced into a container
	contexts []composeContext
	floors   []string // why the project asks whatever the rules say
	writable []string // host paths mounted writable or special (each has a floor)
	dotenv   []string // the environment files the project's variables come from, when read
}

// composeContext is a service's build context: its .dockerignore applies
// when the Dockerfile is the context's own (as for docker build).
type composeContext struct {
	dir        string
	ignoreFile bool
}

// composeProject loads the compose project docker compose run in dir
// would load with the options o, as compose locates and reads it
// (compose-go, the library docker compose itself loads projects with):
// the files of -f, or of COMPOSE_FILE in the environment file, or the
// first of compose.yaml, compose.yml, docker-compose.yml and
// docker-compose.yaml found in the project folder or above it, with its
// override file. nil when there is none: compose then fails and runs
// nothing.
func (e *Env) composeProject(dir string, o bashfacts.ComposeOptions) (*composeUse, error) {
	p, err := e.locateCompose(dir, o)
	if err != nil || len(p.files) == 0 {
		return nil, err
	}
	// What compose knows beside the environment files: the home folder
	// and the working folder of the shell (PWD). Any other variable is
	// the agent's environment, which regate does not see, and so is one
	// the command itself assigns.
	known := maps.Clone(p.env)
	known["HOME"], known["PWD"] = e.Home, dir
	for _, name := range o.Assigned {
		delete(known, name) // the command sets it: not the .env's value
	}
	r := composeReader{use: &composeUse{}, looked: map[string]bool{}, defined: p.defined, seen: map[string]bool{},
		assigned: o.Assigned}
	if err := e.readCompose(&r, p.files, p.wd, known, 0); err != nil {
		return nil, err
	}
	use := r.use
	// The environment files' values reach the containers and compose's
	// output when the compose files interpolate one of their variables,
	// or when a service takes one by name (environment: [KEY]).
	for k := range r.looked {
		if f, ok := r.defined[k]; ok && !slices.Contains(use.dotenv, f) {
			use.dotenv = append(use.dotenv, f)
		}
	}
	sort.Strings(use.dotenv)
	return use, nil
}

// maxComposeIncludes bounds how deep compose files include others.
const maxComposeIncludes = 8

// composeReader is what reading a project's files gathers.
type composeReader struct {
	use     *composeUse
	looked  map[string]bool   // the variables the files interpolate or take by name
	defined map[string]string // a variable's name: the environment file that sets it
	seen    map[string]bool   // the compose files read, against include cycles
	// assigned are the variables the command sets: no environment file
	// gives them their values.
	assigned []string
}

// readCompose reads the compose files of one project (the main one, or
// one a file includes), whose paths are relative to wd and which are
// interpolated with known, into r; and, as compose-go's loader does
// (ApplyInclude), each project their include entries name: its files
// relative to wd, its folder the first file's (or its
// project_directory, relative to wd), its variables those of its
// environment files (the .env of its folder by default) that known does
// not set.
func (e *Env) readCompose(r *composeReader, files []string, wd string, known map[string]string, depth int) error {
	if depth > maxComposeIncludes {
		return fmt.Errorf("compose files include others more than %d deep", maxComposeIncludes)
	}
	for _, f := range files {
		if r.seen[f] {
			return fmt.Errorf("%s is included twice (an include cycle, or one file in two places)", f)
		}
		r.seen[f] = true
		model, err := e.loadComposeFile(r, f, known)
		if err != nil {
			return err
		}
		r.count(model, func(p string) string { return e.absolute(p, wd) })
		if err := e.readExtends(r, model, wd, known, depth); err != nil {
			return err
		}
		for _, inc := range model.Include {
			if err := e.readInclude(r, inc, wd, known, depth); err != nil {
				return err
			}
		}
	}
	return nil
}

// readExtends reads, for each service of model that extends a service of
// another file, that service, as compose-go's loader does: the file
// relative to wd, the service's paths relative to the file's folder, the
// same variables; and what it extends in turn.
func (e *Env) readExtends(r *composeReader, model *composeModel, wd string, known map[string]string, depth int) error {
	for _, group := range []map[string]composeService{model.Services, model.Jobs} {
		for _, name := range slices.Sorted(maps.Keys(group)) {
			ext := group[name].Extends
			if ext == nil || ext.File == "" {
				continue // a service of the same file, which counts already
			}
			if depth >= maxComposeIncludes {
				return fmt.Errorf("compose services extend others more than %d deep", maxComposeIncludes)
			}
			file := ext.File
			if !path.IsAbs(file) {
				file = path.Join(wd, file)
			}
			base, err := e.loadComposeFile(r, file, known)
			if err != nil {
				return err
			}
			s, ok := base.Services[ext.Service]
			if !ok {
				return fmt.Errorf("service %s extends %s, which %s does not hold", name, ext.Service, file)
			}
			dir := path.Dir(file)
			only := &composeModel{Services: map[string]composeService{ext.Service: s}}
			r.count(only, func(p string) string { return e.absolute(p, dir) })
			if err := e.readExtends(r, only, dir, known, depth+1); err != nil {
				return err
			}
		}
	}
	return nil
}

// readInclude reads the project an include entry names.
func (e *Env) readInclude(r *composeReader, inc composeInclude, wd string, known map[string]string, depth int) error {
	if len(inc.Path) == 0 {
		return errors.New("an include names no file")
	}
	in := func(p string) string { // compose-go's local resource loader: no ~
		if path.IsAbs(p) {
			return path.Clean(p)
		}
		return path.Join(wd, p)
	}
	files := make([]string, len(inc.Path))
	for i, f := range inc.Path {
		if strings.Contains(f, "://") || strings.HasPrefix(f, "oci:") || strings.HasPrefix(f, "git@") {
			return errors.New("it includes " + f + ", a remote file regate does not fetch")
		}
		files[i] = in(f)
	}
	dir := path.Dir(files[0])
	if inc.ProjectDirectory != "" {
		dir = in(inc.ProjectDirectory)
	}
	envFiles := inc.EnvFile
	if len(envFiles) == 0 {
		envFiles = e.dotEnvIn(dir)
	}
	child := maps.Clone(known)
	for _, f := range envFiles {
		if f == "/dev/null" {
			continue
		}
		f = in(f)
		vars, err := e.readEnvFile(f, child)
		if err != nil {
			return err
		}
		for k, v := range vars {
			if _, set := child[k]; !set && !slices.Contains(r.assigned, k) { // the including project's value wins
				child[k], r.defined[k] = v, f
			}
		}
	}
	return e.readCompose(r, files, dir, child, depth+1)
}

// composeLocation is where a project is: its compose files, the folder
// its paths are relative to, and the variables its environment files set
// (env), each with the file that sets it (defined).
type composeLocation struct {
	files        []string
	wd           string
	env, defined map[string]string
}

// locateCompose locates the project compose run in dir with o would load,
// as compose does. No files when there is no project.
func (e *Env) locateCompose(dir string, o bashfacts.ComposeOptions) (composeLocation, error) {
	var files []string
	for _, f := range o.Files {
		if f == "-" {
			return composeLocation{}, errors.New("the compose file is read from standard input")
		}
		files = append(files, e.absolute(f, dir))
	}
	wd := dir
	switch {
	case o.Directory != "":
		wd = e.absolute(o.Directory, dir)
	case len(files) > 0:
		wd = path.Dir(files[0])
	}
	var envFiles []string
	for _, f := range o.EnvFiles {
		envFiles = append(envFiles, e.absolute(f, dir))
	}
	if len(envFiles) == 0 {
		envFiles = e.dotEnvIn(wd)
	}
	env, defined := map[string]string{}, map[string]string{}
	for _, f := range envFiles {
		vars, err := e.readEnvFile(f, env)
		if err != nil {
			return composeLocation{}, err
		}
		for k, v := range vars {
			env[k], defined[k] = v, f
		}
	}
	if len(files) > 0 {
		return composeLocation{files, wd, env, defined}, nil
	}
	if list, ok := env["COMPOSE_FILE"]; ok {
		sep := env["COMPOSE_PATH_SEPARATOR"]
		if sep == "" {
			sep = ":"
		}
		for _, f := range strings.Split(list, sep) {
			files = append(files, e.absolute(f, dir))
		}
	} else {
		files = e.defaultComposeFiles(wd)
	}
	if len(files) > 0 && o.Directory == "" {
		wd = path.Dir(files[0])
	}
	return composeLocation{files, wd, env, defined}, nil
}

// The names compose looks for without -f, in its order, and their
// override files (compose-go's cli.DefaultFileNames and
// DefaultOverrideFileNames, whose package regate does not link: it
// validates with a JSON Schema library whose init every hook call would
// pay).
var (
	composeFileNames     = []string{"compose.yaml", "compose.yml", "docker-compose.yml", "docker-compose.yaml"}
	composeOverrideNames = []string{"compose.override.yml", "compose.override.yaml", "docker-compose.override.yml", "docker-compose.override.yaml"}
)

// defaultComposeFiles are the files compose finds from wd without -f: the
// first default name in the nearest folder that has one, and its
// override file.
func (e *Env) defaultComposeFiles(wd string) []string {
	for d := wd; ; d = path.Dir(d) {
		if f := e.firstRegular(d, composeFileNames); f != "" {
			if o := e.firstRegular(d, composeOverrideNames); o != "" {
				return []string{f, o}
			}
			return []string{f}
		}
		if d == "/" || d == "." {
			return nil
		}
	}
}

// firstRegular is the first of names in dir that exists (compose stats
// them: a link to a file counts).
func (e *Env) firstRegular(dir string, names []string) string {
	for _, n := range names {
		if mode, err := e.lstat(path.Join(dir, n)); err == nil && !mode.IsDir() {
			return path.Join(dir, n)
		}
	}
	return ""
}

// loadComposeFile reads the compose file f into its model, interpolated
// with known: the variables it interpolates are noted in r, and so is why
// regate cannot tell what it names (composeUnknowns).
func (e *Env) loadComposeFile(r *composeReader, f string, known map[string]string) (*composeModel, error) {
	text, err := e.readComposeFile(f)
	if err != nil {
		return nil, err
	}
	if !slices.Contains(r.use.files, f) {
		r.use.files = append(r.use.files, f)
	}
	if why := composeUnknowns(text, known); why != "" {
		r.use.floors = append(r.use.floors, "regate cannot tell what "+f+" reads and mounts: "+why)
	}
	model, err := canonicalCompose(text, func(k string) (string, bool) {
		r.looked[k] = true
		v, ok := known[k]
		return v, ok
	})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", f, err)
	}
	return model, nil
}

// count adds to r what the containers of model read and mount, and the
// variables they take by name (environment: [KEY]).
func (r *composeReader) count(model *composeModel, abs func(string) string) {
	for _, c := range model.containers() {
		for _, k := range c.Environment.unset() {
			r.looked[k] = true
		}
	}
	r.use.add(model, abs)
}

// dotEnvIn is the .env compose reads by default in dir, when there is
// one: compose reads it through a link too, regate reads regular files
// only, so a .env that is not one asks (readComposeFile).
func (e *Env) dotEnvIn(dir string) []string {
	if mode, err := e.lstat(path.Join(dir, ".env")); err == nil && !mode.IsDir() {
		return []string{path.Join(dir, ".env")}
	}
	return nil
}

// readEnvFile reads an environment file's variables as compose does, a
// value able to refer to the variables of env.
func (e *Env) readEnvFile(f string, env map[string]string) (map[string]string, error) {
	text, err := e.readComposeFile(f)
	if err != nil {
		return nil, err
	}
	vars, err := dotenv.ParseWithLookup(bytes.NewReader(text), func(k string) (string, bool) {
		v, ok := env[k]
		return v, ok
	})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", f, err)
	}
	return vars, nil
}

// readComposeFile reads a compose or environment file, a regular file of
// at most maxComposeBytes.
func (e *Env) readComposeFile(name string) ([]byte, error) {
	r, err := e.openRegularFile(name, name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s does not exist", name)
	}
	if err != nil {
		return nil, err
	}
	defer r.Close()
	b, err := io.ReadAll(io.LimitReader(r, maxComposeBytes+1))
	if err == nil && len(b) > maxComposeBytes {
		err = fmt.Errorf("%s is larger than %d bytes", name, maxComposeBytes)
	}
	return b, err
}

// composeVariable finds the variables a compose value interpolates ($$
// is a literal $), as compose's template package reads them.
var composeVariable = regexp.MustCompile(`\$(?:\$|([_a-zA-Z][_a-zA-Z0-9]*)|\{([_a-zA-Z][_a-zA-Z0-9]*))`)

// composeUnknowns says why a compose file cannot be read as compose will
// read it: a path in it interpolates a variable regate does not know,
// which the agent's environment may set. "" when neither.
func composeUnknowns(text []byte, known map[string]string) string {
	var raw struct {
		Services map[string]struct {
			Volumes    any `yaml:"volumes"`
			EnvFile    any `yaml:"env_file"`
			LabelFile  any `yaml:"label_file"`
			Develop    any `yaml:"develop"`
			Build      any `yaml:"build"`
			Devices    any `yaml:"devices"`
			Privileged any `yaml:"privileged"`
		} `yaml:"services"`
		Secrets map[string]struct {
			File any `yaml:"file"`
		} `yaml:"secrets"`
		Configs map[string]struct {
			File any `yaml:"file"`
		} `yaml:"configs"`
		Volumes any `yaml:"volumes"`
	}
	if err := yaml.Unmarshal(text, &raw); err != nil {
		return "" // the loader reports it
	}
	var paths []any
	for _, s := range raw.Services {
		build := s.Build
		if m, ok := s.Build.(map[string]any); ok {
			build = []any{m["context"], m["dockerfile"], m["additional_contexts"], m["ssh"]}
		}
		paths = append(paths, s.Volumes, s.EnvFile, s.LabelFile, s.Develop, build, s.Devices, s.Privileged)
	}
	for _, s := range raw.Secrets {
		paths = append(paths, s.File)
	}
	for _, c := range raw.Configs {
		paths = append(paths, c.File)
	}
	paths = append(paths, raw.Volumes)
	var unknown []string
	walkStrings(paths, func(s string) {
		for _, m := range composeVariable.FindAllStringSubmatch(s, -1) {
			name := m[1] + m[2]
			if _, ok := known[name]; name != "" && !ok && !slices.Contains(unknown, name) {
				unknown = append(unknown, name)
			}
		}
	})
	if len(unknown) > 0 {
		sort.Strings(unknown)
		return "its paths or mounts interpolate " + strings.Join(unknown, ", ") +
			", which the agent's environment may set and regate does not see"
	}
	return ""
}

// walkStrings calls f on every string inside v (YAML decoded to any).
func walkStrings(v any, f func(string)) {
	switch v := v.(type) {
	case string:
		f(v)
	case []any:
		for _, x := range v {
			walkStrings(x, f)
		}
	case map[string]any:
		for _, x := range v {
			walkStrings(x, f)
		}
	}
}
