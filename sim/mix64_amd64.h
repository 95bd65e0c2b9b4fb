// Macros shared by the kernels that hash: SplitMix64's finaliser (mix64
// in rng.go) in four 64-bit lanes.
//
// AVX2 has no 64-bit multiply; for z = zh·2^32 + zl and c = ch·2^32 + cl,
// z·c mod 2^64 = zl·cl + ((zh·cl + zl·ch) << 32), three VPMULUDQ.

// Every instruction that touches a vector register here is VEX-encoded:
// on some hosts (AMD Zen 3 measured) a legacy-SSE instruction such as
// MOVQ AX, X8 after VEX code dirtied the upper YMM state costs a state
// transition of about 110 ns, which made Reset twice as slow as the
// generic code. sim's TestNoLegacySSEInVectorKernels keeps it so.

// MIX64_CONSTANTS broadcasts the multipliers (go_asm.h's mix64Mul1 and
// mix64Mul2): Y8, Y9 = c1 and c1>>32, Y10, Y11 = c2 and c2>>32. It uses AX.
#define MIX64_CONSTANTS \
	MOVQ         $const_mix64Mul1, AX \
	VMOVQ        AX, X8 \
	VPBROADCASTQ X8, Y8 \
	VPSRLQ       $32, Y8, Y9 \
	MOVQ         $const_mix64Mul2, AX \
	VMOVQ        AX, X10 \
	VPBROADCASTQ X10, Y10 \
	VPSRLQ       $32, Y10, Y11

// MUL64 multiplies Z by the constant c in CL (c) and CH (c>>32), lane by
// lane, mod 2^64, using T1 and T2.
#define MUL64(Z, CL, CH, T1, T2) \
	VPSRLQ   $32, Z, T1 \
	VPMULUDQ CL, T1, T1 \
	VPMULUDQ CH, Z, T2 \
	VPADDQ   T2, T1, T1 \
	VPSLLQ   $32, T1, T1 \
	VPMULUDQ CL, Z, Z \
	VPADDQ   T1, Z, Z

// MIX64Q is MIX64 on machines with AVX-512's 64-bit multiply (VPMULLQ,
// AVX512DQ on YMM registers, AVX512VL): one instruction a multiply
// instead of MUL64's seven. It reads only Y8 and Y10 of the constants.
#define MIX64Q(IN, Z, T1) \
	VPSRLQ  $30, IN, T1 \
	VPXOR   T1, IN, Z \
	VPMULLQ Y8, Z, Z \
	VPSRLQ  $27, Z, T1 \
	VPXOR   T1, Z, Z \
	VPMULLQ Y10, Z, Z \
	VPSRLQ  $31, Z, T1 \
	VPXOR   T1, Z, Z

// MIX64 sets Z to mix64 of IN, lane by lane, using T1 and T2:
// z ^= z>>30; z *= c1; z ^= z>>27; z *= c2; z ^= z>>31.
#define MIX64(IN, Z, T1, T2) \
	VPSRLQ $30, IN, T1 \
	VPXOR  T1, IN, Z \
	MUL64(Z, Y8, Y9, T1, T2) \
	VPSRLQ $27, Z, T1 \
	VPXOR  T1, Z, Z \
	MUL64(Z, Y10, Y11, T1, T2) \
	VPSRLQ $31, Z, T1 \
	VPXOR  T1, Z, Z
