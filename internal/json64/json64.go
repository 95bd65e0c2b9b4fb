// Package json64 is how Longcraft's JSON keeps 64-bit integers exact:
// float64 decoders (JavaScript's JSON.parse, jq, Python's json with most
// tools after it, Go's json.Unmarshal into any) round every integer above
// 2^53, so a seed such as 18221634021153779795 becomes
// 18221634021153780000. Longcraft therefore writes seeds and other 64-bit
// values as decimal strings, and reads them back from a string or, as
// files and clients older than that wrote them, from a bare number.
//
// It must not import anything of Longcraft's.
package json64

import (
	"bytes"
	"fmt"
	"strconv"
)

// Uint is a uint64 that JSON holds as a decimal string ("18221634021153779795")
// and reads from a string or a bare integer.
type Uint uint64

// MarshalJSON writes u as a decimal string.
func (u Uint) MarshalJSON() ([]byte, error) {
	return strconv.AppendQuote(nil, strconv.FormatUint(uint64(u), 10)), nil
}

// UnmarshalJSON reads a decimal string or a bare integer, exactly (never
// through a float64): a fraction, an exponent, a sign or a value over
// 2^64−1 is refused. null leaves u as it is, as for any JSON value.
func (u *Uint) UnmarshalJSON(data []byte) error {
	if bytes.Equal(data, []byte("null")) {
		return nil
	}
	digits := data
	if len(data) >= 2 && data[0] == '"' && data[len(data)-1] == '"' {
		digits = data[1 : len(data)-1]
	}
	v, err := ParseUint(string(digits))
	if err != nil {
		return err
	}
	*u = Uint(v)
	return nil
}

// ParseUint reads an unsigned 64-bit integer written in decimal digits
// only, as Longcraft's JSON holds one.
func ParseUint(s string) (uint64, error) {
	for i := range len(s) {
		if s[i] < '0' || s[i] > '9' {
			return 0, fmt.Errorf("json64: %q is not an unsigned 64-bit integer (decimal digits, as a string or a number)", s)
		}
	}
	v, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("json64: %q is not an unsigned 64-bit integer (decimal digits, as a string or a number): %w", s, err)
	}
	return v, nil
}

// MaxExact is JavaScript's Number.MAX_SAFE_INTEGER, 2^53 − 1: the largest
// n such that n and n+1 are both exact in a float64, so every float64
// JSON decoder reads integers up to it exactly.
const MaxExact = 1<<53 - 1
