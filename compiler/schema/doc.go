// Package schema holds the JSON Schemas of regate's rule files, the
// published description of what each file may hold, and validates
// documents against them.
//
// # The schemas
//
// One file per Kind, embedded in FS:
//
//   - policy.schema.json: policy.jsonc
//   - hard-guards.schema.json: hard-guards.jsonc
//   - agent.schema.json: the YAML frontmatter of agents/<agent>.md
//   - permission.schema.json: the permission map the three share
//   - delegation.schema.json: a delegation policy file
//   - delegation-request.schema.json: a narrow request
//   - profile-config.schema.json: a profile scope's config.json
//
// The files sit beside the decoders they describe and are the test oracle
// for them: every key a decoder reads is a property of its schema and
// every property is read (TestSchemaKeys), and every bundled and corpus
// policy validates. An editor pointed at a file here ("$schema" in the
// bundled policies) completes keys and flags typos as the user types;
// regate check reports the same typos from the decoders themselves, with
// a "did you mean", positioned. (The decoders do not call this package at
// decision time: compiling the meta-schemas would cost every hook call
// milliseconds.)
//
// # Validate
//
// Validate takes a Kind and a decoded JSON value (ValidateJSON takes the
// bytes of a JSON document; strip JSONC comments first with
// hujson.Standardize) and returns the Violations: nil when the document is
// valid. A Violation says where (Path, the keys and indexes from the
// root), what (Msg) and, for a key the schema does not allow, the key
// itself (Key). Where a value could take one of several shapes ("an
// action or a pattern map"), only the branches of the value's own kind are
// reported: a pattern map holding an unknown key is reported for that key,
// not also for being no action.
//
// # Keys
//
// Keys returns the keys a schema names for the object at a path, sorted:
// the candidates of a "did you mean". A path step is a key, or "*" for any
// key of a map the user names or any element of an array.
//
// # Faults
//
// A Go error from Validate, ValidateJSON or Keys is never a verdict on the
// document: it means the schemas could not be compiled, the bytes are not
// JSON, or Keys was asked about a path the schema does not describe. The
// schemas are compiled once, from this package's embedded files only (with
// github.com/santhosh-tekuri/jsonschema/v6, draft 2020-12): a $ref never
// reaches the network or the disk.
package schema
