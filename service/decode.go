package service

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// apiError is an answer other than success: the HTTP status, and for a
// bad request the field it names (a JSON path: "nodes",
// "partitions[1].drained").
type apiError struct {
	status int
	field  string
	msg    string
}

func (e *apiError) Error() string {
	if e.field != "" {
		return e.field + ": " + e.msg
	}
	return e.msg
}

// badField is a 400 naming field.
func badField(field, format string, args ...any) *apiError {
	return &apiError{status: http.StatusBadRequest, field: field, msg: fmt.Sprintf(format, args...)}
}

// conflict is a 409: the request is well formed but the state forbids it.
func conflict(format string, args ...any) *apiError {
	return &apiError{status: http.StatusConflict, msg: fmt.Sprintf(format, args...)}
}

func notFound(format string, args ...any) *apiError {
	return &apiError{status: http.StatusNotFound, msg: fmt.Sprintf(format, args...)}
}

// Body size limits (bytes): a job or an event is a few hundred bytes; a
// history batch may carry many thousand runs.
const (
	maxBody        = 64 << 10
	maxHistoryBody = 16 << 20
)

// decodeBody reads one JSON object from r's body into v: unknown fields,
// wrong types, trailing data, invalid UTF-8 (which the decoder would
// replace with U+FFFD), a negative zero and a body over limit bytes are
// errors that name the field where there is one. A body whose
// Content-Length is over the limit is refused before any of it is read
// (so a client that sent Expect: 100-continue never sends it).
func decodeBody(w http.ResponseWriter, r *http.Request, limit int64, v any) *apiError {
	if r.ContentLength > limit {
		w.Header().Set("Connection", "close")
		return tooLarge(limit)
	}
	b, err := io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
	if err != nil {
		var mb *http.MaxBytesError
		if errors.As(err, &mb) {
			return tooLarge(limit)
		}
		return badField("", "body: %v", err)
	}
	if !utf8.Valid(b) {
		return badField("", "body: not valid UTF-8")
	}
	if at := negativeZero(b); at >= 0 {
		return badField("", "body: -0 at byte %d: a negative zero is not a value", at)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return jsonError(err, limit)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return badField("", "body: more than one JSON value")
	}
	return nil
}

// negativeZero returns the offset of the first number outside the
// strings of the JSON text b whose sign (not an exponent's) is minus and whose digits before
// any exponent are all zero (-0, -0.0, -0e5), or -1.
func negativeZero(b []byte) int {
	inString, escaped := false, false
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case inString && escaped:
			escaped = false
		case inString && c == '\\':
			escaped = true
		case c == '"':
			inString = !inString
		case !inString && c == '-' && (i == 0 || b[i-1] != 'e' && b[i-1] != 'E'):
			zero := true
			j := i + 1
			for ; j < len(b) && (b[j] >= '0' && b[j] <= '9' || b[j] == '.'); j++ {
				zero = zero && (b[j] == '0' || b[j] == '.')
			}
			if zero && j > i+1 {
				return i
			}
		}
	}
	return -1
}

func tooLarge(limit int64) *apiError {
	return &apiError{status: http.StatusRequestEntityTooLarge, msg: fmt.Sprintf("body: larger than %d bytes", limit)}
}

// jsonError turns a decoding error into a 400 naming the field.
func jsonError(err error, limit int64) *apiError {
	var (
		syn *json.SyntaxError
		typ *json.UnmarshalTypeError
		mb  *http.MaxBytesError
	)
	switch {
	case errors.As(err, &mb):
		return tooLarge(limit)
	case errors.Is(err, io.EOF):
		return badField("", "body: empty; a JSON object is required")
	case errors.Is(err, io.ErrUnexpectedEOF):
		return badField("", "body: the JSON ends early")
	case errors.As(err, &syn):
		return badField("", "body: malformed JSON at byte %d: %v", syn.Offset, syn)
	case errors.As(err, &typ):
		field := typ.Field
		if field == "" {
			return badField("", "body: want a JSON object, got %s", typ.Value)
		}
		return badField(field, "want %s, got %s", typeName(typ.Type.String()), typ.Value)
	}
	if name, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
		return badField(strings.Trim(name, `"`), "unknown field")
	}
	return badField("", "body: %v", err)
}

// typeName says a Go type as a JSON type.
func typeName(goType string) string {
	switch strings.TrimLeft(goType, "*[]") {
	case "int", "int64", "uint64":
		return "a whole number"
	case "float64":
		return "a number"
	case "string":
		return "a string"
	case "bool":
		return "true or false"
	}
	if strings.HasPrefix(goType, "[]") {
		return "a list"
	}
	return "an object"
}

// parseTime reads an RFC 3339 time of field.
func parseTime(field, s string) (time.Time, *apiError) {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}, badField(field, "want an RFC 3339 time such as 2026-01-02T15:04:05Z, got %q", clip(s))
	}
	if t.Year() < 1900 || t.Year() > 9999 {
		return time.Time{}, badField(field, "year %d outside 1900–9999", t.Year())
	}
	return t, nil
}

// Bounds of the strings a client sends.
const (
	maxIDLen     = 128
	maxLabelLen  = 256  // user, name, app, resources, partition names
	maxReasonLen = 1024 // an event's reason
)

// checkID checks a job id: 1–128 characters of letters, digits and
// . _ : @ + -, starting with a letter or digit (so that it is a path
// segment as it is).
func checkID(field, id string) *apiError {
	if id == "" {
		return badField(field, "required")
	}
	if len(id) > maxIDLen {
		return badField(field, "longer than %d characters", maxIDLen)
	}
	for i, c := range id {
		ok := c < utf8.RuneSelf && (unicode.IsLetter(c) || unicode.IsDigit(c) || (i > 0 && strings.ContainsRune("._:@+-", c)))
		if !ok {
			return badField(field, "%q: use letters, digits and . _ : @ + -, starting with a letter or digit", clip(id))
		}
	}
	return nil
}

// checkLabel checks a free-text label: valid UTF-8 without control
// characters, at most max bytes.
func checkLabel(field, s string, max int) *apiError {
	if len(s) > max {
		return badField(field, "longer than %d bytes", max)
	}
	if !utf8.ValidString(s) {
		return badField(field, "not valid UTF-8")
	}
	for _, c := range s {
		if unicode.IsControl(c) {
			return badField(field, "holds a control character")
		}
	}
	return nil
}

// clip shortens s for an error message.
func clip(s string) string {
	const n = 40
	if len(s) <= n {
		return s
	}
	for i := n; i > 0; i-- {
		if utf8.RuneStart(s[i]) {
			return s[:i] + "…"
		}
	}
	return ""
}
