package sim

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var (
	defineRE = regexp.MustCompile(`^#define\s+(\w+)(\([^)]*\))?\s*(.*)$`)
	textRE   = regexp.MustCompile(`^TEXT\s+[^\s(]*·(\w+)`)
	yRegRE   = regexp.MustCompile(`\b[YZ]([0-9]|[12][0-9]|3[01])\b`)  // YMM or ZMM
	xRegRE   = regexp.MustCompile(`\b[XYZ]([0-9]|[12][0-9]|3[01])\b`) // any vector register
	wordRE   = regexp.MustCompile(`\b\w+\b`)
)

// asmMacros reads the #define macros of Go assembly source (continued
// lines joined), by name, their bodies as one instruction per line.
func asmMacros(src string, into map[string]string) {
	lines := strings.Split(src, "\n")
	for i := 0; i < len(lines); i++ {
		m := defineRE.FindStringSubmatch(strings.TrimSpace(lines[i]))
		if m == nil {
			continue
		}
		body := []string{m[3]}
		for strings.HasSuffix(strings.TrimSpace(body[len(body)-1]), `\`) && i+1 < len(lines) {
			last := strings.TrimSpace(body[len(body)-1])
			body[len(body)-1] = strings.TrimSuffix(last, `\`)
			i++
			body = append(body, lines[i])
		}
		into[m[1]] = strings.Join(body, "\n")
	}
}

// legacySSE returns, per function of Go assembly source that uses a Y or
// Z register, its instructions that are not VEX- or EVEX-encoded but
// touch a vector register (X, Y or Z operands with a mnemonic not
// starting with V): after such code, each may cost a state transition.
func legacySSE(src string, macros map[string]string) map[string][]string {
	found := map[string][]string{}
	var fn string
	var body []string
	flush := func() {
		if fn == "" {
			return
		}
		// Expand macros (nested ones too) before looking.
		text := strings.Join(body, "\n")
		for depth := 0; depth < 4; depth++ {
			text = wordRE.ReplaceAllStringFunc(text, func(w string) string {
				if m, ok := macros[w]; ok {
					return "\n" + m + "\n"
				}
				return w
			})
		}
		instrs := strings.Split(text, "\n")
		if !yRegRE.MatchString(text) {
			return
		}
		for _, in := range instrs {
			in = strings.TrimSpace(strings.SplitN(in, "//", 2)[0])
			if in == "" || strings.HasSuffix(in, ":") || strings.HasPrefix(in, "#") {
				continue
			}
			op := strings.Fields(in)[0]
			if strings.HasPrefix(op, "V") || strings.HasPrefix(op, "(") {
				continue // VEX-encoded, or a macro's parameter list
			}
			if xRegRE.MatchString(in) {
				found[fn] = append(found[fn], in)
			}
		}
	}
	for _, line := range strings.Split(src, "\n") {
		if m := textRE.FindStringSubmatch(strings.TrimSpace(line)); m != nil {
			flush()
			fn, body = m[1], nil
			continue
		}
		if !strings.HasPrefix(strings.TrimSpace(line), "#define") {
			body = append(body, line)
		}
	}
	flush()
	return found
}

// TestNoLegacySSEInVectorKernels scans every amd64 assembly file of the
// package: no function that uses a YMM or ZMM register may hold a legacy-SSE
// instruction (MOVQ AX, X0 and the like). On AMD Zen 3 one such MOVQ
// after VEX code cost about 110 ns and made the AVX2 Reset twice as slow
// as the generic code.
func TestNoLegacySSEInVectorKernels(t *testing.T) {
	files, err := filepath.Glob("*_amd64.[sh]")
	require.NoError(t, err)
	sort.Strings(files)
	require.NotEmpty(t, files)
	macros := map[string]string{}
	srcs := map[string]string{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		srcs[f] = string(b)
		asmMacros(string(b), macros)
	}
	require.Contains(t, macros, "MIX64", "the scan must see the macros the kernels use")
	kernels := 0
	for _, f := range files {
		if !strings.HasSuffix(f, ".s") {
			continue
		}
		for fn, bad := range legacySSE(srcs[f], macros) {
			assert.Empty(t, bad, "%s: %s uses YMM or ZMM registers and legacy SSE", f, fn)
		}
		kernels += strings.Count(srcs[f], "TEXT ")
	}
	assert.GreaterOrEqual(t, kernels, 5, "lerpRows, cells8, cells4, draws, fill")
}

// TestLegacySSEScanFindsThem: the scan flags a legacy MOVQ into an X
// register, directly or through a macro, in a function using Y or Z registers,
// and nothing in VEX-only code or in functions without Y registers.
func TestLegacySSEScanFindsThem(t *testing.T) {
	macros := map[string]string{}
	asmMacros("#define SPLAT \\\n\tMOVQ AX, X1 \\\n\tVPBROADCASTQ X1, Y1\n#define OK \\\n\tVMOVQ AX, X1", macros)
	src := `
TEXT ·bad(SB), NOSPLIT, $0
	MOVQ AX, X0
	VPBROADCASTQ X0, Y0
	RET
TEXT ·viaMacro(SB), NOSPLIT, $0
	SPLAT
	RET
TEXT ·good(SB), NOSPLIT, $0
	MOVQ x+0(FP), AX
	VMOVQ AX, X0
	OK
	VPBROADCASTQ X0, Y0
	RET
TEXT ·sseOnly(SB), NOSPLIT, $0
	MOVQ AX, X0
	RET
TEXT ·wide(SB), NOSPLIT, $0
	VPADDD Z1, Z2, Z3
	MOVQ R8, X4
	VZEROUPPER
	RET
`
	got := legacySSE(src, macros)
	assert.Equal(t, []string{"MOVQ AX, X0"}, got["bad"])
	assert.Equal(t, []string{"MOVQ AX, X1"}, got["viaMacro"])
	assert.Empty(t, got["good"])
	assert.Empty(t, got["sseOnly"], "no YMM state to transition from")
	assert.Equal(t, []string{"MOVQ R8, X4"}, got["wide"], "ZMM code counts as YMM code")
}
