package traces

import (
	"bytes"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plannerhq/planner/workloads"
)

// The fuzz targets check that no parser panics on any input, that a parser
// either accepts a line or reports it as a *ParseError, that every record
// it returns is usable (checkTrace), and that Build turns any accepted
// trace into a valid workload or a clear error. Seeds are the fixtures in
// testdata/ plus a few edge lines; crashers found are kept in
// testdata/fuzz/.

func addFile(f *testing.F, parts ...string) []byte {
	data, err := os.ReadFile(filepath.Join(append([]string{"testdata"}, parts...)...))
	if err != nil {
		f.Fatal(err)
	}
	return data
}

func FuzzParseSWF(f *testing.F) {
	f.Add(addFile(f, "small.swf"))
	f.Add([]byte("; MaxProcs: 0\n; UnixStartTime: -1099511627776\n1 1099511627776 0 1 1 -1 -1 1 -1 -1 1 1 1 1 1 1 -1 -1\n"))
	f.Add([]byte("; TimeZoneString: Local\n; TimeZone: 50400\n1 0 0 1e-9 1 -1 -1 1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		checkParser(t, data, ParseSWF)
	})
}

func FuzzParseMustang(f *testing.F) {
	f.Add(addFile(f, "small-mustang.csv"))
	f.Add([]byte("1,1,0,0,4102444800,99999-23:59:59,completed,2147483648,\n"))
	f.Add([]byte("\"a\"\"b\",,2011-01-01T00:00:00Z,2011-01-01T00:00:00+14:00,2011-01-01 00:00:01,1e8,COMPLETED,1.0,\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		checkParser(t, data, ParseMustang)
	})
}

