// Package workload generates regate's benchmark workload: a seeded mix of
// bash commands shaped like an agent's, file-tool and MCP calls, the 33-rule
// bash policy of issue 5 padded to any size, and an agent trace that repeats
// commands the way sessions do. The generated files live in testdata/bench;
// TestFilesAreCurrent regenerates them with UPDATE_GOLDEN=1.
package workload

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/regate/regate/facts"
)

// Seed is the seed of the committed workload.
const Seed = 20261202

var (
	simpleCmds = []string{
		"git status", "git diff", "git log --oneline -20", "git show HEAD~1", "git add src/main.go",
		"git commit -m 'fix: parser'", "git push origin main", "git checkout -b feature/x",
		"ls -la", "ls src", "cat README.md", "cat src/main.go", "head -n 20 go.mod", "tail -f app.log",
		"wc -l src/*.go", "grep -rn TODO src", "rg 'func main' --type go", "find . -name '*.go'",
		"sed -n '1,40p' src/parser.go", "echo hello", "pwd", "cd src", "mkdir -p build/out",
		"npm install", "npm run build", "npm test", "pnpm install", "go test ./...", "go build ./cmd/app",
		"go vet ./...", "make", "make test", "rm -rf build", "rm tmp.txt", "curl -s https://example.com/api",
		"docker build -t app .", "docker ps", "kubectl get pods", "kubectl apply -f deploy.yaml",
		"sudo apt-get install -y jq", "sudo systemctl restart nginx",
		"AWS_PROFILE=prod aws s3 ls", "NODE_ENV=test npm test", "CGO_ENABLED=0 go build ./...",
		"cat .env", "cat ~/.ssh/config", "git push --force origin main",
	}
	chainOps  = []string{" && ", " || ", "; ", " | "}
	pipeHeads = []string{"cat app.log", "git log --oneline", "ps aux", "ls -la", "find . -type f", "go test ./... 2>&1"}
	pipeTails = []string{"grep error", "head -n 5", "wc -l", "sort", "uniq -c", "tail -n 3", "xargs rm", "tee out.txt"}
	substs    = []string{
		"echo $(git rev-parse HEAD)", "cd $(git rev-parse --show-toplevel) && make",
		"for f in $(ls *.go); do gofmt -l $f; done", "diff <(sort a.txt) <(sort b.txt)",
		"(cd src && go test ./...)", "echo `date`", "bash -c 'make all'", "sh -c 'npm ci && npm test'",
		"kill $(pgrep -f server)", "VERSION=$(cat VERSION) make release",
	}
	heredocs = []string{
		"cat > notes.md <<EOF\n# Notes\nbuilt $(date)\nEOF",
		"cat <<'EOF' > script.sh\necho $HOME\nEOF",
		"python3 - <<EOF\nprint('hi')\nEOF",
		"kubectl apply -f - <<EOF\nkind: ConfigMap\nEOF",
	}
)

// Commands returns n bash commands: 45% simple, 25% chains of 2 to 4, 10%
// pipelines, 12% substitutions and 8% heredocs.
func Commands(seed uint64, n int) []string {
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	pick := func(xs []string) string { return xs[r.IntN(len(xs))] }
	out := make([]string, n)
	for i := range out {
		switch p := r.IntN(100); {
		case p < 45:
			out[i] = pick(simpleCmds)
		case p < 70:
			k := 2 + r.IntN(3)
			parts := make([]string, k)
			for j := range parts {
				parts[j] = pick(simpleCmds)
			}
			var b strings.Builder
			for j, part := range parts {
				if j > 0 {
					b.WriteString(pick(chainOps))
				}
				b.WriteString(part)
			}
			out[i] = b.String()
		case p < 80:
			out[i] = pick(pipeHeads) + " | " + pick(pipeTails)
		case p < 92:
			out[i] = pick(substs)
		default:
			out[i] = pick(heredocs)
		}
	}
	return out
}

// Calls are the commands as bash calls, followed by file-tool and MCP calls.
func Calls(seed uint64, n int) []facts.Call {
	var calls []facts.Call
	for _, c := range Commands(seed, n) {
		calls = append(calls, facts.Call{Tool: "bash", Input: map[string]any{"command": c}})
	}
	for _, p := range []string{"src/main.go", ".env", "README.md", "~/.ssh/id_rsa", "go.sum", "/etc/hosts"} {
		for _, tool := range []string{"read", "write", "edit"} {
			calls = append(calls, facts.Call{Tool: tool, Input: map[string]any{"path": p}})
		}
	}
	for _, in := range []map[string]any{{}, {"server": "github"}, {"tool": "github:create_issue"}, {"tool": "exa:web_search"}} {
		calls = append(calls, facts.Call{Tool: "mcp", Input: in})
	}
	return calls
}

// Trace replays the commands times times, shuffled, as an agent session
// repeats itself.
func Trace(seed uint64, calls []facts.Call, times int) []facts.Call {
	r := rand.New(rand.NewPCG(seed+1, seed))
	out := make([]facts.Call, 0, len(calls)*times)
	for range times {
		out = append(out, calls...)
	}
	r.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}

// baseRules is issue 5's 33-rule bash policy.
var baseRules = [][2]string{
	{"*", `"ask"`},
	{"git status *", `"allow"`}, {"git diff *", `"allow"`}, {"git log *", `"allow"`}, {"git show *", `"allow"`}, {"git add *", `"allow"`},
	{"git checkout *", `"ask"`}, {"git commit *", `"ask"`}, {"git push *", `"ask"`},
	{"git push --force*", `{"action": "deny", "reason": "Force pushes rewrite shared history"}`},
	{"ls *", `"allow"`}, {"cat *", `"allow"`}, {"head *", `"allow"`}, {"tail *", `"allow"`}, {"wc *", `"allow"`},
	{"grep *", `"allow"`}, {"rg *", `"allow"`}, {"find *", `"allow"`}, {"sed -n *", `"allow"`}, {"echo *", `"allow"`},
	{"pwd", `"allow"`}, {"cd *", `"allow"`}, {"mkdir *", `"allow"`}, {"pnpm *", `"allow"`}, {"go test *", `"allow"`},
	{"go build *", `"allow"`}, {"kubectl get *", `"allow"`},
	{"npm *", `{"action": "deny", "reason": "Use pnpm instead"}`},
	{"rm -rf *", `"deny"`}, {"sudo *", `"deny"`},
	{"make *", `"ask"`}, {"rm *", `"ask"`}, {"curl *", `"ask"`},
}

// BaseRules is the number of rules of the unpadded policy.
var BaseRules = len(baseRules)

// Policy is the 33-rule bash policy padded with "tool{i} *" rules to rules
// bash rules in all, with a small path map.
func Policy(rules int) string {
	var b strings.Builder
	b.WriteString("{\n  \"permission\": {\n    \"*\": \"ask\",\n    \"read\": \"allow\",\n")
	b.WriteString("    \"path\": {\"*\": \"allow\", \"*.env\": \"deny\", \"~/.ssh/*\": \"deny\"},\n")
	b.WriteString("    \"mcp\": {\"*\": \"ask\", \"github:*\": \"allow\"},\n")
	b.WriteString("    \"bash\": {\n")
	for i, r := range baseRules {
		if i > 0 {
			b.WriteString(",\n")
		}
		fmt.Fprintf(&b, "      %q: %s", r[0], r[1])
	}
	for i := 0; i < rules-len(baseRules); i++ {
		fmt.Fprintf(&b, ",\n      \"tool%d *\": \"allow\"", i)
	}
	b.WriteString("\n    }\n  }\n}\n")
	return b.String()
}
