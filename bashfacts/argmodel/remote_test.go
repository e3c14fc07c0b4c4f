package argmodel_test

import (
	"testing"

	"github.com/regate/regate/bashfacts/argmodel"
)

// remoteCases: the models of docker, kubectl, ssh, scp and wget (the notation of
// parseCases). A host path mounted into a container is a folder read
// recursively when it is mounted read-only, and asks when the container
// may write there; a path on another host (HOST:PATH, CONTAINER:PATH) is
// a value, not a local path. What each row claims the real program does is
// run against it in realremote_test.go where the program is installed.
var remoteCases = []parseCase{
	// docker: global options before the subcommand; pflag's exact long
	// names, bundled short ones, -p=80 as -p 80.
	{[]string{"docker", "ps", "-a"}, "sub -", ""},
	{[]string{"docker", "--context", "prod", "ps", "--format", "{{.Names}}"}, "- value sub - value", ""},
	{[]string{"docker", "images", "-q"}, "sub -", ""},
	{[]string{"docker", "logs", "-f", "--tail", "50", "web"}, "sub - - value value", ""},
	{[]string{"docker", "container", "ls", "-a"}, "sub sub -", ""},
	{[]string{"docker", "image", "ls"}, "sub sub", ""},
	{[]string{"docker", "run", "--rm", "-it", "alpine", "sh", "-c", "cat /etc/os-release"}, "sub - - value value value value", ""},
	{[]string{"docker", "run", "-p=8080:80", "-d", "nginx"}, "sub value - value", ""},
	{[]string{"docker", "run", "--rm", "-v", "myvolume:/data", "alpine"}, "sub - - value value", ""},
	{[]string{"docker", "run", "--rm", "-v", "/data", "alpine"}, "sub - - value value", ""},
	{[]string{"docker", "run", "--rm", "-v", "./src:/src:ro", "alpine"}, "sub - - tree value", ""},
	{[]string{"docker", "run", "--rm", "--volume=~/.ssh:/k:ro,z", "alpine"}, "sub - tree value", ""},
	{[]string{"docker", "run", "--rm", "-v", ".:/src", "alpine"}, "sub - - tree value", "docker run -v gives the container . to write"},
	{[]string{"docker", "run", "--mount", "type=bind,source=/home/u/.ssh,target=/k,readonly", "alpine"}, "sub - tree value", ""},
	{[]string{"docker", "run", "--mount", "type=bind,src=.,dst=/src", "alpine"}, "sub - tree value", "docker run --mount gives the container . to write"},
	{[]string{"docker", "run", "--mount", "type=volume,source=data,target=/d", "alpine"}, "sub - value value", ""},
	{[]string{"docker", "run", "--mount", "source=/etc,target=/x", "alpine"}, "sub - value value", ""}, // a volume named /etc: docker refuses it
	{[]string{"docker", "run", "-v", "/var/run/docker.sock:/var/run/docker.sock:ro", "docker"}, "sub - tree value", "docker run -v gives the container /var/run/docker.sock"},
	{[]string{"docker", "run", "--privileged", "alpine"}, "sub - value", "docker run --privileged gives the container privileges"},
	{[]string{"docker", "run", "--pid=host", "alpine"}, "sub value value", "docker run --pid shares the host's processes"},
	{[]string{"docker", "run", "--env-file", ".env", "alpine"}, "sub - read value", ""},
	{[]string{"docker", "run", "alpine", "--frob"}, "sub value value", ""}, // options end at the image
	{[]string{"docker", "run", "--frob", "alpine"}, "", "docker run: the option --frob is not"},
	{[]string{"docker", "run", "--rm=true", "alpine"}, "", "docker run: the option --rm takes no value"},
	{[]string{"docker", "exec", "-it", "web", "cat", ".env"}, "sub - value value value", ""},
	{[]string{"docker", "build", "-t", "app", "."}, "sub - value tree-context", ""},
	{[]string{"docker", "build", "-f", "docker/Dockerfile", "--iidfile", "id.txt", "."}, "sub - read - write tree", ""},
	{[]string{"docker", "build", "https://github.com/a/b.git#main"}, "sub value", ""},
	{[]string{"docker", "build", "-"}, "sub tree-context", ""},
	{[]string{"docker", "cp", "web:/app/log.txt", "./log.txt"}, "sub value write", ""},
	{[]string{"docker", "cp", "./src", "web:/app"}, "sub tree value", ""},
	{[]string{"docker", "cp", "/home/u/.ssh:x", "web:/k"}, "sub tree value", ""}, // absolute: a local path
	{[]string{"docker", "save", "-o", "app.tar", "app"}, "sub - write value", ""},
	{[]string{"docker", "load", "-i", "app.tar"}, "sub - read", ""},
	{[]string{"docker", "--config", "/tmp/x", "ps"}, "- list sub", "docker --config reads the client's configuration"},
	// BuildKit's options (docker build is docker buildx build with buildx).
	{[]string{"docker", "build", "--secret", "id=npm,src=.npmrc", "."}, "sub - read tree-context", ""},
	{[]string{"docker", "build", "--secret=id=npm,src=.npmrc", "."}, "sub read tree-context", ""},
	{[]string{"docker", "build", "--secret", "id=token,env=GH_TOKEN", "."}, "sub - value tree-context", ""},
	{[]string{"docker", "build", "--secret", "id=aws", "."}, "sub - read tree-context", ""},
	{[]string{"docker", "build", "-o", "type=tar,dest=out.tar", "."}, "sub - write tree-context", ""},
	{[]string{"docker", "build", "-o", "-", "."}, "sub - value tree-context", ""},
	{[]string{"docker", "build", "--output", "type=image,push=true", "."}, "sub - value tree-context", ""},
	{[]string{"docker", "build", "-o", "out", "."}, "", "docker build -o writes the build's files into"},
	{[]string{"docker", "build", "-o", "type=local,dest=out", "."}, "", "docker build -o writes the build's files into"},
	{[]string{"docker", "build", "--cache-from", "type=local,src=cache", "."}, "sub - tree tree-context", ""},
	{[]string{"docker", "build", "--cache-from", "user/app:cache", "."}, "sub - value tree-context", ""},
	{[]string{"docker", "build", "--cache-to", "type=local,dest=cache", "."}, "", "docker build --cache-to writes a build cache"},
	{[]string{"docker", "build", "--build-context", "shared=../lib", "."}, "sub - tree tree-context", ""},
	{[]string{"docker", "build", "--build-context", "base=docker-image://alpine", "."}, "sub - value tree-context", ""},
	{[]string{"docker", "build", "--ssh", "default", "."}, "", "docker build --ssh gives the build an SSH agent"},
	{[]string{"docker", "build", "--allow", "network.host", "."}, "", "docker build --allow gives the build privileged"},
	{[]string{"docker", "build", "--progress=plain", "--load", "-t", "app", "."}, "sub value - - value tree-context", ""},
	{[]string{"docker", "buildx", "build", "--platform", "linux/amd64,linux/arm64", "--push", "-t", "x/app", "."}, "sub sub - value - - value tree-context", ""},
	{[]string{"docker", "buildx", "b", "-f", "Dockerfile.dev", "."}, "sub sub - read tree", ""},
	{[]string{"docker", "buildx", "ls"}, "sub sub", ""},
	{[]string{"docker", "buildx", "bake"}, "", "docker buildx bake builds what a bake file names"},
	// docker compose: its own options stand before its subcommand.
	{[]string{"docker", "compose", "up", "-d"}, "sub sub -", ""},
	{[]string{"docker", "compose", "-f", "dev.yml", "--env-file", ".env.dev", "up", "--build", "api"}, "sub - read - read sub - value", ""},
	{[]string{"docker", "compose", "--project-directory", "deploy", "ps"}, "sub - stat sub", ""},
	{[]string{"docker", "compose", "logs", "-f", "--tail=50", "api"}, "sub sub - value value", ""},
	{[]string{"docker", "compose", "exec", "db", "psql", "-U", "app"}, "sub sub value value value value", ""},
	{[]string{"docker", "compose", "run", "--rm", "-v", "./data:/data:ro", "api", "ls"}, "sub sub - - tree value value", ""},
	{[]string{"docker", "compose", "cp", "api:/app/out.txt", "./out.txt"}, "sub sub value write", ""},
	{[]string{"docker", "compose", "config", "-o", "resolved.yml"}, "sub sub - write", ""},
	{[]string{"docker", "compose", "config", "--environment"}, "", "docker compose config --environment prints every variable"},
	{[]string{"docker", "compose", "ps", "-f", "x.yml"}, "", "docker compose ps: the option -f (in -f) is not"},
	{[]string{"docker", "compose", "bridge", "convert"}, "", "docker compose: the subcommand bridge is not"},
	{[]string{"docker-compose", "-f", "dev.yml", "up", "-d"}, "- read sub -", ""},
	{[]string{"docker-compose", "logs", "--tail=10", "api"}, "sub value value", ""},
	{[]string{"docker", "plugin", "install", "x"}, "", "docker: the subcommand plugin is not"},
	// kubectl: its global flags stand anywhere (cobra's persistent flags).
	{[]string{"kubectl", "get", "pods", "-n", "web", "-o", "wide"}, "sub value - value - value", ""},
	{[]string{"kubectl", "-n", "web", "get", "pods"}, "- value sub value", ""},
	{[]string{"kubectl", "get", "pods", "--context=prod", "-A"}, "sub value value -", ""},
	{[]string{"kubectl", "logs", "-f", "deploy/web", "--tail=100"}, "sub - value value", ""},
	{[]string{"kubectl", "describe", "pod", "web-1"}, "sub value value", ""},
	{[]string{"kubectl", "apply", "-f", "deploy.yaml"}, "sub - tree", ""},
	{[]string{"kubectl", "apply", "-f", "https://example.com/x.yaml"}, "sub - value", ""},
	{[]string{"kubectl", "apply", "-k", "overlays/prod"}, "sub - tree", ""},
	{[]string{"kubectl", "delete", "-f", "k8s/", "-R"}, "sub - tree -", ""},
	{[]string{"kubectl", "exec", "-it", "web-1", "--", "sh"}, "sub - value - value", ""},
	{[]string{"kubectl", "cp", "web-1:/tmp/x", "./x"}, "sub value write", ""},
	{[]string{"kubectl", "cp", "./.env", "web-1:/tmp/x"}, "sub tree value", ""},
	{[]string{"kubectl", "rollout", "status", "deploy/web"}, "sub sub value", ""},
	{[]string{"kubectl", "config", "get-contexts"}, "sub sub", ""},
	{[]string{"kubectl", "top", "pods", "--containers"}, "sub sub -", ""}, // an alias of top pod
	{[]string{"kubectl", "create", "deploy", "web", "--image=nginx"}, "sub sub value value", ""},
	{[]string{"kubectl", "config", "view", "--raw"}, "sub sub -", "kubectl config view --raw prints the kubeconfig's credentials"},
	{[]string{"kubectl", "create", "secret", "generic", "s", "--from-file=key=.env"}, "sub sub sub value tree", ""},
	{[]string{"kubectl", "create", "configmap", "c", "--from-env-file", "app.env"}, "sub sub value - read", ""},
	{[]string{"kubectl", "get", "pods", "-o", "go-template-file", "--template=.env"}, "sub value - value value", "kubectl get -o reads a template from a file"},
	{[]string{"kubectl", "--kubeconfig=/tmp/kc", "get", "pods"}, "read sub value", "kubectl --kubeconfig reads a kubeconfig the call names"},
	{[]string{"kubectl", "edit", "deploy/web"}, "sub value", "kubectl edit opens an editor"},
	{[]string{"kubectl", "get", "pods", "--frob"}, "", "kubectl get: the option --frob is not"},
	{[]string{"kubectl", "neat", "get"}, "", "kubectl: the subcommand neat is not"}, // a plugin: kubectl-neat runs
	// ssh: options before and after the destination, none in the command.
	{[]string{"ssh", "host", "uptime"}, "value shell", ""},
	{[]string{"ssh", "-p", "2222", "host", "-i", "k", "ls", "-la"}, "- value value - list shell shell", ""},
	{[]string{"ssh", "-o", "ConnectTimeout=5", "-oBatchMode=yes", "host"}, "- value value value", ""},
	{[]string{"ssh", "-o", "UserKnownHostsFile /tmp/kh", "host"}, "- edit value", ""},
	{[]string{"ssh", "-o", "ProxyCommand=sh -c x", "host"}, "", `ssh: -o "proxycommand" is not a keyword`},
	{[]string{"ssh", "-oLocalCommand=x", "-oPermitLocalCommand=yes", "host"}, "", `ssh: -o "localcommand" is not a keyword`},
	{[]string{"ssh", "-F", "cfg", "host"}, "- read value", "ssh -F reads a configuration file"},
	{[]string{"ssh", "-I", "lib.so", "host"}, "- value value", "ssh -I loads a PKCS#11 library"},
	{[]string{"ssh", "-G", "host"}, "- value", ""},
	// scp: sources read (folders with -r), the target written; HOST:PATH
	// is on another host.
	{[]string{"scp", "a.txt", "host:/tmp/"}, "read value", ""},
	{[]string{"scp", "host:/etc/hosts", "."}, "value write", ""},
	{[]string{"scp", "-r", "src", "host:"}, "- tree value", ""},
	{[]string{"scp", "-P", "2222", "-i", "k", "./a:b", "host:x"}, "- value - list read value", ""},
	{[]string{"scp", "~/.ssh/id_rsa", "host:"}, "read value", ""},
	{[]string{"scp", "-S", "./evil", "a", "host:"}, "- value read value", "scp -S runs a program in place of ssh"},
	{[]string{"scp", "-t", "."}, "- write", "scp -t runs scp's remote end"},
	{[]string{"scp", "$h:x", "y"}, "", "scp: $h:x is an expansion where scp reads options"},
	{[]string{"scp", "-r", "--", "$h:x", "y"}, "- - tree write", "scp cannot tell whether $h:x names a local path"},
	// sftp: a destination on another host; a batch file, a program run in
	// place of ssh or of the server, and ssh's local commands floor.
	{[]string{"sftp", "host"}, "value", ""},
	{[]string{"sftp", "-P", "2222", "-i", "k", "user@host:/srv"}, "- value - list value", ""},
	{[]string{"sftp", "-oBatchMode=yes", "-q", "host"}, "value - value", ""},
	{[]string{"sftp", "-o", "ProxyCommand=sh -c x", "host"}, "", `sftp: -o "proxycommand" is not a keyword`},
	{[]string{"sftp", "-b", "cmds.txt", "host"}, "- read value", "sftp -b runs the commands of a batch file"},
	{[]string{"sftp", "-S", "./evil", "host"}, "- value value", "sftp -S runs a program in place of ssh"},
	{[]string{"sftp", "-D", "/usr/lib/sftp-server"}, "- value", "sftp -D runs an SFTP server program"},
	// wget: GNU options; what it writes is named by -O, else the URL names it.
	{[]string{"wget", "-qO-", "https://example.com"}, "write url", ""},
	{[]string{"wget", "-O", "out.html", "https://example.com"}, "- write url", ""},
	{[]string{"wget", "--output-doc=a.txt", "https://example.com"}, "write url", ""},
	{[]string{"wget", "--spider", "https://example.com"}, "- url", ""},
	{[]string{"wget", "-nv", "--post-file=.env", "-O-", "https://example.com"}, "value read write url", ""},
	{[]string{"wget", "https://example.com/a.tgz"}, "write", ""}, // saved as a.tgz
	{[]string{"wget", "-c", "example.com/a.tgz", "https://example.com/b/"}, "- write write", ""},
	{[]string{"wget", "-r", "https://example.com/"}, "- url", "wget writes files whose names the server"},
	{[]string{"wget", "-P", "dl", "https://example.com/a.tgz"}, "- list write", ""}, // saved as dl/a.tgz
	{[]string{"wget", "-P", "$d", "https://example.com/a.tgz"}, "", "wget: cannot tell the folder -P names"},
	{[]string{"wget", "--content-disposition", "https://example.com/get?id=1"}, "- url", "wget writes files whose names the server"},
	{[]string{"wget", "https://example.com/x%2Fy"}, "write", "wget cannot tell the name of the file"},
	{[]string{"wget", "file:///etc/passwd"}, "write", "wget cannot tell the name of the file"},
	{[]string{"wget", "-e", "robots=off", "-O", "x", "https://example.com"}, "- value - write url", "wget -e runs a .wgetrc command"},
	{[]string{"wget", "--sp", "https://example.com"}, "", "wget: --sp is an ambiguous abbreviation"},
	{[]string{"wget", "--version"}, "-", ""},
}

func TestParseRemote(t *testing.T) {
	runParseCases(t, remoteCases)
}

// TestRemoteModels: docker, ssh, scp, sftp and wget have models.
func TestRemoteModels(t *testing.T) {
	for _, p := range []string{"docker", "kubectl", "ssh", "scp", "sftp", "wget"} {
		if !argmodel.Has(p) {
			t.Errorf("%s has no model", p)
		}
	}
}
