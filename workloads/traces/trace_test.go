package traces

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestByteOrderMark: a UTF-8 byte order mark before the first line of a
// CSV or SWF file is ignored, for every format read from one file.
func TestByteOrderMark(t *testing.T) {
	bom := "\uFEFF"
	tests := []struct {
		format, fixture string
		parse           func(r *strings.Reader, name string, opts ParseOptions) (*Trace, error)
	}{
		{FormatSWF, "small.swf", func(r *strings.Reader, name string, o ParseOptions) (*Trace, error) { return ParseSWF(r, name, o) }},
		{FormatAlibaba2018, "small-batch_task.csv", func(r *strings.Reader, name string, o ParseOptions) (*Trace, error) {
			return ParseAlibaba2018(r, name, o)
		}},
		{FormatMustang, "small-mustang.csv", func(r *strings.Reader, name string, o ParseOptions) (*Trace, error) {
			return ParseMustang(r, name, o)
		}},
	}
	for _, tc := range tests {
		t.Run(tc.format, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("testdata", tc.fixture))
			if err != nil {
				t.Fatal(err)
			}
			want, err := tc.parse(strings.NewReader(string(data)), tc.fixture, ParseOptions{})
			if err != nil {
				t.Fatal(err)
			}
			got, err := tc.parse(strings.NewReader(bom+string(data)), tc.fixture, ParseOptions{})
			if err != nil {
				t.Fatalf("with a byte order mark: %v", err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("with a byte order mark:\n%+v\nwant %+v", got, want)
			}
		})
	}
}
