package workloads

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// The values of a cluster file, read from JSON or YAML into one tree of
// cnodes with their lines, so that the reader (clusterOf) checks both
// formats with the same rules and names the line of every problem.

// nodeKind is the kind of a cluster file's value.
type nodeKind int

const (
	kObject nodeKind = iota
	kList
	kString
	kNumber
	kBool
	kNull
)

// cnode is one value of a cluster file, from JSON or YAML: an object (keys
// in file order), a list, or a scalar with its text.
type cnode struct {
	kind  nodeKind
	line  int
	text  string
	keys  []*cnode // the key strings, with their lines
	vals  []*cnode
	items []*cnode
}

// describe is the value as an error shows it.
func (n *cnode) describe() string {
	switch n.kind {
	case kObject:
		return "an object"
	case kList:
		return "a list"
	case kString:
		return strconv.Quote(n.text)
	case kNull:
		return "null"
	}
	return n.text
}

func errAt(n *cnode, field, format string, args ...any) error {
	line := 0
	if n != nil {
		line = n.line
	}
	return &ClusterError{Line: line, Field: field, Problem: fmt.Sprintf(format, args...)}
}

// jsonTree parses one JSON value (and nothing after it).
func jsonTree(data []byte) (*cnode, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, &ClusterError{Problem: "empty file, want a cluster description"}
	}
	lines := newLineIndex(data)
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	p := &jsonParser{dec: dec, lines: lines}
	root, err := p.value(0)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, &ClusterError{Line: lines.at(dec.InputOffset()), Problem: "bad JSON: data after the cluster's object"}
	}
	return root, nil
}

type jsonParser struct {
	dec   *json.Decoder
	lines lineIndex
}

func (p *jsonParser) token() (json.Token, int, error) {
	t, err := p.dec.Token()
	line := p.lines.at(p.dec.InputOffset())
	if err != nil {
		var syn *json.SyntaxError
		switch {
		case errors.As(err, &syn):
			return nil, 0, &ClusterError{Line: p.lines.at(syn.Offset), Problem: "bad JSON: " + syn.Error()}
		case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
			return nil, 0, &ClusterError{Line: line, Problem: "bad JSON: the file ends inside a value"}
		}
		return nil, 0, &ClusterError{Line: line, Problem: "bad JSON: " + err.Error()}
	}
	return t, line, nil
}

func (p *jsonParser) value(depth int) (*cnode, error) {
	t, line, err := p.token()
	if err != nil {
		return nil, err
	}
	return p.valueFrom(t, line, depth)
}

func (p *jsonParser) valueFrom(t json.Token, line, depth int) (*cnode, error) {
	if depth > maxClusterDepth {
		return nil, &ClusterError{Line: line, Problem: fmt.Sprintf("values nested deeper than %d levels", maxClusterDepth)}
	}
	switch v := t.(type) {
	case json.Delim:
		switch v {
		case '{':
			n := &cnode{kind: kObject, line: line}
			for p.dec.More() {
				kt, kline, err := p.token()
				if err != nil {
					return nil, err
				}
				key, _ := kt.(string) // the decoder checks that keys are strings
				for _, k := range n.keys {
					if k.text == key {
						return nil, &ClusterError{Line: kline, Problem: fmt.Sprintf("key %q given twice (first on line %d)", key, k.line)}
					}
				}
				val, err := p.value(depth + 1)
				if err != nil {
					return nil, err
				}
				n.keys = append(n.keys, &cnode{kind: kString, line: kline, text: key})
				n.vals = append(n.vals, val)
			}
			if _, _, err := p.token(); err != nil { // '}'
				return nil, err
			}
			return n, nil
		case '[':
			n := &cnode{kind: kList, line: line}
			for p.dec.More() {
				item, err := p.value(depth + 1)
				if err != nil {
					return nil, err
				}
				n.items = append(n.items, item)
			}
			if _, _, err := p.token(); err != nil { // ']'
				return nil, err
			}
			return n, nil
		}
	case string:
		return &cnode{kind: kString, line: line, text: v}, nil
	case json.Number:
		return &cnode{kind: kNumber, line: line, text: v.String()}, nil
	case bool:
		return &cnode{kind: kBool, line: line, text: strconv.FormatBool(v)}, nil
	case nil:
		return &cnode{kind: kNull, line: line, text: "null"}, nil
	}
	return nil, &ClusterError{Line: line, Problem: fmt.Sprintf("bad JSON: unexpected %v", t)}
}

