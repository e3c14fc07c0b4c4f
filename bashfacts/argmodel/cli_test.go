package argmodel_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/regate/regate/bashfacts/argmodel"
)

// The docker and kubectl models against the installed CLIs: their help
// lists every option a command has, and they reject an option they do not
// know before they reach a daemon or a cluster (here there is none).

// cobraUsageError is how a cobra CLI (docker's, kubectl's) rejects a
// command's words.
var cobraUsageError = regexp.MustCompile(`unknown (shorthand )?flag|flag needs an argument|invalid argument|requires (at least|exactly)|accepts (at most|no)|unknown command|required flag`)

// loadModel decodes one model file as written, its subcommands included.
func loadModel(t *testing.T, file string) *argmodel.Program {
	t.Helper()
	return loadModels(t, file)[0]
}

// loadModels are the programs of a model file, as written.
func loadModels(t *testing.T, file string) []*argmodel.Program {
	t.Helper()
	var f struct{ Programs []*argmodel.Program }
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	return f.Programs
}

// compareOptions fails for each option name the CLI lists (want) that the
// model's options lack, and each the model has that the CLI does not.
func compareOptions(t *testing.T, what string, opts []*argmodel.Opt, want map[string]bool) {
	t.Helper()
	got := map[string]bool{}
	for _, o := range opts {
		for _, n := range o.Names {
			got[n] = true
		}
	}
	for n := range want {
		if !got[n] {
			t.Errorf("%s: the CLI has %s, the model does not", what, n)
		}
	}
	for n := range got {
		if !want[n] {
			t.Errorf("%s: the model has %s, the CLI does not", what, n)
		}
	}
}

// helpOptions reads the option names of a CLI's help text, one per line
// that re matches (its submatches are the names).
func helpOptions(text string, re *regexp.Regexp) map[string]bool {
	names := map[string]bool{}
	for _, line := range strings.Split(text, "\n") {
		if m := re.FindStringSubmatch(line); m != nil {
			for _, n := range m[1:] {
				if n != "" {
					names[n] = true
				}
			}
		}
	}
	return names
}

// agreeWithCLI runs each row of remoteCases for program through the
// installed CLI, in env, without a daemon or cluster: a command the model
// understands is one the CLI accepts (it goes on to open the files it
// names or to reach the server, without a usage error), and one with an
// option the model does not know, the CLI rejects. Rows the model floors
// (understood, and asked about) or whose subcommand it leaves out are
// skipped.
func agreeWithCLI(t *testing.T, program string, env ...string) {
	if _, err := exec.LookPath(program); err != nil {
		t.Skip(program + " is not installed")
	}
	for _, c := range remoteCases {
		if c.cmd[0] != program {
			continue
		}
		args := make([]argmodel.Arg, len(c.cmd)-1)
		for i, w := range c.cmd[1:] {
			args[i] = argmodel.Arg{Text: w}
		}
		if program == "docker" && dockerPluginMissing(c.cmd[1:]) != "" {
			continue
		}
		problem := argmodel.Parse(program, args).Problem
		unknown := strings.Contains(problem, ": the option ") && strings.Contains(problem, "is not in regate's model")
		if problem != "" && !unknown {
			continue
		}
		home := t.TempDir()
		cmd := exec.Command(program, c.cmd[1:]...)
		cmd.Env = append(os.Environ(), "HOME="+home)
		for _, e := range env {
			cmd.Env = append(cmd.Env, strings.ReplaceAll(e, "HOME", home))
		}
		cmd.Dir, cmd.Stdin = home, strings.NewReader("")
		cmd.WaitDelay = 10 * time.Second
		out, _ := cmd.CombinedOutput()
		switch rejected := cobraUsageError.Match(out); {
		case unknown && !rejected:
			t.Errorf("%v: the model does not know it (%s), the CLI accepts it:\n%s", c.cmd, problem, out)
		case !unknown && rejected:
			t.Errorf("%v: the model understands it, the CLI rejects it:\n%s", c.cmd, out)
		}
	}
}

// dockerHelpOption is an option line of docker's help: -x, --name TYPE.
var dockerHelpOption = regexp.MustCompile(`^\s+(?:(-\w), )?(--[\w-]+)(?: \w+)?\s`)

// dockerOptions reads the options docker's help lists for a command, or
// those of the section named (Global Options).
func dockerOptions(t *testing.T, section string, args ...string) map[string]bool {
	t.Helper()
	out, err := exec.Command("docker", append(args, "--help")...).Output()
	if err != nil {
		t.Fatalf("docker %v --help: %v", args, err)
	}
	text := string(out)
	if i := strings.Index(text, "\n"+section+"\n"); i >= 0 {
		text = text[i+len(section)+2:]
	}
	if i := strings.Index(text, "\n\n"); i >= 0 {
		text = text[:i]
	}
	names := helpOptions(strings.ReplaceAll(text, "\n", " \n")+" ", dockerHelpOption)
	names["--help"] = true
	return names
}

// dockerPluginMissing names the CLI plugin that serves the docker command
// args (compose, or buildx, which serves docker build, docker image build
// and docker builder as well) when it is not installed: docker's help
// and parser for it are then another program's (the legacy builder's),
// which the model is not held to. "" when it is installed or none is
// needed.
func dockerPluginMissing(args []string) string {
	plugin := ""
	switch {
	case len(args) == 0:
	case args[0] == "compose":
		plugin = "compose"
	case args[0] == "build", args[0] == "buildx", args[0] == "builder", len(args) > 1 && args[0] == "image" && args[1] == "build":
		plugin = "buildx"
	}
	if plugin == "" || pluginInstalled[plugin]() {
		return ""
	}
	return plugin
}

