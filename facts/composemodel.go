package facts

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/compose-spec/compose-go/v2/interpolation"
	"github.com/compose-spec/compose-go/v2/template"
	"go.yaml.in/yaml/v3"
)

// A compose file, read as compose-go's loader reads it up to the point
// where it knows every path: YAML, interpolation (compose-go's
// interpolation and template packages), then the short syntax read as
// the long one ("./src:/src:ro" is a bind mount of ./src, read-only; an
// env_file string is a list of one). The loader and compose-go's
// transform package are not linked: the loader validates with a JSON
// Schema library that compiles its meta-schemas at init, and transform
// links distribution/reference, whose regular expressions take about
// 2.5 ms at init; every hook call would pay both (cmd/regate's
// TestBinaryStartsLight). So the few shapes strict mode needs are read
// here, the short volume syntax as compose-go's format.ParseVolume reads
// it (FuzzComposeVolume holds the two equal), and
// TestComposeProjectIsWhatComposeLoads holds the whole reading to the
// real docker compose.
//
// Several files are not merged as compose merges them: what each names is
// counted (composeUse.add), so a mount an override file replaces is still
// read, and the read can only ask more.

// composeModel is the part of a canonical compose file strict mode reads.
type composeModel struct {
	Services map[string]composeService `json:"services"`
	Jobs     map[string]composeService `json:"jobs"`
	Volumes  map[string]struct {
		DriverOpts map[string]string `json:"driver_opts"`
	} `json:"volumes"`
	Secrets map[string]composeFileRef `json:"secrets"`
	Configs map[string]composeFileRef `json:"configs"`
	Include []composeInclude          `json:"include"`
}

// composeInclude is an entry of include: a path, or {path, project_directory,
// env_file}, path and env_file a string or a list.
type composeInclude struct {
	Path             composeStrings `json:"path"`
	ProjectDirectory string         `json:"project_directory"`
	EnvFile          composeStrings `json:"env_file"`
}

func (inc *composeInclude) UnmarshalJSON(data []byte) error {
	var one string
	if json.Unmarshal(data, &one) == nil {
		*inc = composeInclude{Path: composeStrings{one}}
		return nil
	}
	type plain composeInclude
	return json.Unmarshal(data, (*plain)(inc))
}

// composeFileRef is a top-level secret or config.
type composeFileRef struct {
	File string `json:"file"`
}

// composeContainer is what a container of a service, a job or a
// service's pre_start containers says.
type composeContainer struct {
	Volumes           []composeMount     `json:"volumes"`
	EnvFile           composeEnvFiles    `json:"env_file"`
	LabelFile         composeStrings     `json:"label_file"`
	Environment       composeEnvironment `json:"environment"`
	Devices           []any              `json:"devices"`
	DeviceCgroupRules []string           `json:"device_cgroup_rules"`
	Privileged        bool               `json:"privileged"`
	CapAdd            []string           `json:"cap_add"`
	SecurityOpt       []string           `json:"security_opt"`
	Pid               string             `json:"pid"`
	UsernsMode        string             `json:"userns_mode"`
	Cgroup            string             `json:"cgroup"`
}

// composeService is a service or a job.
type composeService struct {
	composeContainer
	PreStart []composeContainer `json:"pre_start"`
	Build    *composeBuild      `json:"build"`
	Develop  *struct {
		Watch []struct {
			Path string `json:"path"`
		} `json:"watch"`
	} `json:"develop"`
	Provider *struct {
		Type string `json:"type"`
	} `json:"provider"`
	Extends *composeExtends `json:"extends"`
}

// composeExtends is a service's extends: a service of the same file, or
// {service, file}.
type composeExtends struct {
	Service string `json:"service"`
	File    string `json:"file"`
}

func (x *composeExtends) UnmarshalJSON(data []byte) error {
	var service string
	if json.Unmarshal(data, &service) == nil {
		*x = composeExtends{Service: service}
		return nil
	}
	type plain composeExtends
	return json.Unmarshal(data, (*plain)(x))
}

