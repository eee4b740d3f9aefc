package solver

import (
	"bytes"
	"errors"
	"math"
	"strings"
	"testing"
)

func exportSample() *Model {
	m := &Model{Name: "sample model", Maximize: true}
	a := m.AddVar("a", Binary, 0, 1, 3)
	b := m.AddVar("count y", Integer, 0, math.Inf(1), 2)
	c := m.AddVar("", Continuous, -math.Inf(1), 4.5, -1)
	d := m.AddVar("a", Continuous, -math.Inf(1), math.Inf(1), 0) // duplicate name, free
	e := m.AddVar("2e", Integer, -3, 7, 0)
	f := m.AddVar("fixed", Continuous, 2, 2, 1)
	g := m.AddVar("g", Binary, 0, 1, 0)
	m.Vars[g].Lower = 1 // a fixed binary is exported as a fixed integer
	m.AddRow("cap", []int{a, b, c}, []float64{1, 2, -1.5}, LE, 10)
	m.AddRow("", []int{d, e}, []float64{1, 1}, GE, -2)
	m.AddRow("link", []int{a, b, g}, []float64{4, -1, 0}, EQ, 0)
	m.AddRow("empty", nil, nil, LE, 5)
	_ = f
	return m
}

func TestExportLP(t *testing.T) {
	var buf bytes.Buffer
	if err := exportSample().WriteLP(&buf); err != nil {
		t.Fatal(err)
	}
	got := buf.String()
	want := `\ Problem name: sample model
Maximize
 obj: + 3 a + 2 count_y - 1 x2 + 1 fixed
Subject To
 cap: + 1 a + 2 count_y - 1.5 x2 <= 10
 r1: + 1 a_3 + 1 _2e >= -2
 link: + 4 a - 1 count_y = 0
 empty: 0 a <= 5
Bounds
 -inf <= x2 <= 4.5
 a_3 free
 -3 <= _2e <= 7
 fixed = 2
 g = 1
General
  count_y _2e g
Binary
  a
End
`
	if got != want {
		t.Fatalf("LP export:\n%s\nwant:\n%s", got, want)
	}
}

func TestExportMPS(t *testing.T) {
	var buf bytes.Buffer
	if err := exportSample().WriteMPS(&buf); err != nil {
		t.Fatal(err)
	}
	got := buf.String()
	want := `NAME sample_model
* maximisation written as the minimisation of the negated objective
ROWS
 N  obj
 L  cap
 G  r1
 E  link
 L  empty
COLUMNS
    MARKER0 'MARKER' 'INTORG'
    a obj -3
    a cap 1
    a link 4
    count_y obj -2
    count_y cap 2
    count_y link -1
    MARKER1 'MARKER' 'INTEND'
    x2 obj 1
    x2 cap -1.5
    a_3 r1 1
    MARKER2 'MARKER' 'INTORG'
    _2e r1 1
    MARKER3 'MARKER' 'INTEND'
    fixed obj -1
    MARKER4 'MARKER' 'INTORG'
    g obj 0
    MARKER5 'MARKER' 'INTEND'
RHS
    RHS cap 10
    RHS r1 -2
    RHS empty 5
BOUNDS
 BV BND a
 PL BND count_y
 MI BND x2
 UP BND x2 4.5
 FR BND a_3
 LO BND _2e -3
 UP BND _2e 7
 FX BND fixed 2
 FX BND g 1
ENDATA
`
	if got != want {
		t.Fatalf("MPS export:\n%s\nwant:\n%s", got, want)
	}
}

func TestExportNames(t *testing.T) {
	m := &Model{}
	for _, n := range []string{"x1", "x1", "", "end", "free", "obj", "a b", "é", ".5", "x2_1", "e1", "E", "emax"} {
		m.AddVar(n, Continuous, 0, 1, 1)
	}
	cols, _ := m.exportNames()
	seen := map[string]bool{}
	for j, c := range cols {
		if c == "" || strings.ContainsAny(c, " \t\n") || seen[strings.ToLower(c)] || exportKeywords[strings.ToLower(c)] {
			t.Fatalf("column %d: bad export name %q (all %q)", j, c, cols)
		}
		if ch := c[0]; ch >= '0' && ch <= '9' || ch == '.' || exportLooksNumeric(c) {
			t.Fatalf("column %d: name %q starts with %q", j, c, ch)
		}
		seen[strings.ToLower(c)] = true
	}
	if cols[0] != "x1" || cols[2] != "x2" {
		t.Fatalf("names %q", cols)
	}
}

type failWriter struct{}

func (failWriter) Write(p []byte) (int, error) { return 0, errors.New("disk full") }

func TestExportErrors(t *testing.T) {
	bad := &Model{}
	bad.AddVar("", Continuous, 0, math.NaN(), 1)
	var buf bytes.Buffer
	if err := bad.WriteLP(&buf); !errors.Is(err, ErrInvalidModel) {
		t.Fatalf("WriteLP of an invalid model: %v", err)
	}
	if err := bad.WriteMPS(&buf); !errors.Is(err, ErrInvalidModel) {
		t.Fatalf("WriteMPS of an invalid model: %v", err)
	}
	big := &Model{}
	for range 10000 {
		big.AddVar("", Integer, 0, 10, 1)
	}
	if err := big.WriteLP(failWriter{}); err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Fatalf("WriteLP write error: %v", err)
	}
	if err := big.WriteMPS(failWriter{}); err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Fatalf("WriteMPS write error: %v", err)
	}
}
