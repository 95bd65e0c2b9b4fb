package json64

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strconv"
)

// Inexact lists the integers in the JSON values of data (one value or
// several, as in JSON lines) that a float64 decoder would change: those
// beyond ±2^53, by their path ("[3].spec.index"). Longcraft's outputs
// must have none; the tests of each output check it.
func Inexact(data []byte) ([]string, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var out []string
	for i := 0; ; i++ {
		var v any
		if err := dec.Decode(&v); err == io.EOF {
			return out, nil
		} else if err != nil {
			return out, err
		}
		walk(fmt.Sprintf("[%d]", i), v, &out)
	}
}

func walk(path string, v any, out *[]string) {
	switch v := v.(type) {
	case json.Number:
		if !exact(string(v)) {
			*out = append(*out, path+" = "+string(v))
		}
	case []any:
		for i, e := range v {
			walk(fmt.Sprintf("%s[%d]", path, i), e, out)
		}
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			walk(path+"."+k, v[k], out)
		}
	}
}

// exact reports whether a JSON number reads the same through a float64:
// an integer within ±2^53, or a number with a fraction or an exponent
// (a float's own figure, which no integer type wrote).
func exact(n string) bool {
	if bytes.ContainsAny([]byte(n), ".eE") {
		return true
	}
	i, err := strconv.ParseInt(n, 10, 64)
	return err == nil && i >= -MaxExact && i <= MaxExact
}