func FuzzParseBatsim(f *testing.F) {
	f.Add(addFile(f, "batsim-50.json"))
	f.Add([]byte(`{"nb_res":1,"jobs":[{"id":1e300,"subtime":1e12,"res":1099511627776,"walltime":1e300,"profile":"p"}],"profiles":{"p":{"type":"delay","delay":1e-300}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		checkJSONParser(t, data, ParseBatsim)
	})
}

func FuzzParseSacct(f *testing.F) {
	f.Add(addFile(f, "sacct-20.txt"))
	f.Add(addFile(f, "sacct.json"))
	f.Add([]byte("1|u|p|9999-12-31T23:59:59|9999-12-31T23:59:59|Unknown|99999-23:59:59|UNLIMITED|1099511627776|0|COMPLETED|n|a\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if b := bytes.TrimLeft(bytes.TrimPrefix(data, utf8BOM), " \t\r\n"); len(b) > 0 && b[0] == '{' {
			checkJSONParser(t, data, ParseSacct)
			return
		}
		checkParser(t, data, ParseSacct)
	})
}

// checkJSONParser is checkParser for a format read whole (JSON): any
// error is allowed, an accepted trace must be usable.
func checkJSONParser(t *testing.T, data []byte, parse parseFunc) {
	tr, err := parse(bytes.NewReader(data), "fuzz", ParseOptions{})
	if err == nil {
		checkTrace(t, tr)
	}
}

func FuzzParseAlibaba2018(f *testing.F) {
	f.Add(addFile(f, "small-batch_task.csv"))
	f.Add([]byte("M1_1_1,0,j,1,Terminated,1,1,,\nM99999999999999999999,1,j,1,Terminated,1,1099511627776,,\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		checkParser(t, data, ParseAlibaba2018)
	})
}

func FuzzParseGoogle2011(f *testing.F) {
	// Short seeds (the fixture's jobs 2 and 6): minimising a new input
	// takes time in proportion to its length.
	f.Add([]byte("600000000,,2,0,userB,3,n2,logB\n1300000000,,6,0,userC,0,n6,logD\n1500000000,,2,4,userB,3,n2,logB\n1800000000,,6,4,userC,0,n6,logD\n"),
		[]byte("700000000,,2,0,m1,1,userB,3,9,0.01,0.02,0.0001,0\n800000000,,2,0,m1,4,userB,3,9,0.01,0.02,0.0001,0\n"+
			"760000000,,2,1,m2,1,userB,3,9,0.01,0.02,0.0001,0\n960000000,,2,1,m4,4,userB,3,9,0.01,0.02,0.0001,0\n"+
			"1500000000,,6,0,m1,4,userC,0,0,0.01,0.02,0.0001,0\n"))
	f.Add([]byte("1,,1,0,,,,\n"), []byte("1,,1,0,,1,,,,,,,\n2,,1,0,,4,,,,,,,\n"))
	f.Fuzz(func(t *testing.T, jobEvents, taskEvents []byte) {
		checkParser(t, nil, func(_ io.Reader, name string, opts ParseOptions) (*Trace, error) {
			g := newGoogle2011(name, &opts)
			if err := g.jobEvents(bytes.NewReader(jobEvents), "job_events.csv"); err != nil {
				return nil, err
			}
			if err := g.taskEvents(bytes.NewReader(taskEvents), "task_events.csv"); err != nil {
				return nil, err
			}
			return g.finish(), nil
		})
	})
}

type parseFunc func(io.Reader, string, ParseOptions) (*Trace, error)

// checkParser parses data strictly and with SkipBad and checks the results.
func checkParser(t *testing.T, data []byte, parse parseFunc) {
	for _, skip := range []bool{false, true} {
		tr, err := parse(bytes.NewReader(data), "fuzz", ParseOptions{SkipBad: skip})
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) || pe.Line < 1 {
				t.Fatalf("skip %v: error %v is not a ParseError with a line", skip, err)
			}
			if skip && !strings.Contains(err.Error(), "longer than") {
				t.Fatalf("--skip-bad failed on %v", err)
			}
			continue
		}
		checkTrace(t, tr)
	}
}

// checkTrace checks every record is usable and Build's result.
func checkTrace(t *testing.T, tr *Trace) {
	t.Helper()
	for i, r := range tr.Records {
		f := r.Features
		switch {
		case !workloads.Finite(r.Submit), !workloads.Finite(r.Runtime) || r.Runtime <= 0, r.Size < 1,
			!workloads.Finite(r.Requested) || r.Requested < 0,
			f.SubmitHour < 0 || f.SubmitHour > 23, f.SubmitDay < 0 || f.SubmitDay > 6:
			t.Fatalf("record %d unusable: %+v", i, r)
		}
		for _, d := range r.TaskDurations {
			if !workloads.Finite(d) || d < 0 {
				t.Fatalf("record %d task duration %v", i, d)
			}
		}
	}
	for _, o := range []Options{DefaultOptions(), func() Options {
		o := DefaultOptions()
		o.StartHours, o.Hours, o.Fit, o.Load, o.Nodes, o.Racks = 0, 0, FitDrop, 1.4, 8, 2
		return o
	}(), func() Options {
		// A window cut to a load: its load within the band, or an error.
		o := DefaultOptions()
		o.StartHours, o.Hours, o.Load, o.Nodes, o.Racks = 0, 0.05, 0.5, 8, 2
		return o
	}()} {
		w, rep, err := Build(tr, o)
		if err != nil {
			if strings.Contains(err.Error(), "bug") {
				t.Fatalf("Build: %v", err)
			}
			continue
		}
		if err := w.Validate(); err != nil {
			t.Fatalf("Build returned an invalid workload: %v", err)
		}
		if o.Hours > 0 && o.Load > 0 && (math.Abs(rep.Load-o.Load) > loadBand(o.Load)+1e-9 || w.Header.WindowS != o.Hours*3600) {
			t.Fatalf("window of %v s at load %v, want %v s at %v ± %v", w.Header.WindowS, rep.Load, o.Hours*3600, o.Load, loadBand(o.Load))
		}
	}
}
