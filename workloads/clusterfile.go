package workloads

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// A cluster file describes a cluster (Cluster) in JSON or YAML, with the
// same keys in both:
//
//	name: rc256            # optional: the cluster's name
//	slowdown: 1.5          # optional (default 1.5): runtime factor off a
//	                       # job's preferred partitions, ≥ 1
//	classes:               # optional: node classes
//	  - name: std          # required, distinct
//	    speed: 1.0         # optional (default 1): a job runs runtime/speed
//	partitions:            # required, ≥ 1, in partition order
//	  - name: r0           # optional (default r0, r1, …), distinct
//	    nodes: 32          # required, a whole number ≥ 1
//	    class: std         # optional: a class of classes; or instead
//	    speed: 1.0         # optional: the speed itself (default 1)
//
// Unknown keys, a key given twice, a value of the wrong kind, node counts
// below 1, speeds ≤ 0 (or outside [MinSpeed, MaxSpeed]), a slowdown below 1
// (or above MaxSlowdown), names given twice, a partition naming a class the
// file does not define or giving both class and speed are errors
// (*ClusterError) naming the field and the value. Whole numbers and
// numbers are decimal. YAML anchors and aliases are not read.

// Formats of a cluster file (ParseCluster).
const (
	ClusterJSON = "json"
	ClusterYAML = "yaml"
)

// maxClusterFileBytes bounds a cluster file: 2¹⁶ partitions of about 60
// bytes each fit.
const maxClusterFileBytes = 16 << 20

// maxClusterDepth bounds the nesting of a cluster file's values; the
// format needs three levels.
const maxClusterDepth = 32

// ClusterSpec is a cluster file's description of a cluster, as its keys
// name it. Spec gives a Cluster's, resolved: every partition with its
// name, nodes and speed, no classes.
type ClusterSpec struct {
	Name       string          `json:"name,omitempty"`
	Slowdown   float64         `json:"slowdown"`
	Classes    []NodeClass     `json:"classes,omitempty"`
	Partitions []PartitionSpec `json:"partitions"`
}

// NodeClass is a class of nodes: its name and speed factor.
type NodeClass struct {
	Name  string  `json:"name"`
	Speed float64 `json:"speed"`
}

// PartitionSpec is one partition of a cluster file: its name, nodes, and
// its class or its speed (a zero Speed is not given).
type PartitionSpec struct {
	Name  string  `json:"name"`
	Nodes int     `json:"nodes"`
	Class string  `json:"class,omitempty"`
	Speed float64 `json:"speed,omitempty"`
}

// Spec is c as a cluster file describes it, resolved: its name and
// slowdown, and each partition with its name, nodes and speed. Written as
// JSON or YAML it is a cluster file that reads back as c (Canonical).
func (c Cluster) Spec() ClusterSpec {
	s := ClusterSpec{Name: c.Name, Slowdown: c.Slowdown, Partitions: make([]PartitionSpec, len(c.PartitionNodes))}
	for r, n := range c.PartitionNodes {
		s.Partitions[r] = PartitionSpec{Name: c.PartitionName(r), Nodes: n, Speed: c.Speed(r)}
	}
	return s
}

// ClusterError is a problem of a cluster file: the line it is on (0 when
// unknown), the field (a path such as "partitions[2].nodes"; empty for the
// whole file) and what is wrong with its value. It matches ErrInvalid.
type ClusterError struct {
	Line    int
	Field   string
	Problem string
}

func (e *ClusterError) Error() string {
	var b strings.Builder
	if e.Line > 0 {
		fmt.Fprintf(&b, "line %d: ", e.Line)
	}
	if e.Field != "" {
		b.WriteString(e.Field + ": ")
	}
	b.WriteString(e.Problem)
	return b.String()
}

// Is reports target == ErrInvalid.
func (e *ClusterError) Is(target error) bool { return target == ErrInvalid }

