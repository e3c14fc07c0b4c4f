package profile

import (
	"bytes"
	"slices"

	"github.com/regate/regate/compiler"
)

// Diagnostic codes: the upstream extension's (pi-prompt-profiles), which
// hosts and the conformance cases know; docs/profiles.md lists them.
const (
	CodeConfigParse          = "config-parse"
	CodeConfigShape          = "config-shape"
	CodeConfigVersion        = "config-version"
	CodeConfigSelection      = "config-selection"
	CodeConfigDefault        = "config-default"
	CodeConfigProfiles       = "config-profiles"
	CodeConfigProfileID      = "config-profile-id"
	CodeConfigProfileMeta    = "config-profile-meta"
	CodeConfigExtends        = "config-extends"
	CodeConfigDescription    = "config-description"
	CodeConfigBindings       = "config-bindings"
	CodeConfigBinding        = "config-binding"
	CodeConfigBindingID      = "config-binding-id"
	CodeConfigBindingProfile = "config-binding-profile"
	CodeConfigBindingMatch   = "config-binding-match"
	CodeConfigBindingPrio    = "config-binding-priority"
	CodeConfigInherit        = "config-inherit"
	CodeConfigSubagents      = "config-subagents"
	CodeConfigUnknown        = "config-unknown"
	CodeProfileID            = "profile-id"
	CodeProfileSymlink       = "profile-symlink"
	CodeProfileMarker        = "profile-marker"
	CodeProfileTooLarge      = "profile-too-large"
	CodeProfileCycle         = "profile-cycle"
	CodeProfileDepth         = "profile-depth"
	CodeProfileMissing       = "profile-missing"
	CodeProfileEmpty         = "profile-empty"
	CodeProfileTotalSize     = "profile-total-size"
	CodeProfileExtends       = "profile-extends"
	CodeBindingConflict      = "binding-conflict"
	CodeAutoNoModel          = "auto-no-model"
	CodeAutoNone             = "auto-none"
)

// Diagnostic codes of reading a config folder from disk (ReadFolder) that
// the extension's list of config and profile codes lacks: profiles-dir is the upstream extension's own
// (src/core/profiles.ts); the two -unreadable codes are regate's. Stable
// like the others, and documented in docs/profiles.md.
const (
	// CodeProfilesDir: the profiles folder exists but cannot be listed (not
	// a folder, no permission, more than MaxFolderEntries entries); none
	// of its profiles is read.
	CodeProfilesDir = "profiles-dir"
	// CodeProfileUnreadable: an entry named <id>.md that is not a regular
	// file (a folder, a FIFO, a device, a socket) or cannot be read; it is
	// skipped.
	CodeProfileUnreadable = "profile-unreadable"
	// CodeConfigUnreadable: config.json exists but is not a regular file
	// or cannot be read; the file counts as invalid (config-parse alike).
	CodeConfigUnreadable = "config-unreadable"
)

// The keys each object of config.json takes, listed once: the decoder
// reports any other key against them, and compiler/schema's tests hold
// profile-config.schema.json to them (KeyLists).
var (
	configKeys = []string{
		"$schema", "bindings", "defaultProfile", "inheritGlobalBindings", "profiles", "selection", "subagents", "version",
	}
	selectionKeys   = []string{"mode", "profile"}
	profileMetaKeys = []string{"description", "extends"}
	bindingKeys     = []string{"id", "match", "model", "priority", "profile", "provider"}
	ruleKeys        = []string{"model", "provider"}
)

// KeyLists returns the keys each object of config.json takes, by a path
// whose "*" stands for any map key or list element: "config",
// "config/selection", "config/profiles/*", "config/bindings/*",
// "config/bindings/*/match/*". Each list is a sorted copy.
func KeyLists() map[string][]string {
	lists := map[string][]string{
		"config":                    configKeys,
		"config/selection":          selectionKeys,
		"config/profiles/*":         profileMetaKeys,
		"config/bindings/*":         bindingKeys,
		"config/bindings/*/match/*": ruleKeys,
	}
	out := make(map[string][]string, len(lists))
	for k, v := range lists {
		out[k] = slices.Sorted(slices.Values(v))
	}
	return out
}

// MaxBindings bounds a file's bindings; past it every binding is ignored.
const MaxBindings = 200

// Selection is a stored selection: mode auto, off or manual, and for
// manual the profile, as a normalized reference.
type Selection struct {
	Mode    string `json:"mode"`
	Profile string `json:"profile,omitempty"`
}

// Binding binds models to a profile. A binding applies when any of its
// rules matches the model; Ref is the profile, normalized in the binding's
// scope.
type Binding struct {
	ID       string       `json:"id"`
	Ref      string       `json:"ref"`
	Priority float64      `json:"priority"`
	Rules    []Rule       `json:"rules"`
	pos      compiler.Pos // where its profile is written
}

// refUse is a profile reference in a config file (a binding's profile,
// defaultProfile, a manual selection's profile) and where it is written.
type refUse struct {
	ref, what string
	pos       compiler.Pos
}

// Rule matches a model: provider and model are both patterns where "*"
// matches any run of characters; a missing field is "*".
type Rule struct {
	Provider string `json:"provider"`
	Model    string `json:"model"`
}

// Specificity is 3 for exact provider and exact model, 2 for a wildcard
// provider and exact model, 1 for exact provider and wildcard model, 0 for
// both wildcards. A field with any "*" is a wildcard.
func (r Rule) Specificity() int {
	exactProvider, exactModel := !containsStar(r.Provider), !containsStar(r.Model)
	switch {
	case exactProvider && exactModel:
		return 3
	case exactModel:
		return 2
	case exactProvider:
		return 1
	}
	return 0
}

func containsStar(s string) bool { return bytes.IndexByte([]byte(s), '*') >= 0 }

// scopeConfig is one scope's config.json as decoded: what survives of it.
type scopeConfig struct {
	scope     string
	active    bool // the file was read, is an object and has version 1
	selection *Selection
	def       string            // the default profile, normalized; "" none
	extends   map[string]string // profile id → its base, normalized
	badBase   map[string]bool   // profile ids whose extends is not a valid reference
	bindings  []Binding         // in file order
	uses      []refUse          // every profile reference, where it stands
	inherit   bool              // project only: inheritGlobalBindings
	subagents string            // "off", "bindings", "inherit" or ""
}
