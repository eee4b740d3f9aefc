package planner

import "testing"

func TestTimingNames(t *testing.T) {
	for _, tm := range []Timing{OnCycle, OnEvents} {
		got, err := ParseTiming(tm.String())
		if err != nil || got != tm {
			t.Errorf("ParseTiming(%q) = %v, %v; want %v", tm.String(), got, err, tm)
		}
	}
	if OnCycle.String() != "cycle" || OnEvents.String() != "events" {
		t.Errorf("names %q, %q", OnCycle, OnEvents)
	}
	if _, err := ParseTiming("periodic"); err == nil || err.Error() != `unknown decision timing "periodic" (want cycle or events)` {
		t.Errorf("ParseTiming(periodic): %v", err)
	}
	if s := Timing(7).String(); s != "Timing(7)" {
		t.Errorf("Timing(7) is %q", s)
	}
}