// lineIndex finds the line of a byte offset.
type lineIndex []int64 // offsets of the newlines

func newLineIndex(data []byte) lineIndex {
	var idx lineIndex
	for i, b := range data {
		if b == '\n' {
			idx = append(idx, int64(i))
		}
	}
	return idx
}

// at is the 1-based line of the byte before offset (the end of a token).
func (l lineIndex) at(offset int64) int {
	return 1 + sort.Search(len(l), func(i int) bool { return l[i] >= offset-1 })
}

// yamlErrLine is the line yaml.v3 names in its errors.
var yamlErrLine = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// yamlTree parses one YAML document.
func yamlTree(data []byte) (*cnode, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, &ClusterError{Problem: "empty file, want a cluster description"}
		}
		return nil, yamlError(err)
	}
	var next yaml.Node
	if err := dec.Decode(&next); !errors.Is(err, io.EOF) {
		if err != nil {
			return nil, yamlError(err)
		}
		line := next.Line
		if len(next.Content) > 0 {
			line = next.Content[0].Line
		}
		return nil, &ClusterError{Line: line, Problem: "more than one YAML document, want one"}
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 {
		return nil, &ClusterError{Line: doc.Line, Problem: "want one YAML document"}
	}
	return yamlValue(doc.Content[0], 0)
}

// yamlError is a YAML syntax error as a *ClusterError, on one line.
func yamlError(err error) error {
	msg := strings.ReplaceAll(err.Error(), "\n", "; ")
	if m := yamlErrLine.FindStringSubmatch(msg); m != nil {
		line, _ := strconv.Atoi(m[1])
		return &ClusterError{Line: line, Problem: "bad YAML: " + m[2]}
	}
	return &ClusterError{Problem: "bad YAML: " + strings.TrimPrefix(msg, "yaml: ")}
}

func yamlValue(n *yaml.Node, depth int) (*cnode, error) {
	if depth > maxClusterDepth {
		return nil, &ClusterError{Line: n.Line, Problem: fmt.Sprintf("values nested deeper than %d levels", maxClusterDepth)}
	}
	switch n.Kind {
	case yaml.MappingNode:
		c := &cnode{kind: kObject, line: n.Line}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if k.Kind != yaml.ScalarNode {
				return nil, &ClusterError{Line: k.Line, Problem: "a key that is not a plain name"}
			}
			if k.ShortTag() == "!!merge" {
				return nil, &ClusterError{Line: k.Line, Problem: "merge keys (<<) are not read; write the keys out"}
			}
			for _, seen := range c.keys {
				if seen.text == k.Value {
					return nil, &ClusterError{Line: k.Line, Problem: fmt.Sprintf("key %q given twice (first on line %d)", k.Value, seen.line)}
				}
			}
			val, err := yamlValue(v, depth+1)
			if err != nil {
				return nil, err
			}
			c.keys = append(c.keys, &cnode{kind: kString, line: k.Line, text: k.Value})
			c.vals = append(c.vals, val)
		}
		return c, nil
	case yaml.SequenceNode:
		c := &cnode{kind: kList, line: n.Line}
		for _, item := range n.Content {
			v, err := yamlValue(item, depth+1)
			if err != nil {
				return nil, err
			}
			c.items = append(c.items, v)
		}
		return c, nil
	case yaml.ScalarNode:
		switch n.ShortTag() {
		case "!!str", "!!timestamp":
			return &cnode{kind: kString, line: n.Line, text: n.Value}, nil
		case "!!int", "!!float":
			return &cnode{kind: kNumber, line: n.Line, text: n.Value}, nil
		case "!!bool":
			return &cnode{kind: kBool, line: n.Line, text: n.Value}, nil
		case "!!null":
			return &cnode{kind: kNull, line: n.Line, text: "null"}, nil
		}
		return nil, &ClusterError{Line: n.Line, Problem: fmt.Sprintf("a value of YAML type %s (%q), want a string, number or boolean", n.ShortTag(), n.Value)}
	case yaml.AliasNode:
		return nil, &ClusterError{Line: n.Line, Problem: fmt.Sprintf("alias *%s: anchors and aliases are not read; write the value out", n.Value)}
	}
	return nil, &ClusterError{Line: n.Line, Problem: "an unexpected YAML node"}
}