// composeBuild is a service's build: a context, or a mapping.
type composeBuild struct {
	Context            string           `json:"context"`
	Dockerfile         string           `json:"dockerfile"`
	DockerfileInline   string           `json:"dockerfile_inline"`
	AdditionalContexts composeKeyValues `json:"additional_contexts"`
	SSH                any              `json:"ssh"`
}

func (b *composeBuild) UnmarshalJSON(data []byte) error {
	var context string
	if json.Unmarshal(data, &context) == nil {
		*b = composeBuild{Context: context}
		return nil
	}
	type plain composeBuild
	return json.Unmarshal(data, (*plain)(b))
}

// composeMount is a volume of a container, in the long syntax.
type composeMount struct {
	Type     string `json:"type"`
	Source   string `json:"source"`
	ReadOnly bool   `json:"read_only"`
}

func (m *composeMount) UnmarshalJSON(data []byte) error {
	var spec string
	if json.Unmarshal(data, &spec) == nil {
		v, err := parseComposeVolume(spec)
		*m = v
		return err
	}
	type plain composeMount
	return json.Unmarshal(data, (*plain)(m))
}

// composeStrings is a string or a list of strings.
type composeStrings []string

func (s *composeStrings) UnmarshalJSON(data []byte) error {
	var one string
	if json.Unmarshal(data, &one) == nil {
		*s = composeStrings{one}
		return nil
	}
	return json.Unmarshal(data, (*[]string)(s))
}

// composeEnvFiles are a service's env_file: a path, or a list of paths
// and {path, required, format}.
type composeEnvFiles []string

func (s *composeEnvFiles) UnmarshalJSON(data []byte) error {
	var one string
	if json.Unmarshal(data, &one) == nil {
		*s = composeEnvFiles{one}
		return nil
	}
	var list []json.RawMessage
	if err := json.Unmarshal(data, &list); err != nil {
		return err
	}
	*s = nil
	for _, item := range list {
		var entry struct {
			Path string `json:"path"`
		}
		if json.Unmarshal(item, &one) == nil {
			entry.Path = one
		} else if err := json.Unmarshal(item, &entry); err != nil {
			return err
		}
		*s = append(*s, entry.Path)
	}
	return nil
}

// composeKeyValues is a mapping, or a list of KEY=VALUE.
type composeKeyValues map[string]string

func (kv *composeKeyValues) UnmarshalJSON(data []byte) error {
	var list []string
	if json.Unmarshal(data, &list) == nil {
		*kv = composeKeyValues{}
		for _, item := range list {
			k, v, _ := strings.Cut(item, "=")
			(*kv)[k] = v
		}
		return nil
	}
	return json.Unmarshal(data, (*map[string]string)(kv))
}

// composeEnvironment is a service's environment: a map, or a list of
// KEY=VALUE and KEY.
type composeEnvironment map[string]*string

func (env *composeEnvironment) UnmarshalJSON(b []byte) error {
	var list []string
	if err := json.Unmarshal(b, &list); err == nil {
		*env = composeEnvironment{}
		for _, kv := range list {
			k, v, ok := strings.Cut(kv, "=")
			if ok {
				(*env)[k] = &v
			} else {
				(*env)[k] = nil
			}
		}
		return nil
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		return err
	}
	*env = composeEnvironment{}
	for k, v := range m {
		if v == nil {
			(*env)[k] = nil
		} else {
			s := fmt.Sprint(v)
			(*env)[k] = &s
		}
	}
	return nil
}

// unset are the variables the container takes by name (KEY with no
// value): compose gives them the project's environment's values.
func (env composeEnvironment) unset() []string {
	var out []string
	for k, v := range env {
		if v == nil {
			out = append(out, k)
		}
	}
	return out
}

