package facts

import (
	"maps"
	"path"
	"slices"
	"strings"

	"github.com/regate/regate/bashfacts"
	"github.com/regate/regate/bashfacts/argmodel"
)

// Compose projects (role "compose", argmodel.Compose): docker compose up,
// create, run, build, watch, config and publish load the project and act
// on what its files name, which the command line does not show. Strict
// mode loads the project as compose does (composeload.go) and decides
// what it reads and mounts as the docker model decides the same options
// of docker run and docker build:
//
//   - the compose files, and the environment files whose values the
//     project uses (a service's env_file and label_file; the project's
//     .env or --env-file when the files interpolate one of its variables
//     or a service takes one by name), the secret and config files: reads;
//   - a read-only bind mount, and a path develop.watch syncs into a
//     container: a folder read;
//   - a writable bind mount, a host device, privileges, the host's
//     processes, a volume whose driver mounts a host folder, a build's SSH
//     agent or keys: ask, as for docker run; so does a provider service,
//     which compose runs as a program of this machine;
//   - a service's build context: read as docker build reads it, without
//     what its .dockerignore leaves out (the whole folder when the
//     Dockerfile is named or inline).
//
// Every service counts, whichever profiles or services the command
// names, and so do those of the projects a file includes and the
// services of other files a service extends: the read can only ask more.
// What regate cannot read as compose would asks: a project folder after a
// cd regate cannot follow, an option bash expands, a compose file read
// from standard input, a remote include, a path that interpolates a
// variable of the agent's environment, a file that does not load.

// composeChecks are the strict-only checks of a compose project token t.
func (e *Env) composeChecks(t bashfacts.Token, base string) []Check {
	ask := func(reason string) Check {
		return Check{Surface: "path", Value: t.Value, Forms: [][]string{{path.Clean(t.Value)}}, At: t.Pos.String(),
			StrictOnly: true, Strict: reason}
	}
	floor := func(why string) []Check {
		return []Check{ask("strict mode cannot tell what the compose project reads and mounts: " + why)}
	}
	dir, known := e.effectiveDir(t.Dir, base)
	switch {
	case !known:
		return floor("a cd to an unknown place came before it")
	case t.Compose == nil:
		return floor("it is read without compose's options")
	case t.Compose.Unknown != "":
		return floor(t.Compose.Unknown)
	}
	use, err := e.composeProject(dir, *t.Compose)
	if err != nil {
		return floor(err.Error())
	}
	if use == nil {
		return nil // no compose file: compose fails and runs nothing
	}
	var out []Check
	for _, why := range use.floors {
		out = append(out, ask("in the compose project, "+why))
	}
	at := func(p, role string) bashfacts.Token {
		u := t
		u.Value, u.Role, u.Compose, u.Bare, u.Pattern, u.Glob = p, role, nil, false, false, ""
		u.Dir = bashfacts.Dir{}
		return u
	}
	for _, f := range slices.Concat(use.files, use.dotenv, use.reads) {
		out = e.appendTokenChecks(out, at(f, argmodel.Read), dir)
	}
	for _, d := range use.trees {
		out = e.appendTokenChecks(out, at(d, argmodel.Tree), dir)
	}
	for _, c := range use.contexts {
		role := argmodel.Tree
		if c.ignoreFile {
			role = argmodel.TreeContext
		}
		out = e.appendTokenChecks(out, at(c.dir, role), dir)
	}
	for i := range out {
		out[i].StrictOnly = true
	}
	return out
}

// Reasons a service asks for, whatever its mounts (as docker run's
// options do).
const (
	composePrivileges = "gives the container privileges that reach past its mounts"
	composeDevice     = "gives the container a device of the host"
)

