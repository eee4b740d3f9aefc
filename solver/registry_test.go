package solver

import (
	"slices"
	"strings"
	"testing"
)

// TestBackendTable: the table's rows of this build agree with New,
// Backends and LibraryVersions, and each row's worker engine matches its
// placement.
func TestBackendTable(t *testing.T) {
	want := []string{GreedyName}
	if cgoBuild {
		want = []string{CBCName, CLPName, GreedyName, LPSolveName}
	}
	if got := Backends(); !slices.Equal(got, want) {
		t.Fatalf("Backends() = %v, want %v", got, want)
	}
	libs := LibraryVersions()
	for _, b := range BackendTable() {
		s, err := New(b.Name)
		if err != nil || s.Name() != b.Name {
			t.Errorf("New(%q) = %v, %v", b.Name, s, err)
		}
		r, _ := lookup(b.Name)
		if (r.worker == nil) != (b.Placement == InProcess) {
			t.Errorf("%s: placement %v with worker engine %v", b.Name, b.Placement, r.worker != nil)
		}
		if b.Library != libs[b.Name] {
			t.Errorf("%s: library %q, LibraryVersions %q", b.Name, b.Library, libs[b.Name])
		}
		if (b.Library == "") != (r.library == "") || !strings.HasPrefix(b.Library, r.library) {
			t.Errorf("%s: library %q from row %q", b.Name, b.Library, r.library)
		}
	}
	if len(libs) != len(want)-1 {
		t.Errorf("LibraryVersions() = %v: one per C backend", libs)
	}
}

func TestNewUnknown(t *testing.T) {
	for _, name := range []string{"", "gurobi", "lp", "CLP"} {
		if _, err := New(name); err == nil || !strings.Contains(err.Error(), "this build has: ") {
			t.Errorf("New(%q): error %v", name, err)
		}
	}
}

func TestPlacementString(t *testing.T) {
	for p, want := range map[Placement]string{InProcess: "in process", LPInWorker: "in process, its LP in a worker", InWorker: "in a worker", 7: "Placement(7)"} {
		if got := p.String(); got != want {
			t.Errorf("%d: %q, want %q", int(p), got, want)
		}
	}
}
