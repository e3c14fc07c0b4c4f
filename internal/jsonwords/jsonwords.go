// Package jsonwords words a JSON decoding error for the person who wrote
// the JSON, in JSON's own words rather than Go's types.
package jsonwords

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
)

// Problem words a JSON decoding error for the person who wrote the
// JSON: the key and the kinds of value in JSON's own words ("an array",
// "an object"), never Go's types (json: cannot unmarshal array into Go
// value of type map[string]interface {}). Any other error is returned as
// it is.
func Problem(err error) error {
	var typeErr *json.UnmarshalTypeError
	var syntaxErr *json.SyntaxError
	switch {
	case errors.As(err, &typeErr):
		got, _, _ := strings.Cut(typeErr.Value, " ") // "number 1e999" is a number
		if typeErr.Field == "" {
			return fmt.Errorf("it is %s; it must be %s", jsonKind(got), jsonKindOf(typeErr.Type))
		}
		return fmt.Errorf("%q is %s; it must be %s", typeErr.Field, jsonKind(got), jsonKindOf(typeErr.Type))
	case errors.As(err, &syntaxErr):
		return fmt.Errorf("not valid JSON at byte %d: %s", syntaxErr.Offset, syntaxErr.Error())
	case errors.Is(err, io.ErrUnexpectedEOF):
		return errors.New("the JSON ends before it is complete")
	case errors.Is(err, io.EOF):
		return errors.New("no JSON was given")
	}
	return err
}

// jsonKind is a JSON kind as encoding/json names it, with its article.
func jsonKind(kind string) string {
	switch kind {
	case "object", "array":
		return "an " + kind
	case "bool":
		return "a boolean"
	case "":
		return "a value of another kind"
	}
	return "a " + kind // string, number
}

// jsonKindOf is the JSON kind a Go type is decoded from.
func jsonKindOf(t reflect.Type) string {
	if t == nil {
		return "a value of another kind"
	}
	switch t.Kind() {
	case reflect.Map, reflect.Struct:
		return "an object"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Pointer:
		return jsonKindOf(t.Elem())
	}
	return "a value of another kind"
}
