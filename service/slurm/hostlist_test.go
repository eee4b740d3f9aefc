package slurm

import (
	"slices"
	"strings"
	"testing"
)

func TestExpandHostlist(t *testing.T) {
	tests := []struct {
		name, in string
		want     []string
	}{
		{"empty", "", nil},
		{"one", "n1", []string{"n1"}},
		{"list", "n1,n5", []string{"n1", "n5"}},
		{"range", "n[1-3]", []string{"n1", "n2", "n3"}},
		{"ranges and items", "n[1-2,5,7-8]", []string{"n1", "n2", "n5", "n7", "n8"}},
		{"as squeue prints", "n[5,7]", []string{"n5", "n7"}},
		{"padded", "c[08-10]", []string{"c08", "c09", "c10"}},
		{"suffix", "n[1-2]-ib", []string{"n1-ib", "n2-ib"}},
		{"two dimensions", "r[1-2]n[1-2]", []string{"r1n1", "r1n2", "r2n1", "r2n2"}},
		{"entries mixed", "a[1-2],b,c[3]", []string{"a1", "a2", "b", "c3"}},
		{"dash in a name", "gpu-n1", []string{"gpu-n1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ExpandHostlist(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("ExpandHostlist(%q) = %v, want %v", tt.in, got, tt.want)
			}
		})
	}
}

func TestExpandHostlistErrors(t *testing.T) {
	tests := []struct{ in, want string }{
		{"n[1-3", `hostlist "n[1-3": '[' without ']'`},
		{"n1-3]", `hostlist "n1-3]": ']' without '['`},
		{"n[[1]]", `hostlist "n[[1]]": nested '['`},
		{"n1,,n2", `hostlist "n1,,n2": empty entry`},
		{"n[3-1]", `hostlist "n[3-1]": range "3-1": its end is below its start`},
		{"n[a-b]", `hostlist "n[a-b]": range "a-b": want N or N-M with whole numbers`},
		{"n[1-]", `hostlist "n[1-]": range "1-": want N or N-M with whole numbers`},
		{"n[0-4000000000]", `hostlist "n[0-4000000000]": more than 1048576 names`},
		{"a[0-2000]b[0-2000]", `hostlist "a[0-2000]b[0-2000]": more than 1048576 names`},
	}
	for _, tt := range tests {
		_, err := ExpandHostlist(tt.in)
		if err == nil || err.Error() != tt.want {
			t.Errorf("ExpandHostlist(%q): error %v, want %q", tt.in, err, tt.want)
		}
	}
}

func FuzzExpandHostlist(f *testing.F) {
	for _, s := range []string{"n[1-3,7]", "r[1-2]n[01-04]", "a,b", "n[", "x[9-1]"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		names, err := ExpandHostlist(s)
		if err != nil {
			return
		}
		if len(names) > maxHostlist {
			t.Fatalf("%d names", len(names))
		}
		for _, n := range names {
			if strings.ContainsAny(n, ",[]") {
				t.Fatalf("name %q of %q holds a delimiter", n, s)
			}
		}
	})
}
