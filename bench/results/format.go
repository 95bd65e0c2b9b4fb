package results

import (
	"math"
	"strconv"
	"strings"
)

// Number is the one way Longcraft prints a figure, in the terminal table,
// the report and the comparison page: an integer as an integer ("1000",
// never "1e+03"), other values to three significant digits ("0.933",
// "2.57", "187") but never rounding the integer part away ("1234", not
// "1.23e+03"), and exponent notation only from 10⁹ up, where digits stop
// being readable.
func Number(x float64) string {
	switch {
	case math.IsNaN(x) || math.IsInf(x, 0):
		return strconv.FormatFloat(x, 'f', -1, 64)
	case math.Abs(x) >= 1e9:
		return strconv.FormatFloat(x, 'g', 3, 64)
	case x == math.Trunc(x):
		return strconv.FormatFloat(x, 'f', 0, 64)
	}
	// Three significant digits: as many decimals as the magnitude leaves.
	decimals := max(0, 2-int(math.Floor(math.Log10(math.Abs(x)))))
	s := strconv.FormatFloat(x, 'f', decimals, 64)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	if s == "-0" {
		s = "0"
	}
	return s
}

// SignedNumber is Number with its sign always shown ("+3", "-0.5", "0"):
// a difference.
func SignedNumber(x float64) string {
	s := Number(x)
	if s != "0" && !strings.HasPrefix(s, "-") {
		s = "+" + s
	}
	return s
}

// Percent prints a fraction as a percentage with one decimal ("29.3%").
func Percent(x float64) string { return strconv.FormatFloat(100*x, 'f', 1, 64) + "%" }

// Interval prints a mean with its interval, "187 [150, 220]", or for a
// fraction "12.3% [10.1, 14.2]".
func Interval(mean, lo, hi float64, percent bool) string {
	if percent {
		return Percent(mean) + " [" + strconv.FormatFloat(100*lo, 'f', 1, 64) + ", " + strconv.FormatFloat(100*hi, 'f', 1, 64) + "]"
	}
	return Number(mean) + " [" + Number(lo) + ", " + Number(hi) + "]"
}
