package argmodel

import (
	"encoding/csv"
	"strings"
)

// Forms of BuildKit's options (docker build with buildx, docker buildx
// build), each a comma-separated list of key=value read as buildx reads
// it (CSV).
const (
	// FormSecret is --secret id=ID[,src=PATH|,env=VAR][,type=file|env]:
	// the file the build is given to read. Without src or env, BuildKit
	// takes the variable ID when it is set and the file ID otherwise, so
	// ID is read as the path.
	FormSecret = "secret"
	// FormOutput is -o/--output: PATH or type=local,dest=PATH writes the
	// build's files into a folder under names regate cannot see (it asks,
	// as tar -x does); type=tar, oci or docker with dest=PATH writes one
	// archive; "-", an image or a registry writes no local path.
	FormOutput = "output"
	// FormCache is --cache-from and --cache-to: type=local with src or
	// dest is a folder the cache is read from or written into; any other
	// type (registry, gha, inline, s3) is no local path.
	FormCache = "cache"
	// FormContext is --build-context NAME=VALUE: VALUE is a folder of
	// this machine unless it is a URL, an image (docker-image://) or
	// oci-layout://.
	FormContext = "context"
)

// buildForm reads a value of one of BuildKit's forms, as form does.
func buildForm(f, role, v string) (string, string, string) {
	if f == FormContext {
		_, value, ok := strings.Cut(v, "=")
		if !ok {
			return role, v, "cannot read the build context " + quoted(v) + ": it is not NAME=VALUE"
		}
		if strings.Contains(value, "://") {
			return Value, v, ""
		}
		return role, value, ""
	}
	if f == FormOutput && !strings.Contains(v, "=") {
		if v == "-" {
			return Value, v, "" // a tar archive on standard output
		}
		return role, v, "writes the build's files into " + quoted(v) + " under names regate cannot see"
	}
	fields, err := csv.NewReader(strings.NewReader(v)).Read()
	if err != nil {
		return role, v, "cannot read " + quoted(v) + ": " + err.Error()
	}
	kv := map[string]string{}
	for _, fld := range fields {
		key, val, _ := strings.Cut(fld, "=")
		kv[strings.ToLower(strings.TrimSpace(key))] = val
	}
	switch f {
	case FormSecret:
		switch {
		case kv["src"] != "":
			return role, kv["src"], ""
		case kv["source"] != "":
			return role, kv["source"], ""
		case kv["env"] != "" || kv["type"] == "env":
			return Value, v, "" // a variable of the environment
		case kv["id"] != "":
			return role, kv["id"], ""
		}
		return role, v, "cannot tell which file the secret " + quoted(v) + " reads"
	case FormOutput:
		switch typ := kv["type"]; {
		case typ == "local":
			return role, kv["dest"], "writes the build's files into " + quoted(kv["dest"]) + " under names regate cannot see"
		case kv["dest"] != "" && kv["dest"] != "-":
			return Write, kv["dest"], "" // one archive
		}
		return Value, v, "" // an image, a registry, standard output
	case FormCache:
		if kv["type"] != "local" {
			return Value, v, ""
		}
		if dest := kv["dest"]; dest != "" {
			return role, dest, "writes a build cache into " + quoted(dest) + " under names regate cannot see"
		}
		return role, kv["src"], ""
	}
	return role, v, ""
}