// pluginInstalled tells, once each, whether docker runs a plugin.
var pluginInstalled = map[string]func() bool{
	"compose": sync.OnceValue(func() bool { return exec.Command("docker", "compose", "version").Run() == nil }),
	"buildx":  sync.OnceValue(func() bool { return exec.Command("docker", "buildx", "version").Run() == nil }),
}

// TestDockerModelIsTheCLIs: every command of the docker model knows the
// options the installed docker CLI lists for it, and no other.
func TestDockerModelIsTheCLIs(t *testing.T) {
	if _, err := exec.LookPath("docker"); err != nil {
		t.Skip("docker is not installed")
	}
	var walk func(p *argmodel.Program, path []string)
	walk = func(p *argmodel.Program, path []string) {
		switch {
		case len(path) == 0:
			compareOptions(t, "docker (global)", p.Options, dockerOptions(t, "Global Options:"))
		case dockerPluginMissing(path) != "":
			t.Logf("skipped docker %s: the %s plugin is not installed", strings.Join(path, " "), dockerPluginMissing(path))
			return
		case len(p.Subcommands) == 0:
			t.Run(strings.Join(path, " "), func(t *testing.T) {
				t.Parallel()
				compareOptions(t, "docker "+strings.Join(path, " "), p.Options, dockerOptions(t, "Options:", path...))
			})
		case len(p.Options) > 1:
			// A group with options of its own (docker compose -f …).
			compareOptions(t, "docker "+strings.Join(path, " "), p.Options, dockerOptions(t, "Options:", path...))
		}
		for _, s := range p.Subcommands {
			for _, name := range s.Names {
				walk(s, append(slices.Clone(path), name))
			}
		}
	}
	walk(loadModel(t, "models/docker.json"), nil)
}

// TestStandaloneComposeIsThePlugin: docker-compose, compose installed as
// a program of its own, has the model of docker compose.
func TestStandaloneComposeIsThePlugin(t *testing.T) {
	programs := loadModels(t, "models/docker.json")
	var plugin *argmodel.Program
	for _, s := range programs[0].Subcommands {
		if slices.Contains(s.Names, "compose") {
			plugin = s
		}
	}
	if len(programs) != 2 || plugin == nil || !slices.Equal(programs[1].Names, []string{"docker-compose"}) {
		t.Fatal("models/docker.json holds docker, with compose, and docker-compose")
	}
	standalone := *programs[1]
	standalone.Names = plugin.Names
	got, _ := json.Marshal(standalone)
	want, _ := json.Marshal(plugin)
	if string(got) != string(want) {
		t.Error("docker-compose's model is not docker compose's")
	}
}

// TestDockerModelAgreesWithTheCLI: see agreeWithCLI.
func TestDockerModelAgreesWithTheCLI(t *testing.T) {
	agreeWithCLI(t, "docker", "DOCKER_HOST=unix:///nonexistent/regate-test.sock", "DOCKER_CONFIG=HOME/.docker")
}

// kubectlHelpOption is an option line of kubectl's help: -x, --name=DEFAULT:.
var kubectlHelpOption = regexp.MustCompile(`^    (?:(-\w), )?(--[\w-]+)=.*:$`)

// kubectlOptions reads the options kubectl's help lists for a command
// (the global ones are kubectl options').
func kubectlOptions(t *testing.T, args ...string) map[string]bool {
	t.Helper()
	cmd := exec.Command("kubectl", append(args, "--help")...)
	if len(args) == 0 {
		cmd = exec.Command("kubectl", "options")
	}
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("kubectl %v --help: %v", args, err)
	}
	names := helpOptions(string(out), kubectlHelpOption)
	if len(args) > 0 {
		names["-h"], names["--help"] = true, true
	}
	return names
}

// TestKubectlModelIsTheCLIs: every command of the kubectl model knows the
// options the installed kubectl lists for it, and its global options are
// those kubectl options lists.
func TestKubectlModelIsTheCLIs(t *testing.T) {
	if _, err := exec.LookPath("kubectl"); err != nil {
		t.Skip("kubectl is not installed")
	}
	root := loadModel(t, "models/kubectl.json")
	compareOptions(t, "kubectl (global)", root.Persistent, kubectlOptions(t))
	var walk func(p *argmodel.Program, path []string)
	walk = func(p *argmodel.Program, path []string) {
		for _, s := range p.Subcommands {
			sub := append(slices.Clone(path), s.Names[0])
			t.Run(strings.Join(sub, " "), func(t *testing.T) {
				t.Parallel() // each help is a process of a large binary
				compareOptions(t, "kubectl "+strings.Join(sub, " "), s.Options, kubectlOptions(t, sub...))
			})
			walk(s, sub)
		}
	}
	walk(root, nil)
}

// TestKubectlModelAgreesWithTheCLI: see agreeWithCLI.
func TestKubectlModelAgreesWithTheCLI(t *testing.T) {
	agreeWithCLI(t, "kubectl", "KUBECONFIG=HOME/none")
}
