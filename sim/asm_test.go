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
	callRE   = regexp.MustCompile(`\b(\w+)(\([^()]*\))?`) // a word, and a macro use's arguments
)

// asmMacro is a #define of Go assembly source: its parameters (none for
// a macro without a list) and its body, one instruction per line.
type asmMacro struct {
	params []string
	body   string
}

// asmMacros reads the #define macros of Go assembly source (continued
// lines joined), by name.
func asmMacros(src string, into map[string]asmMacro) {
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
		var params []string
		if m[2] != "" {
			for _, p := range strings.Split(strings.Trim(m[2], "()"), ",") {
				params = append(params, strings.TrimSpace(p))
			}
		}
		into[m[1]] = asmMacro{params: params, body: strings.Join(body, "\n")}
	}
}

// expandMacros replaces each use of a macro in text by its body, its
// parameters by the use's arguments.
func expandMacros(text string, macros map[string]asmMacro) string {
	return callRE.ReplaceAllStringFunc(text, func(use string) string {
		m := callRE.FindStringSubmatch(use)
		mac, ok := macros[m[1]]
		if !ok {
			return use
		}
		body := mac.body
		if m[2] != "" && len(mac.params) > 0 {
			args := strings.Split(strings.Trim(m[2], "()"), ",")
			subst := map[string]string{}
			for i, p := range mac.params {
				if i < len(args) {
					subst[p] = strings.TrimSpace(args[i])
				}
			}
			body = wordRE.ReplaceAllStringFunc(body, func(w string) string {
				if a, ok := subst[w]; ok {
					return a
				}
				return w
			})
		}
		return "\n" + body + "\n"
	})
}

// legacySSE returns, per function of Go assembly source that uses a Y or
// Z register, its instructions that are not VEX- or EVEX-encoded but
// touch a vector register (X, Y or Z operands with a mnemonic not
// starting with V): after such code, each may cost a state transition.
func legacySSE(src string, macros map[string]asmMacro) map[string][]string {
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
			text = expandMacros(text, macros)
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
	macros := map[string]asmMacro{}
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
// register, directly or through a macro (its parameters replaced by the
// use's arguments), in a function using Y or Z registers,
// and nothing in VEX-only code or in functions without Y registers.
func TestLegacySSEScanFindsThem(t *testing.T) {
	macros := map[string]asmMacro{}
	asmMacros("#define SPLAT \\\n\tMOVQ AX, X1 \\\n\tVPBROADCASTQ X1, Y1\n#define OK \\\n\tVMOVQ AX, X1", macros)
	asmMacros("#define MOVEIT(MOVE, R) \\\n\tMOVE AX, R", macros)
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
TEXT ·paramBad(SB), NOSPLIT, $0
	MOVEIT(MOVQ, X2)
	VPBROADCASTQ X2, Y2
	RET
TEXT ·paramGood(SB), NOSPLIT, $0
	MOVEIT(VMOVQ, X2)
	VPBROADCASTQ X2, Y2
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
	assert.Equal(t, []string{"MOVQ AX, X2"}, got["paramBad"], "a macro's parameters take the use's arguments")
	assert.Empty(t, got["paramGood"])
}
