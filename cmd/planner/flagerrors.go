package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/plannerhq/planner/workloads"
	"github.com/spf13/pflag"
)

// parseFlags parses args into fs; every failure is a usage error, and a
// value that does not parse is told in plain words (valueError), as is a
// bool flag with its value apart (boolValueApart). The usage fs prints
// for --help shows list defaults as lists (listDefaults) and ends with the
// command's example (withExample).
func parseFlags(fs *pflag.FlagSet, args []string) error {
	listDefaults(fs)
	withExample(fs)
	if err := boolValueApart(fs, args); err != nil {
		return usageError{err}
	}
	if err := fs.Parse(args); err != nil {
		var ive *pflag.InvalidValueError
		if errors.As(err, &ive) {
			fl := ive.GetFlag()
			err = valueError("--"+fl.Name, fl, ive.GetValue(), ive.Unwrap())
		}
		return usageError{err}
	}
	return nil
}

// valueError says why value, given to the flag fl and reported under
// name (the flag, or where its value came from), did not parse: an empty
// item of a list (`--jobs: empty item in "10,,20"`), an item or value that
// is not a number (`--jobs: "x" is not a whole number`), a number or a
// duration out of range (`--interval: "9999999999h" is out of range`), a
// duration without its unit. The flag library's own wording names Go
// functions (`strconv.Atoi: parsing "": invalid syntax`, `time: invalid
// duration "9999999999h"`).
func valueError(name string, fl *pflag.Flag, value string, cause error) error {
	_, list := fl.Value.(pflag.SliceValue)
	var num *strconv.NumError
	var twice givenTwice
	switch {
	case errors.As(cause, &twice):
		return fmt.Errorf("%s: given twice (%q, then %q); give it once", name, twice.first, value)
	case errors.As(cause, &num) && list && strings.TrimSpace(num.Num) == "":
		return fmt.Errorf("%s: empty item in %q", name, value)
	case errors.As(cause, &num):
		return fmt.Errorf("%s: %s", name, numberProblem(num))
	case fl.Value.Type() == "duration" && durationForm.MatchString(value):
		return fmt.Errorf("%s: %q is out of range", name, value)
	case fl.Value.Type() == "duration":
		return fmt.Errorf("%s: %q is not a duration (a number and a unit: 90s, 5m, 1h30m)", name, value)
	}
	return fmt.Errorf("%s: bad value %q: %w", name, value, cause)
}

// durationForm is the form time.ParseDuration reads: a sign, then numbers
// each with its unit (1h30m, 1.5s, .5m). Its error does not tell a value
// of this form that is too large (beyond 2562047h) from one that is not a
// duration; a value of this form that does not parse is too large.
var durationForm = regexp.MustCompile(`^[-+]?(?:(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:ns|us|µs|μs|ms|s|m|h))+$`)

// numberProblem says in words why num.Num did not parse: `"x" is not a
// whole number`, `"99999999999999999999" is out of range`.
func numberProblem(num *strconv.NumError) string {
	if errors.Is(num.Err, strconv.ErrRange) {
		return fmt.Sprintf("%q is out of range", num.Num)
	}
	return fmt.Sprintf("%q is not %s", num.Num, numberWords(num.Func))
}

// numberWords is what a value parsed by the strconv function fn must be.
func numberWords(fn string) string {
	switch fn {
	case "ParseUint":
		return "a whole number ≥ 0"
	case "ParseFloat":
		return "a number"
	case "ParseBool":
		return "true or false"
	}
	return "a whole number" // Atoi, ParseInt
}

// configJSONProblem says why a --config file is not a JSON object,
// without the decoder's Go type names.
func configJSONProblem(err error) string {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		return fmt.Sprintf("bad JSON at byte %d: %s", syn.Offset, syn.Error())
	case errors.As(err, &typ):
		return fmt.Sprintf("it holds a JSON %s", typ.Value)
	}
	return err.Error()
}

// fieldFlagError is err told under the flag of the field it refuses
// ("--hours: must be …", not "--hours: hours must be …") when err wraps a
// *workloads.FieldError whose Field has a flag in flags (field → flag);
// nil otherwise.
func fieldFlagError(err error, flags map[string]string) error {
	var fe *workloads.FieldError
	if errors.As(err, &fe) && flags[fe.Field] != "" {
		return fmt.Errorf("%s: %s", flags[fe.Field], fe.Problem)
	}
	return nil
}

// onceString is a string flag that may be given only once: a second
// `--vary` or `--study` would silently replace the first, and the run would
// not be the one asked for.
type onceString struct {
	v     *string
	given bool
}

func (o *onceString) Set(s string) error {
	if o.given {
		return givenTwice{first: *o.v}
	}
	*o.v, o.given = s, true
	return nil
}

func (o *onceString) String() string {
	if o.v == nil {
		return ""
	}
	return *o.v
}

func (o *onceString) Type() string { return "string" }

// givenTwice: a onceString flag was given again; first is its first value.
type givenTwice struct{ first string }

func (e givenTwice) Error() string { return fmt.Sprintf("given twice (first %q)", e.first) }

// parseNoArgs is parseFlags for a command that takes no arguments besides
// its flags: a positional one is a usage error naming cmd.
func parseNoArgs(fs *pflag.FlagSet, args []string, cmd string) error {
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError{fmt.Errorf("%s: unexpected argument %q", cmd, fs.Arg(0))}
	}
	return nil
}
