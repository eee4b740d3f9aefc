package traces

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
)

// sniffLines is how many lines of a file Sniff parses.
const sniffLines = 50

// Sniff names the format of the raw trace at path, "" when path is not
// one Read takes (a workload file, say) or cannot be read: google2011
// for a directory with job_events/ or task_events/ in it; for a file,
// plain or gzip, the first of swf, mustang and alibaba2018 whose parser
// reads its first lines (up to 50) without an error and finds jobs in
// them. It lets a command that wants a workload file tell a user who
// gave it a trace to import it first.
func Sniff(path string) string {
	st, err := os.Stat(path)
	if err != nil {
		return ""
	}
	if st.IsDir() {
		for _, sub := range []string{"job_events", "task_events"} {
			if fi, err := os.Stat(filepath.Join(path, sub)); err == nil && fi.IsDir() {
				return FormatGoogle2011
			}
		}
		return ""
	}
	head, err := fileHead(path)
	if err != nil || len(head) == 0 {
		return ""
	}
	for _, p := range []struct {
		format string
		parse  func(io.Reader, string, ParseOptions) (*Trace, error)
	}{{FormatSWF, ParseSWF}, {FormatMustang, ParseMustang}, {FormatAlibaba2018, ParseAlibaba2018}} {
		t, err := p.parse(bytes.NewReader(head), path, ParseOptions{})
		if err == nil && len(t.Records)+t.FilteredTotal() > 0 {
			return p.format
		}
	}
	return ""
}

// fileHead is the first sniffLines whole lines of the file at path,
// decompressed when it is gzip.
func fileHead(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	br := bufio.NewReader(f)
	var r io.Reader = br
	if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, err
		}
		defer zr.Close()
		r = zr
	}
	buf := make([]byte, 64<<10)
	n, err := io.ReadFull(r, buf)
	if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
		return nil, err
	}
	head := buf[:n]
	if n == len(buf) { // cut at the last whole line
		head = head[:bytes.LastIndexByte(head, '\n')+1]
	}
	if i := nthIndex(head, '\n', sniffLines); i >= 0 {
		head = head[:i+1]
	}
	return head, nil
}

// nthIndex is the index of the n-th c in b, −1 when b has fewer.
func nthIndex(b []byte, c byte, n int) int {
	off := 0
	for range n {
		i := bytes.IndexByte(b[off:], c)
		if i < 0 {
			return -1
		}
		off += i + 1
	}
	return off - 1
}
