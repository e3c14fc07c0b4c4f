package runtime_test

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/regate/regate/facts"
	"github.com/regate/regate/policies"
	"github.com/regate/regate/runtime"
)

// TestCurlReachesWhatItNames: a bash rule matches the command's text, so
// the developer policy's curl *localhost* allows curl to this machine
// only while the text names the host curl reaches. A URL whose host
// follows an @ (http://localhost@example.com reaches example.com), a
// proxy, --resolve, --connect-to, a DNS-over-HTTPS server, a proxy set in
// the environment and a request sent to a local socket (docker's control
// socket) each reach another place than the text says: they ask in
// strict mode, and so does a command that fetches more than one URL (two
// operands, --next, a curl glob in the host), whose text a rule matches
// once. Each "ask" row was allowed before 2026-12-07 (fourth and fifth
// stops). The real curl shows where they go.
func TestCurlReachesWhatItNames(t *testing.T) {
	developer := newEngine(t, readPolicy(t, "developer.jsonc"), runtime.WithFS(facts.MapFS{}))
	def := newEngine(t, string(policies.Default()), runtime.WithFS(facts.MapFS{}))
	decideUnderBoth(t, developer, def, []policyRow{
		{"curl http://localhost@example.com/", "ask", "ask"},
		{"curl -s localhost@example.com", "ask", "ask"},
		{"curl -x http://example.com:8080 http://localhost/", "ask", "ask"},
		{"curl --resolve localhost:80:192.0.2.1 http://localhost/", "ask", "ask"},
		{"curl --connect-to localhost:80:example.com:80 http://localhost/", "ask", "ask"},
		{"curl --doh-url https://example.com/dns http://localhost/", "ask", "ask"},
		{"HTTPS_PROXY=http://example.com:8080 curl https://localhost/", "ask", "ask"},
		{"curl --unix-socket /var/run/docker.sock http://localhost/containers/json", "ask", "ask"},
		// More than one host: the text names localhost once and is
		// matched once (asked since the fifth stop of 2026-12-07).
		{"curl http://localhost:3000/ http://example.com/", "ask", "ask"},
		{"curl --url http://example.com/ http://localhost:3000/", "ask", "ask"},
		{"curl http://localhost:3000/ --next http://example.com/", "ask", "ask"},
		{"curl 'http://{localhost:3000,example.com}/'", "ask", "ask"},
		{"curl 'http://localhost{:3000,.example.com}/'", "ask", "ask"},
		{"curl --url http://localhost:8080/health", "allow", "ask"},
		{"curl 'http://localhost:8080/file[1-3].txt'", "allow", "ask"}, // a glob in the path: one host
		{"curl -s localhost:8080/health", "allow", "ask"},
		{`curl -s "http://localhost:3000/users?email=a@example.com"`, "allow", "ask"},
		{"curl -u dev:dev http://127.0.0.1:3000/api", "allow", "ask"},
	})
	if _, err := exec.LookPath("curl"); err != nil {
		return
	}
	out, _ := exec.Command("curl", "-sS", "http://localhost@127.0.0.2:1/").CombinedOutput()
	if !strings.Contains(string(out), "127.0.0.2") {
		t.Fatalf("curl http://localhost@127.0.0.2:1/ did not try 127.0.0.2:\n%s", out)
	}
	for _, args := range [][]string{
		{"http://127.0.0.2:1/", "http://127.0.0.3:1/"},
		{"http://127.0.0.2:1/", "--next", "http://127.0.0.3:1/"},
		{"http://{127.0.0.2,127.0.0.3}:1/"},
	} {
		out, _ := exec.Command("curl", append([]string{"-sS"}, args...)...).CombinedOutput()
		if !strings.Contains(string(out), "127.0.0.2") || !strings.Contains(string(out), "127.0.0.3") {
			t.Fatalf("curl %q did not try both hosts:\n%s", args, out)
		}
	}
}
