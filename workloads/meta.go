package workloads

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// MaxMetaBytes bounds one meta object (Header.Meta, Job.Meta) as written.
const MaxMetaBytes = 64 << 10

// CheckMeta reports whether m is a valid extension object: empty (none),
// or one JSON object of at most MaxMetaBytes.
func CheckMeta(m json.RawMessage) error {
	if len(m) == 0 {
		return nil
	}
	if len(m) > MaxMetaBytes {
		return fmt.Errorf("meta is %d bytes, more than %d", len(m), MaxMetaBytes)
	}
	b := bytes.TrimSpace(m)
	if len(b) == 0 || b[0] != '{' || !json.Valid(b) {
		return fmt.Errorf("meta must be a JSON object, got %.40s", b)
	}
	return nil
}

// CompactMeta is m without insignificant white space ("" for none), as
// the reports write it in one CSV cell.
func CompactMeta(m json.RawMessage) string {
	if len(m) == 0 {
		return ""
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, m); err != nil {
		return string(m)
	}
	return buf.String()
}
