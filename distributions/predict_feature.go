package distributions

import (
	"strconv"
	"strings"
)

// Feature is one (kind, value) attribute of a job that 3σPredict groups
// runtime history by (Park et al., 3Sigma, EuroSys 2018, §4.1): Kind names
// the attribute or combination of attributes ("user", "user+name"), Value its
// value for the job ("alice", "alice|etl"). Two jobs share history under a
// feature exactly when both Kind and Value are equal. Kind must be
// non-empty; Value may be any string.
//
// The predictor does not interpret kinds, so callers may add their own
// (priority, queue, …); JobAttrs.Features builds the standard set.
type Feature struct {
	Kind  string
	Value string
}

// String returns "kind=value".
func (f Feature) String() string { return f.Kind + "=" + f.Value }

// less orders features by Kind, then Value: the fixed order used for
// serialisation and for breaking ties between experts.
func (f Feature) less(g Feature) bool {
	if f.Kind != g.Kind {
		return f.Kind < g.Kind
	}
	return f.Value < g.Value
}

// compare returns −1, 0 or +1 as f sorts before, equal to or after g.
func (f Feature) compare(g Feature) int {
	switch {
	case f.less(g):
		return -1
	case g.less(f):
		return 1
	}
	return 0
}

// Standard feature kinds (3sigma §4.1 and §2.1: user, program name,
// application, submission time, resources requested, and combinations).
const (
	KindUser          = "user"
	KindName          = "name"
	KindApp           = "app"
	KindHour          = "hour"
	KindDay           = "day"
	KindResources     = "resources"
	KindUserName      = "user+name"
	KindUserHour      = "user+hour"
	KindNameResources = "name+resources"
)

// Combine returns the feature whose value is the combination of the values
// of fs, with kind the kinds joined by "+" (e.g. user+name). Values are
// joined by "|" after escaping "\" and "|" with a backslash, so distinct
// value tuples never collide. It returns the zero Feature for an empty fs.
func Combine(fs ...Feature) Feature {
	if len(fs) == 0 {
		return Feature{}
	}
	var kind, val strings.Builder
	for i, f := range fs {
		if i > 0 {
			kind.WriteByte('+')
			val.WriteByte('|')
		}
		kind.WriteString(f.Kind)
		if strings.ContainsAny(f.Value, `\|`) {
			for j := 0; j < len(f.Value); j++ {
				if c := f.Value[j]; c == '\\' || c == '|' {
					val.WriteByte('\\')
				}
				val.WriteByte(f.Value[j])
			}
		} else {
			val.WriteString(f.Value)
		}
	}
	return Feature{Kind: kind.String(), Value: val.String()}
}

// JobAttrs are the job attributes 3σPredict learns from, in the predictor's
// own terms so that this package does not depend on the job model (the
// workloads package converts its Features into JobAttrs). Empty strings and
// out-of-range hours or days mean "unknown".
type JobAttrs struct {
	User, Name, App string
	SubmitHour      int    // 0–23; anything else is unknown
	SubmitDay       int    // 0–6; anything else is unknown
	Resources       string // requested resources as a categorical value, e.g. "nodes=32"
}

// Features returns the standard feature set of a job, in this order: user,
// name, app, hour, day, resources, user+name, user+hour, name+resources.
// A feature is left out when its attribute (or any attribute of a
// combination) is unknown, so a job never shares history with another merely
// because both lack an attribute.
func (a JobAttrs) Features() []Feature {
	fs := make([]Feature, 0, 9)
	var user, name, hour, res Feature
	if a.User != "" {
		user = Feature{KindUser, a.User}
		fs = append(fs, user)
	}
	if a.Name != "" {
		name = Feature{KindName, a.Name}
		fs = append(fs, name)
	}
	if a.App != "" {
		fs = append(fs, Feature{KindApp, a.App})
	}
	if a.SubmitHour >= 0 && a.SubmitHour <= 23 {
		hour = Feature{KindHour, strconv.Itoa(a.SubmitHour)}
		fs = append(fs, hour)
	}
	if a.SubmitDay >= 0 && a.SubmitDay <= 6 {
		fs = append(fs, Feature{KindDay, strconv.Itoa(a.SubmitDay)})
	}
	if a.Resources != "" {
		res = Feature{KindResources, a.Resources}
		fs = append(fs, res)
	}
	if user.Kind != "" && name.Kind != "" {
		fs = append(fs, Combine(user, name))
	}
	if user.Kind != "" && hour.Kind != "" {
		fs = append(fs, Combine(user, hour))
	}
	if name.Kind != "" && res.Kind != "" {
		fs = append(fs, Combine(name, res))
	}
	return fs
}