// ReadClusterFile reads the cluster file path: YAML when its name ends in
// .yaml or .yml, JSON when in .json, otherwise JSON when its first
// non-blank character is '{' and YAML else. Errors name the path.
func ReadClusterFile(path string) (Cluster, error) {
	f, err := os.Open(path)
	if err != nil {
		return Cluster{}, err
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.IsDir() {
		return Cluster{}, fmt.Errorf("%s: is a directory, want a cluster file", path)
	}
	data, err := io.ReadAll(io.LimitReader(f, maxClusterFileBytes+1))
	if err != nil {
		return Cluster{}, fmt.Errorf("%s: %w", path, err)
	}
	if len(data) > maxClusterFileBytes {
		return Cluster{}, fmt.Errorf("%s: larger than %d MiB, too large for a cluster file: %w", path, maxClusterFileBytes>>20, ErrInvalid)
	}
	format := ClusterYAML
	switch strings.ToLower(filepath.Ext(path)) {
	case ".json":
		format = ClusterJSON
	case ".yaml", ".yml":
	default:
		if t := bytes.TrimLeft(data, " \t\r\n"); len(t) > 0 && t[0] == '{' {
			format = ClusterJSON
		}
	}
	c, err := ParseCluster(data, format)
	if err != nil {
		return Cluster{}, fmt.Errorf("%s: %w", path, err)
	}
	return c, nil
}

// ParseCluster reads a cluster file's content in format (ClusterJSON or
// ClusterYAML) and returns the cluster in canonical form (Canonical), which
// Validate accepts. It never panics; every problem of the content is a
// *ClusterError.
func ParseCluster(data []byte, format string) (Cluster, error) {
	var root *cnode
	var err error
	switch format {
	case ClusterJSON:
		root, err = jsonTree(data)
	case ClusterYAML:
		root, err = yamlTree(data)
	default:
		return Cluster{}, fmt.Errorf("cluster file: unknown format %q (want %s or %s)", format, ClusterJSON, ClusterYAML)
	}
	if err != nil {
		return Cluster{}, err
	}
	c, err := clusterOf(root)
	if err != nil {
		return Cluster{}, err
	}
	c = c.Canonical()
	if err := c.Validate(); err != nil { // the reader's rules are Validate's
		return Cluster{}, &ClusterError{Problem: fmt.Sprintf("%v (a bug of the reader)", err)}
	}
	return c, nil
}

// object checks that n is an object whose keys are among known and
// returns its values by key.
func object(n *cnode, field string, known ...string) (map[string]*cnode, error) {
	if n.kind != kObject {
		return nil, errAt(n, field, "want an object (keys %s), got %s", strings.Join(known, ", "), n.describe())
	}
	m := make(map[string]*cnode, len(n.keys))
	for i, k := range n.keys {
		if !slices.Contains(known, k.text) {
			return nil, errAt(k, join(field, k.text), "unknown key (want %s)", strings.Join(known, ", "))
		}
		m[k.text] = n.vals[i]
	}
	return m, nil
}

func join(field, key string) string {
	if field == "" {
		return key
	}
	return field + "." + key
}

// decimalNumber is a number as JSON writes it (and YAML, without its
// other forms: 0x1F, .inf, 1_000).
var decimalNumber = regexp.MustCompile(`^-?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?$`)

func stringOf(n *cnode, field string) (string, error) {
	if n.kind != kString {
		return "", errAt(n, field, "want a string, got %s", n.describe())
	}
	if strings.TrimSpace(n.text) == "" {
		return "", errAt(n, field, "must not be empty")
	}
	return n.text, nil
}

func numberOf(n *cnode, field string) (float64, error) {
	if n.kind != kNumber || !decimalNumber.MatchString(strings.TrimPrefix(n.text, "+")) {
		return 0, errAt(n, field, "want a decimal number, got %s", n.describe())
	}
	v, err := strconv.ParseFloat(strings.TrimPrefix(n.text, "+"), 64)
	if err != nil || !Finite(v) {
		return 0, errAt(n, field, "%s is out of range", n.text)
	}
	return v, nil
}

func wholeOf(n *cnode, field string) (int, error) {
	t := strings.TrimPrefix(n.text, "+")
	if n.kind != kNumber || !decimalNumber.MatchString(t) || strings.ContainsAny(t, ".eE") {
		return 0, errAt(n, field, "want a whole number, got %s", n.describe())
	}
	v, err := strconv.ParseInt(t, 10, 64)
	if err != nil || v > maxPartitionNodes || v < -maxPartitionNodes {
		return 0, errAt(n, field, "must be in [1, %d], got %s", maxPartitionNodes, n.text)
	}
	return int(v), nil
}

// speedOf reads a speed factor: > 0 and in [MinSpeed, MaxSpeed].
func speedOf(n *cnode, field string) (float64, error) {
	v, err := numberOf(n, field)
	if err != nil {
		return 0, err
	}
	switch {
	case v <= 0:
		return 0, errAt(n, field, "must be > 0, got %s", n.text)
	case v < MinSpeed || v > MaxSpeed:
		return 0, errAt(n, field, "must be in [%g, %g], got %s", MinSpeed, MaxSpeed, n.text)
	}
	return v, nil
}

func listOf(n *cnode, field string) ([]*cnode, error) {
	if n.kind != kList {
		return nil, errAt(n, field, "want a list, got %s", n.describe())
	}
	return n.items, nil
}

// clusterOf reads the cluster a cluster file's root value describes.
func clusterOf(root *cnode) (Cluster, error) {
	top, err := object(root, "", "name", "slowdown", "classes", "partitions")
	if err != nil {
		return Cluster{}, err
	}
	c := Cluster{Slowdown: DefaultSlowdown}
	if n := top["name"]; n != nil {
		if c.Name, err = stringOf(n, "name"); err != nil {
			return Cluster{}, err
		}
	}
	if n := top["slowdown"]; n != nil {
		if c.Slowdown, err = numberOf(n, "slowdown"); err != nil {
			return Cluster{}, err
		}
		if c.Slowdown < 1 || c.Slowdown > MaxSlowdown {
			return Cluster{}, errAt(n, "slowdown", "must be in [1, %g], got %s", float64(MaxSlowdown), n.text)
		}
	}
	classes := map[string]float64{}
	classLine := map[string]int{}
	var classNames []string
	if n := top["classes"]; n != nil {
		items, err := listOf(n, "classes")
		if err != nil {
			return Cluster{}, err
		}
		for i, it := range items {
			field := fmt.Sprintf("classes[%d]", i)
			m, err := object(it, field, "name", "speed")
			if err != nil {
				return Cluster{}, err
			}
			nn := m["name"]
			if nn == nil {
				return Cluster{}, errAt(it, field, "no name (every class needs one)")
			}
			name, err := stringOf(nn, field+".name")
			if err != nil {
				return Cluster{}, err
			}
			if first, dup := classLine[name]; dup {
				return Cluster{}, errAt(nn, field+".name", "%q is already the name of a class (line %d)", name, first)
			}
			speed := 1.0
			if sn := m["speed"]; sn != nil {
				if speed, err = speedOf(sn, field+".speed"); err != nil {
					return Cluster{}, err
				}
			}
			classes[name], classLine[name] = speed, nn.line
			classNames = append(classNames, name)
		}
	}
	pn := top["partitions"]
	if pn == nil {
		return Cluster{}, errAt(root, "partitions", "missing (list the partitions, each with its nodes)")
	}
	items, err := listOf(pn, "partitions")
	if err != nil {
		return Cluster{}, err
	}
	switch {
	case len(items) == 0:
		return Cluster{}, errAt(pn, "partitions", "must list ≥ 1 partition, got none")
	case len(items) > maxPartitions:
		return Cluster{}, errAt(pn, "partitions", "must list ≤ %d partitions, got %d", maxPartitions, len(items))
	}
	c.PartitionNodes = make([]int, len(items))
	c.PartitionNames = make([]string, len(items))
	c.PartitionSpeeds = make([]float64, len(items))
	named := map[string]int{} // name → partition
	for r, it := range items {
		field := fmt.Sprintf("partitions[%d]", r)
		m, err := object(it, field, "name", "nodes", "class", "speed")
		if err != nil {
			return Cluster{}, err
		}
		nn := m["nodes"]
		if nn == nil {
			return Cluster{}, errAt(it, field, "no nodes (every partition needs its node count)")
		}
		nodes, err := wholeOf(nn, field+".nodes")
		if err != nil {
			return Cluster{}, err
		}
		if nodes < 1 {
			return Cluster{}, errAt(nn, field+".nodes", "must be ≥ 1, got %s", nn.text)
		}
		c.PartitionNodes[r] = nodes
		name, nameAt := "r"+strconv.Itoa(r), it
		if n := m["name"]; n != nil {
			if name, err = stringOf(n, field+".name"); err != nil {
				return Cluster{}, err
			}
			nameAt = n
		}
		if first, dup := named[name]; dup {
			return Cluster{}, errAt(nameAt, field+".name", "%q is already the name of partitions[%d]", name, first)
		}
		named[name] = r
		c.PartitionNames[r] = name
		speed := 1.0
		cn, sn := m["class"], m["speed"]
		switch {
		case cn != nil && sn != nil:
			return Cluster{}, errAt(sn, field+".speed", "give the partition's class or its speed, not both")
		case cn != nil:
			class, err := stringOf(cn, field+".class")
			if err != nil {
				return Cluster{}, err
			}
			s, ok := classes[class]
			if !ok {
				if len(classNames) == 0 {
					return Cluster{}, errAt(cn, field+".class", "no class %q: the file defines no classes", class)
				}
				return Cluster{}, errAt(cn, field+".class", "no class %q (classes: %s)", class, strings.Join(classNames, ", "))
			}
			speed = s
		case sn != nil:
			if speed, err = speedOf(sn, field+".speed"); err != nil {
				return Cluster{}, err
			}
		}
		c.PartitionSpeeds[r] = speed
	}
	return c, nil
}
