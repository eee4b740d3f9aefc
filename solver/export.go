package solver

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// Exports for debugging: a model written with WriteLP or WriteMPS can be fed
// to the cbc, clp or lp_solve command-line tools (or any solver that reads
// these formats) and gives the same optimum as solving it in memory.
//
// Names: a variable or row keeps its name when it is a valid identifier in
// both formats; otherwise (empty, a space, a character outside letters,
// digits and !"#$%&()/,.;?@_`'{}|~, a leading digit or period, a leading
// e/E that reads as an exponent, a keyword) the name is rewritten (characters replaced by '_', a leading '_'
// added, or the fallback name VarName/RowName used), and repeated names get
// a "_<index>" suffix, so every exported name is unique. The objective row is
// named "obj". Bounds are exported as the engines load them: Binary columns
// within [0, 1].

// exportNames returns unique, format-safe names for the columns and rows.
func (m *Model) exportNames() (cols, rows []string) {
	used := map[string]bool{"obj": true}
	unique := func(name, fallback string, idx int) string {
		n := exportSafeName(name)
		if n == "" {
			n = exportSafeName(fallback)
		}
		if used[strings.ToLower(n)] {
			base := n
			for k := 0; used[strings.ToLower(n)]; k++ {
				n = base + "_" + strconv.Itoa(idx)
				if k > 0 {
					n += "_" + strconv.Itoa(k)
				}
			}
		}
		used[strings.ToLower(n)] = true
		return n
	}
	cols = make([]string, len(m.Vars))
	for j := range m.Vars {
		cols[j] = unique(m.Vars[j].Name, fmt.Sprintf("x%d", j), j)
	}
	rows = make([]string, len(m.Rows))
	for i := range m.Rows {
		rows[i] = unique(m.Rows[i].Name, fmt.Sprintf("r%d", i), i)
	}
	return cols, rows
}

// exportKeywords are words an LP or MPS reader may take for a keyword.
var exportKeywords = map[string]bool{
	"obj": true, "st": true, "s.t.": true, "st.": true, "subject": true, "such": true,
	"bounds": true, "bound": true, "free": true, "inf": true, "infinity": true,
	"general": true, "generals": true, "gen": true, "integer": true, "integers": true,
	"binary": true, "binaries": true, "bin": true, "end": true, "maximize": true,
	"minimize": true, "maximum": true, "minimum": true, "max": true, "min": true,
	"marker": true, "rhs": true, "bnd": true, "rng": true, "semi": true, "semis": true,
	"sos": true, "intorg": true, "intend": true,
}

