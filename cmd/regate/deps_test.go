package main

import (
	"os/exec"
	"strings"
	"testing"
)

// heavyInit are packages whose init work every regate process would pay,
// the hook's once per tool call: the JSON Schema library compiles its
// meta-schemas (about 8 ms), OPA's decision-log plugin links an OCI client
// and Prometheus (about 8 ms). The schemas and the plugin's event type are
// used by tests only. distribution/reference compiles its image-name
// regular expressions at init (about 2.5 ms); compose-go's types, format,
// transform and loader packages link it (facts reads compose files with
// compose-go's interpolation and dotenv packages alone).
var heavyInit = []string{
	"github.com/santhosh-tekuri/jsonschema",
	"github.com/open-policy-agent/opa/v1/plugins/logs",
	"github.com/distribution/reference",
}

// TestBinaryStartsLight fails when the binary links a package of heavyInit.
func TestBinaryStartsLight(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		for _, heavy := range heavyInit {
			if strings.HasPrefix(dep, heavy) {
				t.Errorf("regate links %s, whose init every hook call would pay", dep)
			}
		}
	}
}