// containers are every container the model describes.
func (m *composeModel) containers() []composeContainer {
	var out []composeContainer
	for _, group := range []map[string]composeService{m.Services, m.Jobs} {
		for _, s := range group {
			out = append(out, s.composeContainer)
			out = append(out, s.PreStart...)
		}
	}
	return out
}

// errComposePanic: compose-go panicked on the file (it does on some
// malformed files, as docker compose itself does).
var errComposePanic = errors.New("compose-go failed on the file")

// canonicalCompose reads a compose file's text into its model,
// interpolating with lookup. The file is the agent's, so a panic of
// compose-go on it is an error (the read asks), never a crash of the
// gate.
func canonicalCompose(text []byte, lookup func(string) (string, bool)) (m *composeModel, err error) {
	defer func() {
		if r := recover(); r != nil {
			m, err = nil, fmt.Errorf("%w: %v", errComposePanic, r)
		}
	}()
	var raw map[string]any
	if err := yaml.Unmarshal(text, &raw); err != nil {
		return nil, err
	}
	dict, err := interpolation.Interpolate(raw, interpolation.Options{
		LookupValue: lookup,
		Substitute: func(s string, m template.Mapping) (string, error) {
			return template.SubstituteWithOptions(s, m, template.WithoutLogging)
		},
	})
	if err != nil {
		return nil, err
	}
	b, err := json.Marshal(dict)
	if err != nil {
		return nil, err
	}
	m = &composeModel{}
	if err := json.Unmarshal(b, m); err != nil {
		return nil, fmt.Errorf("not a compose file compose would load: %w", err)
	}
	return m, nil
}

// parseComposeVolume reads a volume's short syntax,
// SOURCE:TARGET[:OPTIONS] or TARGET, as compose-go's format.ParseVolume
// does (a ":" inside ${…}, or after a single letter, a Windows drive, does
// not split): the source is a bind mount's when it begins with ".", "/",
// "~", \\ or a drive letter, and "ro" among the options makes it
// read-only ("rw" undoes it).
func parseComposeVolume(spec string) (composeMount, error) {
	var m composeMount
	if len(spec) == 0 {
		return m, errors.New("invalid empty volume spec")
	}
	if len(spec) <= 2 {
		m.Type = "volume"
		return m, nil
	}
	var buf []rune
	var target string
	depth := 0
	for i, c := range spec + "\x00" { // a NUL ends a field, as compose-go's endOfSpec does
		switch {
		case c == '$' && i+1 < len(spec) && spec[i+1] == '{':
			depth++
			buf = append(buf, c)
		case c == '}' && depth > 0:
			depth--
			buf = append(buf, c)
		case c == ':' && len(buf) == 1 && unicode.IsLetter(buf[0]):
			buf = append(buf, c) // a Windows drive
		case (c == ':' || c == 0) && depth == 0:
			field := string(buf)
			switch {
			case field == "":
				return m, fmt.Errorf("invalid spec: %s: empty section between colons", spec)
			case m.Source == "" && c == 0:
				target = field // a volume with no source
			case m.Source == "":
				m.Source = field
			case target == "":
				target = field
			case c == ':':
				return m, fmt.Errorf("invalid spec: %s: too many colons", spec)
			default:
				for _, option := range strings.Split(field, ",") {
					switch option {
					case "ro":
						m.ReadOnly = true
					case "rw":
						m.ReadOnly = false
					}
				}
			}
			buf = nil
		default:
			buf = append(buf, c)
		}
	}
	m.Type = composeVolumeType(m.Source)
	return m, nil
}

// composeVolumeType is "bind" for a source compose reads as a host path,
// "volume" for any other.
func composeVolumeType(source string) string {
	if source == "" {
		return "volume"
	}
	switch source[0] {
	case '.', '/', '~':
		return "bind"
	}
	if strings.HasPrefix(source, `\\`) {
		return "bind"
	}
	first, next := utf8.DecodeRuneInString(source)
	if len(source) > next && source[next] == ':' && unicode.IsLetter(first) {
		return "bind"
	}
	return "volume"
}
