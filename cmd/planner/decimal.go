package main

import (
	"fmt"
	"strconv"

	"github.com/spf13/pflag"
)

// decimal is a whole-number flag value read in base 10 only. The flag
// library reads its int, int64 and uint64 flags as Go source does (base
// 0): --seed 010 was 8, --nodes 0x10 was 16 and --nodes 08 an error. Here
// leading zeros are decimal (010 is 10), and 0x10, 0o10, 0b10 and 1_000
// are not whole numbers. A value that does not parse is a
// *strconv.NumError, which valueError tells in words. (The library's
// lists of whole numbers, --jobs, read their items in base 10 already.)
type decimal[T int | int64 | uint64] struct{ p *T }

// decimalVar defines a whole-number flag like fs.IntVar, fs.Int64Var or
// fs.Uint64Var (the same type name and default in --help), read in base
// 10.
func decimalVar[T int | int64 | uint64](fs *pflag.FlagSet, p *T, name string, value T, usage string) {
	*p = value
	fs.Var(decimal[T]{p}, name, usage)
}

func (d decimal[T]) Set(s string) error {
	switch p := any(d.p).(type) {
	case *int:
		v, err := strconv.ParseInt(s, 10, strconv.IntSize)
		if err != nil {
			return err
		}
		*p = int(v)
	case *int64:
		v, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return err
		}
		*p = v
	case *uint64:
		v, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			return err
		}
		*p = v
	}
	return nil
}

// String is the value in base 10. A decimal is always bound (decimalVar):
// the flag library calls String only on the values it is given, and tells
// a zero default by the text of the default (pflag's defaultIsZeroValue),
// not by making a zero value of the type as the standard flag package
// does.
func (d decimal[T]) String() string { return fmt.Sprint(*d.p) }

// Type is the flag library's name of the type: --help shows int64 as
// "int" and uint64 as "uint", as for the library's own flags.
func (d decimal[T]) Type() string {
	switch any(d.p).(type) {
	case *int64:
		return "int64"
	case *uint64:
		return "uint64"
	}
	return "int"
}