func exportSafeName(s string) string {
	if s == "" {
		return ""
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9',
			strings.ContainsRune("!\"#$%&()/,.;?@_`'{}|~", r):
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	n := b.String()
	if c := n[0]; c >= '0' && c <= '9' || c == '.' || exportLooksNumeric(n) || exportKeywords[strings.ToLower(n)] {
		n = "_" + n
	}
	if len(n) > 255 {
		n = n[:255]
	}
	return n
}

// exportLooksNumeric reports a name an LP reader may take for an exponent:
// "e" or "E" alone or followed by a digit, sign, period or another e/E.
func exportLooksNumeric(n string) bool {
	if n[0] != 'e' && n[0] != 'E' {
		return false
	}
	return len(n) == 1 || strings.ContainsRune("0123456789+-.eE", rune(n[1]))
}

// exportBounds returns the bounds of column j as exported.
func exportBounds(v *Var) (lo, hi float64) {
	lo, hi = v.Lower, v.Upper
	if v.Kind == Binary {
		lo, hi = math.Max(lo, 0), math.Min(hi, 1)
	}
	return lo, hi
}

func exportNum(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// exportWriter remembers the first write error of a bufio.Writer sequence.
type exportWriter struct {
	w   *bufio.Writer
	err error
}

func (e *exportWriter) printf(format string, args ...any) {
	if e.err == nil {
		_, e.err = fmt.Fprintf(e.w, format, args...)
	}
}

func (e *exportWriter) str(s string) {
	if e.err == nil {
		_, e.err = e.w.WriteString(s)
	}
}

func (e *exportWriter) done() error {
	if e.err != nil {
		return e.err
	}
	return e.w.Flush()
}

// WriteLP writes m in CPLEX LP format. A term list is wrapped every 8 terms;
// the objective of a model without objective coefficients is written as
// "0 x" of its first column.
func (m *Model) WriteLP(w io.Writer) error {
	if err := m.Validate(); err != nil {
		return err
	}
	cols, rows := m.exportNames()
	e := &exportWriter{w: bufio.NewWriter(w)}
	name := m.Name
	if name == "" {
		name = "model"
	}
	e.printf("\\ Problem name: %s\n", strings.Map(func(r rune) rune {
		if r == '\n' || r == '\r' {
			return ' '
		}
		return r
	}, name))
	if m.Maximize {
		e.str("Maximize\n")
	} else {
		e.str("Minimize\n")
	}
	terms := func(idx []int, coef []float64) {
		n := 0
		for k, j := range idx {
			a := coef[k]
			if a == 0 {
				continue
			}
			if n > 0 && n%8 == 0 {
				e.str("\n  ")
			}
			if a < 0 {
				e.printf(" - %s %s", exportNum(-a), cols[j])
			} else {
				e.printf(" + %s %s", exportNum(a), cols[j])
			}
			n++
		}
		if n == 0 && len(cols) > 0 {
			e.printf(" 0 %s", cols[0])
		}
	}
	var oidx []int
	var ocoef []float64
	for j := range m.Vars {
		if m.Vars[j].Obj != 0 {
			oidx, ocoef = append(oidx, j), append(ocoef, m.Vars[j].Obj)
		}
	}
	e.str(" obj:")
	terms(oidx, ocoef)
	e.str("\nSubject To\n")
	for i := range m.Rows {
		r := &m.Rows[i]
		e.printf(" %s:", rows[i])
		terms(r.Index, r.Coef)
		op := "<="
		switch r.Sense {
		case GE:
			op = ">="
		case EQ:
			op = "="
		}
		e.printf(" %s %s\n", op, exportNum(r.RHS))
	}
	e.str("Bounds\n")
	var general, binary []string
	for j := range m.Vars {
		v := &m.Vars[j]
		lo, hi := exportBounds(v)
		if v.Kind == Binary && lo == 0 && hi == 1 {
			binary = append(binary, cols[j])
			continue
		}
		if v.Kind != Continuous {
			general = append(general, cols[j])
		}
		switch {
		case lo == hi:
			e.printf(" %s = %s\n", cols[j], exportNum(lo))
		case math.IsInf(lo, -1) && math.IsInf(hi, 1):
			e.printf(" %s free\n", cols[j])
		case math.IsInf(lo, -1):
			e.printf(" -inf <= %s <= %s\n", cols[j], exportNum(hi))
		case math.IsInf(hi, 1):
			if lo != 0 {
				e.printf(" %s >= %s\n", cols[j], exportNum(lo))
			}
		default:
			e.printf(" %s <= %s <= %s\n", exportNum(lo), cols[j], exportNum(hi))
		}
	}
	list := func(title string, names []string) {
		if len(names) == 0 {
			return
		}
		e.str(title + "\n")
		for k, n := range names {
			if k%8 == 0 {
				if k > 0 {
					e.str("\n")
				}
				e.str(" ")
			}
			e.str(" " + n)
		}
		e.str("\n")
	}
	list("General", general)
	list("Binary", binary)
	e.str("End\n")
	return e.done()
}

// WriteMPS writes m in free MPS format. MPS minimises; a maximisation is
// written as the minimisation of the negated objective (with a comment line
// saying so) because CBC's and CLP's MPS reader ignores an OBJSENSE section
// and would silently minimise. The optimum read back is then −(the model's).
// Integer and binary columns sit between MARKER INTORG/INTEND lines; every
// column appears in COLUMNS (with a 0 objective entry when it has no other);
// nonzero right-hand sides go to RHS; bounds are written as BV (a binary within [0, 1]), FX, FR,
// MI, LO, UP, and PL for an integer column without an upper bound (some
// readers default integers to an upper bound of 1).
func (m *Model) WriteMPS(w io.Writer) error {
	if err := m.Validate(); err != nil {
		return err
	}
	cols, rows := m.exportNames()
	e := &exportWriter{w: bufio.NewWriter(w)}
	name := exportSafeName(m.Name)
	if name == "" {
		name = "model"
	}
	e.printf("NAME %s\n", name)
	sign := 1.0
	if m.Maximize {
		// CBC's and CLP's MPS reader prints "MAX found after OBJSENSE - Coin
		// ignores" and minimises: write the minimisation of −objective instead.
		sign = -1
		e.str("* maximisation written as the minimisation of the negated objective\n")
	}
	e.str("ROWS\n N  obj\n")
	for i := range m.Rows {
		t := "L"
		switch m.Rows[i].Sense {
		case GE:
			t = "G"
		case EQ:
			t = "E"
		}
		e.printf(" %s  %s\n", t, rows[i])
	}
	// Column-major entries.
	type entry struct {
		row  int
		coef float64
	}
	byCol := make([][]entry, len(m.Vars))
	for i := range m.Rows {
		r := &m.Rows[i]
		for k, j := range r.Index {
			if r.Coef[k] != 0 {
				byCol[j] = append(byCol[j], entry{i, r.Coef[k]})
			}
		}
	}
	e.str("COLUMNS\n")
	inInt, markers := false, 0
	for j := range m.Vars {
		v := &m.Vars[j]
		isInt := v.Kind != Continuous
		if isInt != inInt {
			if isInt {
				e.printf("    MARKER%d 'MARKER' 'INTORG'\n", markers)
			} else {
				e.printf("    MARKER%d 'MARKER' 'INTEND'\n", markers)
			}
			markers++
			inInt = isInt
		}
		if v.Obj != 0 || len(byCol[j]) == 0 {
			e.printf("    %s obj %s\n", cols[j], exportNum(sign*v.Obj+0)) // +0: no "-0"
		}
		for _, en := range byCol[j] {
			e.printf("    %s %s %s\n", cols[j], rows[en.row], exportNum(en.coef))
		}
	}
	if inInt {
		e.printf("    MARKER%d 'MARKER' 'INTEND'\n", markers)
	}
	section := func(title string, started *bool) {
		if !*started {
			e.str(title + "\n")
			*started = true
		}
	}
	// Empty RHS and BOUNDS sections are left out (CBC's reader rejects an
	// empty BOUNDS section).
	var inRHS, inBounds bool
	for i := range m.Rows {
		if rhs := m.Rows[i].RHS; rhs != 0 {
			section("RHS", &inRHS)
			e.printf("    RHS %s %s\n", rows[i], exportNum(rhs))
		}
	}
	bnd := func(format string, args ...any) {
		section("BOUNDS", &inBounds)
		e.printf(format, args...)
	}
	for j := range m.Vars {
		v := &m.Vars[j]
		lo, hi := exportBounds(v)
		c := cols[j]
		switch {
		case v.Kind == Binary && lo == 0 && hi == 1:
			bnd(" BV BND %s\n", c)
		case lo == hi:
			bnd(" FX BND %s %s\n", c, exportNum(lo))
		case math.IsInf(lo, -1) && math.IsInf(hi, 1):
			bnd(" FR BND %s\n", c)
		default:
			if math.IsInf(lo, -1) {
				bnd(" MI BND %s\n", c)
			} else if lo != 0 {
				bnd(" LO BND %s %s\n", c, exportNum(lo))
			}
			if !math.IsInf(hi, 1) {
				bnd(" UP BND %s %s\n", c, exportNum(hi))
			} else if v.Kind != Continuous {
				bnd(" PL BND %s\n", c)
			}
		}
	}
	e.str("ENDATA\n")
	return e.done()
}
