package workloads

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// TestREADMEExampleWorkload: the workload file docs/user-guide.md shows under the
// marker is testdata/example.jsonl, word for word, and it reads: a
// history job, then an SLO and a best-effort job of the window.
func TestREADMEExampleWorkload(t *testing.T) {
	const marker = "<!-- workloads/testdata/example.jsonl -->\n```jsonl\n"
	readme, err := os.ReadFile("../docs/user-guide.md")
	if err != nil {
		t.Fatal(err)
	}
	_, block, ok := strings.Cut(string(readme), marker)
	if !ok {
		t.Fatalf("docs/user-guide.md has no %q", marker)
	}
	block, _, ok = strings.Cut(block, "```\n")
	if !ok {
		t.Fatal("docs/user-guide.md: the example's code block does not end")
	}
	file, err := os.ReadFile("testdata/example.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if block != string(file) {
		t.Errorf("docs/user-guide.md shows\n%s\ntestdata/example.jsonl holds\n%s", block, file)
	}
	w, err := Read(bytes.NewReader(file))
	if err != nil {
		t.Fatal(err)
	}
	if len(w.History) != 1 || len(w.Jobs) != 2 || w.Jobs[0].Class != SLO || w.Jobs[1].Class != BestEffort {
		t.Errorf("history %d jobs, window %+v; want one history job, then an SLO and a best-effort job", len(w.History), w.Jobs)
	}
}
