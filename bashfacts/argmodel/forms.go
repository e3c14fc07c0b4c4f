package argmodel

import (
	"encoding/csv"
	"net/url"
	"path"
	"strings"
)

// Forms of a value that holds a path among other things (Opt.Form,
// Slot.Form). The path takes the option's or slot's role; the rest of the
// value is a plain value.
const (
	// FormRemote is HOST:PATH, a path on another host or in a container
	// (scp, docker cp, docker build's git context), read as scp reads it:
	// a ":" before the first "/" makes the value remote, so it is a value
	// and not a local path. ./a:b and /a:b are local paths.
	FormRemote = "remote"
	// FormVolume is docker's -v SRC:DST[:OPTIONS]: SRC is a host path when
	// it begins with "/", "." or "~" (docker's own test), else the name of
	// a volume; a lone DST is an anonymous volume.
	FormVolume = "volume"
	// FormMount is docker's --mount, a comma-separated list (CSV, as
	// docker reads it) of key=value: with type=bind, source (or src) is a
	// host path.
	FormMount = "mount"
	// FormKey is [KEY=]PATH (kubectl create secret --from-file=key=path):
	// the path follows the first "=".
	FormKey = "key"
	// FormDownload is a URL whose file a download writes in the working
	// directory under the name the URL gives it, as wget names it
	// (downloadName): the value is that name.
	FormDownload = "download"
)

var forms = map[string]bool{FormRemote: true, FormVolume: true, FormMount: true, FormKey: true, FormDownload: true,
	FormSecret: true, FormOutput: true, FormCache: true, FormContext: true}

// form reads the value v of a word in a form: the role and value the word
// stands for, and why the form makes the call ask ("" when it does not).
// A host folder mounted for writing asks: a container writes there what
// regate cannot see, as tar -x does. Mounted read-only it is a folder read
// recursively (role as given, tree). A device, a socket or the kernel's
// own file systems mounted into a container reach past the file rules.
func form(f, role, v string, dynamic bool) (string, string, string) {
	switch f {
	case FormSecret, FormOutput, FormCache, FormContext:
		return buildForm(f, role, v)
	case FormRemote:
		if remotePath(v) {
			if host, _, _ := strings.Cut(v, ":"); dynamic && strings.ContainsAny(host, "$`") {
				return role, v, "cannot tell whether " + quoted(v) + " names a local path: an expansion comes before its \":\""
			}
			return Value, v, ""
		}
		return role, v, ""
	case FormDownload:
		if dynamic {
			return role, v, "cannot tell the name of the file " + quoted(v) + " is saved to: the URL holds an expansion"
		}
		name, why := downloadName(v)
		if why != "" {
			return role, v, "cannot tell the name of the file " + quoted(v) + " is saved to: " + why
		}
		return role, name, ""
	case FormKey:
		if _, after, ok := strings.Cut(v, "="); ok {
			return role, after, ""
		}
		return role, v, ""
	case FormVolume:
		parts := strings.Split(v, ":")
		src := parts[0]
		if len(parts) < 2 || !hostSource(src) {
			return Value, v, "" // a volume's name, or the container's path alone
		}
		readOnly := false
		if len(parts) > 2 {
			opts := strings.Split(parts[2], ",")
			readOnly = contains(opts, "ro") || contains(opts, "readonly")
		}
		return role, src, MountProblem(src, readOnly)
	case FormMount:
		fields, err := csv.NewReader(strings.NewReader(v)).Read()
		if err != nil {
			return role, v, "cannot read the mount " + quoted(v) + ": " + err.Error()
		}
		kind, src, readOnly := "volume", "", false
		for _, fld := range fields {
			key, val, hasVal := strings.Cut(fld, "=")
			switch strings.ToLower(strings.TrimSpace(key)) {
			case "type":
				kind = strings.ToLower(val)
			case "source", "src":
				src = val
			case "readonly", "ro":
				readOnly = !hasVal || val == "1" || strings.EqualFold(val, "true")
			}
		}
		if kind != "bind" {
			return Value, v, "" // a volume, tmpfs or image: no host path
		}
		if src == "" {
			return role, v, "the bind mount " + quoted(v) + " names no source"
		}
		return role, src, MountProblem(src, readOnly)
	}
	return role, v, ""
}

// remotePath reports HOST:PATH as scp tells it from a local path: a ":"
// that comes before any "/" and is not the first character.
func remotePath(v string) bool {
	i := strings.IndexAny(v, ":/")
	return i > 0 && v[i] == ':'
}

// hostSource reports a -v source that docker reads as a host path.
func hostSource(src string) bool {
	return src != "" && strings.ContainsAny(src[:1], "/.~$")
}

