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
// strict mode. Each "ask" row was allowed before 2026-12-07 (fourth
// stop). The real curl shows where the first one goes.
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
}
