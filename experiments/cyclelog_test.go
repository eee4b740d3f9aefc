package experiments

import (
	"reflect"
	"testing"
	"time"
)

// fillRecord sets every field of a CycleRecord (its stats' too) to a
// value made from seed, so that a field the log forgets shows.
func fillRecord(seed int) CycleRecord {
	var c CycleRecord
	k := 0
	var fill func(v reflect.Value)
	fill = func(v reflect.Value) {
		for i := range v.NumField() {
			f := v.Field(i)
			k++
			x := seed*100 + k
			switch f.Kind() {
			case reflect.Struct:
				fill(f)
			case reflect.Float64:
				f.SetFloat(float64(x) + 0.5)
			case reflect.Int, reflect.Int64:
				f.SetInt(int64(x)) // time.Duration too
			case reflect.Bool:
				f.SetBool((seed+k)%2 == 0)
			case reflect.String:
				if seed%3 == 0 {
					f.SetString("s" + time.Duration(x).String())
				}
			default:
				panic("fillRecord: a field of kind " + f.Kind().String() + "; teach cycleLog and this test")
			}
		}
	}
	fill(reflect.ValueOf(&c).Elem())
	return c
}

// TestCycleLog: the records come back as added, every field, across
// chunks, the stats' strings of the cycles that have them included.
func TestCycleLog(t *testing.T) {
	for _, n := range []int{0, 1, cycleChunk, cycleChunk + 3} {
		var l cycleLog
		want := make([]CycleRecord, n)
		for i := range want {
			want[i] = fillRecord(i)
			l.add(&want[i])
		}
		got := l.records()
		if n == 0 {
			want = nil
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%d records: they do not come back as added", n)
		}
	}
}