// MountProblem says why mounting the host path src into a container asks
// ("" when it does not): docker run -v, and the bind mounts of a compose
// project (facts/compose.go).
func MountProblem(src string, readOnly bool) string {
	if strings.HasPrefix(src, "/") {
		clean := path.Clean(src)
		for _, p := range []string{"/dev", "/proc", "/sys", "/run", "/var/run"} {
			if clean == p || strings.HasPrefix(clean, p+"/") {
				return "gives the container " + clean + ", a device, a socket or a kernel interface of the host"
			}
		}
		if clean == "/" {
			return "gives the container the host's whole file system"
		}
	}
	if !readOnly {
		return "gives the container " + quoted(src) + " to write, and regate cannot see what it writes there (a read-only mount, :ro, is read as a folder)"
	}
	return ""
}

// keyword reads the value of an option whose values are KEYWORD=VALUE or
// KEYWORD VALUE (ssh -o), the keyword in any case: the value's role is the
// one keywords gives the keyword, and a keyword keywords does not hold is
// not understood.
func keyword(keywords map[string]string, v string) (role, val, name string, ok bool) {
	v = strings.TrimLeft(v, " \t")
	i := strings.IndexAny(v, "= \t")
	if i <= 0 {
		return "", "", v, false
	}
	name, val = strings.ToLower(v[:i]), strings.TrimLeft(v[i:], " \t")
	val = strings.TrimLeft(strings.TrimPrefix(val, "="), " \t")
	role, ok = keywords[name]
	return role, val, name, ok
}

// downloadName is the name wget 1.21 saves a URL's file under in the
// working directory (without -O, -P, -x, -r, --content-disposition and
// the other options that name it otherwise): the last segment of the
// URL's path once "." and ".." segments are resolved, its %XX escapes
// decoded, with "?" and the query after it; index.html for an empty one.
// A URL whose name wget would escape (a "/", a control character, or a
// segment that decodes to "." or "..") or whose scheme wget does not
// fetch gives why instead. TestRemoteModelsAgainstRealPrograms holds the
// names to the real wget's. If the name is taken, wget saves NAME.1 (and
// so on): a file no rule on NAME protects.
func downloadName(u string) (name, why string) {
	rest := u
	if scheme, after, ok := strings.Cut(u, "://"); ok {
		switch strings.ToLower(scheme) {
		case "http", "https", "ftp", "ftps":
		default:
			return "", "wget does not fetch " + scheme + " URLs"
		}
		rest = after
	} else if strings.Contains(u, ":") && !strings.Contains(strings.SplitN(u, "/", 2)[0], ".") {
		return "", "it is not a URL wget reads"
	}
	rest, _, _ = strings.Cut(rest, "#")
	rest, query, hasQuery := strings.Cut(rest, "?")
	_, p, _ := strings.Cut(rest, "/") // the host comes first
	var segs []string
	for _, s := range strings.Split(p, "/") {
		switch s {
		case ".":
		case "..":
			if len(segs) > 0 {
				segs = segs[:len(segs)-1]
			}
		default:
			segs = append(segs, s)
		}
	}
	last := ""
	if len(segs) > 0 {
		last = segs[len(segs)-1]
	}
	if strings.HasSuffix(p, "/") || strings.HasSuffix(p, "/.") || strings.HasSuffix(p, "/..") || p == "." || p == ".." {
		last = ""
	}
	name, ok := unescapeURL(last)
	switch {
	case !ok:
		return "", "its name holds an escape wget keeps"
	case name == "":
		name = "index.html"
	case name == "." || name == "..":
		return "", "its name is " + name
	}
	if hasQuery {
		if strings.ContainsAny(query, "%/") {
			return "", "its query holds an escape or a \"/\""
		}
		name += "?" + query
	}
	return name, ""
}

// unescapeURL decodes the %XX escapes of a URL path segment as wget does
// for a file name, false when one decodes to a byte wget keeps escaped
// (a "/", a control character of ASCII or of Latin-1) or is malformed.
func unescapeURL(s string) (string, bool) {
	name, err := url.PathUnescape(s)
	if err != nil {
		return "", false
	}
	// Latin-1's control bytes are refused only from a segment with
	// escapes, as before: UTF-8 written raw ("€.txt") is saved as written.
	escaped := strings.Contains(s, "%")
	for i := 0; i < len(name); i++ {
		if c := name[i]; c == '/' || c < 0x20 || c == 0x7f || (escaped && c >= 0x80 && c < 0xa0) {
			return "", false
		}
	}
	return name, true
}