// add adds what the containers of model read and mount to u; abs makes
// a path of the project absolute, as compose resolves it (against the
// project folder, ~ the home folder).
func (u *composeUse) add(model *composeModel, abs func(string) string) {
	for _, group := range []map[string]composeService{model.Services, model.Jobs} {
		for _, n := range slices.Sorted(maps.Keys(group)) {
			s := group[n]
			floor := func(why string) { u.floors = append(u.floors, "service "+n+" "+why) }
			for _, c := range append([]composeContainer{s.composeContainer}, s.PreStart...) {
				u.addContainer(c, abs, floor)
			}
			if s.Develop != nil {
				for _, w := range s.Develop.Watch {
					u.trees = append(u.trees, abs(w.Path))
				}
			}
			if s.Build != nil {
				u.addBuild(s.Build, abs, floor)
			}
			if s.Provider != nil {
				floor("runs the provider " + s.Provider.Type + ", a program of this machine, in place of a container")
			}
		}
	}
	for _, name := range slices.Sorted(maps.Keys(model.Volumes)) {
		opts := model.Volumes[name].DriverOpts
		if strings.Contains(opts["o"], "bind") && opts["device"] != "" {
			u.floors = append(u.floors, "volume "+name+" mounts the host folder "+opts["device"]+" through its driver, writable")
		}
	}
	for _, refs := range []map[string]composeFileRef{model.Secrets, model.Configs} {
		for _, name := range slices.Sorted(maps.Keys(refs)) {
			if f := refs[name].File; f != "" {
				u.reads = append(u.reads, abs(f))
			}
		}
	}
}

// addContainer adds what one container reads and mounts.
func (u *composeUse) addContainer(c composeContainer, abs func(string) string, floor func(string)) {
	for _, v := range c.Volumes {
		if v.Type != "bind" {
			continue
		}
		src := abs(v.Source)
		if why := argmodel.MountProblem(src, v.ReadOnly); why != "" {
			floor(why)
			u.writable = append(u.writable, src)
			continue
		}
		u.trees = append(u.trees, src)
	}
	for _, f := range c.EnvFile {
		u.reads = append(u.reads, abs(f))
	}
	for _, f := range c.LabelFile {
		u.reads = append(u.reads, abs(f))
	}
	switch {
	case c.Privileged || len(c.CapAdd) > 0 || len(c.SecurityOpt) > 0:
		floor(composePrivileges)
	case len(c.Devices) > 0 || len(c.DeviceCgroupRules) > 0:
		floor(composeDevice)
	case c.Pid == "host" || c.UsernsMode == "host" || c.Cgroup == "host":
		floor("shares the host's processes or namespaces, whose files the container can then reach")
	}
}

// addBuild adds what a service's build reads: its context (and the other
// contexts it names that are folders of this machine).
func (u *composeUse) addBuild(b *composeBuild, abs func(string) string, floor func(string)) {
	if b.SSH != nil {
		floor("gives the build an SSH agent or keys of this machine")
	}
	context := b.Context
	if context == "" {
		context = "."
	}
	if local(context) {
		u.contexts = append(u.contexts, composeContext{dir: abs(context),
			ignoreFile: b.DockerfileInline == "" && (b.Dockerfile == "" || b.Dockerfile == "Dockerfile")})
	}
	if strings.HasPrefix(b.Dockerfile, "/") || strings.HasPrefix(b.Dockerfile, "~") {
		u.reads = append(u.reads, abs(b.Dockerfile)) // a Dockerfile outside the context
	}
	for _, name := range slices.Sorted(maps.Keys(b.AdditionalContexts)) {
		if c := b.AdditionalContexts[name]; local(c) {
			u.trees = append(u.trees, abs(c))
		}
	}
}

// local reports a build context that is a folder of this machine, not a
// URL (https://, git@host:repo), an image (docker-image://) or a service
// (service:NAME), as compose tells them apart.
func local(c string) bool {
	return c != "" && !strings.Contains(c, "://") && !strings.HasPrefix(c, "service:") && !strings.HasPrefix(c, "git@")
}
