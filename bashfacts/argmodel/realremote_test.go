package argmodel_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
)

// remoteRealCases tie the models of ssh, scp and wget to the programs, as
// realCases do. URL in a command is a test server that serves /a.txt and
// answers a POST with its body; ssh -G prints the configuration a call
// would use without connecting.
var remoteRealCases = []realCase{
	{[]string{"ssh", "-G", "-p", "2222", "host", "-i", "k", "ls", "-la"}, "options after the destination are read", printed("port 2222"), "- - value value - list shell shell"},
	{[]string{"ssh", "-G", "host", "ls", "-p", "2222"}, "options in the command are not", printed("port 22\n"), "- value shell shell shell"},
	{[]string{"ssh", "-G", "-o", "ConnectTimeout 7", "host"}, "-o takes KEYWORD VALUE", printed("connecttimeout 7"), "- - value value"},
	{[]string{"ssh", "-G", "-oconnecttimeout=7", "host"}, "keywords in any case, KEYWORD=VALUE", printed("connecttimeout 7"), "- value value"},
	{[]string{"ssh", "-G", "-o", "UserKnownHostsFile=kh", "host"}, "userknownhostsfile names the file ssh adds host keys to", printed("userknownhostsfile kh"), "- - edit value"},
	{[]string{"ssh", "-G", "-o", "ProxyCommand=sh -c x", "host"}, "ProxyCommand runs a local command", printed("proxycommand sh -c x"), ""},
	{[]string{"scp", "F", "H"}, "two local paths: a local copy, H written", holding("H", "a\nx line\n"), "read write"},
	{[]string{"scp", "-r", "D", "E2"}, "-r copies the folder", wrote("E2/sub.txt"), "- tree write"},
	{[]string{"scp", "-q", "./F:x", "G"}, "./F:x is a local path", rejects, "- read write"},
	{[]string{"scp", "-1", "F", "H"}, "-1 is no longer an option", rejects, ""},
	{[]string{"wget", "-q", "-O", "H", "URL/a.txt"}, "-O names the file written", holding("H", "served\n"), "- - write url"},
	{[]string{"wget", "-q", "--output-doc=H", "URL/a.txt"}, "--output-doc is --output-document", holding("H", "served\n"), "- write url"},
	{[]string{"wget", "-qO-", "--post-file=F", "URL/echo"}, "--post-file sends the file", printed("x line"), "write read url"},
	{[]string{"wget", "-q", "URL/a.txt"}, "without -O the URL names the file", wrote("a.txt"), "- write"},
	{[]string{"wget", "-q", "URL/d/"}, "an empty name is index.html", wrote("index.html"), "- write"},
	{[]string{"wget", "-q", "URL"}, "so is no path", wrote("index.html"), "- write"},
	{[]string{"wget", "-q", "URL/a%20b.txt"}, "escapes are decoded", wrote("a b.txt"), "- write"},
	{[]string{"wget", "-q", "URL/%2eenv"}, "%2e is a dot: .env is written", wrote(".env"), "- write"},
	{[]string{"wget", "-q", "URL/d/../../G2"}, "dot segments are resolved", wrote("G2"), "- write"},
	{[]string{"wget", "-q", "URL/a.txt?x=1&y=2#f"}, "the query is part of the name, the fragment is not", wrote("a.txt?x=1&y=2"), "- write"},
	{[]string{"wget", "-q", "URL/caf%C3%A9"}, "UTF-8 is decoded", wrote("café"), "- write"},
	{[]string{"wget", "-q", "URL/a.txt", "-P", "D"}, "-P names the folder it is saved in", wrote("D/a.txt"), "- write - list"},
	{[]string{"wget", "-q", "URL/G"}, "a name that is taken gets .1", both(wrote("G.1"), holding("G", "a\n")), "- write"},
	{[]string{"wget", "-q", "--spider", "URL/a.txt"}, "--spider writes nothing", both(succeeds, removed("a.txt")), "- - url"},
	{[]string{"wget", "-q", "--sp", "URL/a.txt"}, "--sp is ambiguous", rejects, ""},
}

func TestRemoteModelsAgainstRealPrograms(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			_, _ = io.Copy(w, r.Body)
			return
		}
		_, _ = io.WriteString(w, "served\n")
	}))
	defer srv.Close()
	for _, c := range remoteRealCases {
		c.cmd = slices.Clone(c.cmd)
		for i, w := range c.cmd {
			c.cmd[i] = strings.Replace(w, "URL", srv.URL, 1)
		}
		t.Run(strings.Join(c.cmd, " "), func(t *testing.T) { checkRealCase(t, c) })
	}
}
