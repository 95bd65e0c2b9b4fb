#include "textflag.h"

// func drawsAVX2(draws *uint64, bits *uint8, h uint64, n int, s *drawSetup)
//
// Four tiles a step, one per 64-bit lane: the tile's hash, mix64 of
// h + x·tileStep, is stored in draws; its four 16-bit draws are compared
// with s.above (biased by 0x8000, as AVX2 compares 16-bit lanes signed)
// and VPMOVMSKB leaves, per tile, one byte with two bits per draw that
// passed. A 64-bit multiply is three 32-bit ones: for z = zh·2^32 + zl,
// z·c mod 2^64 = zl·cl + ((zh·cl + zl·ch) << 32).
TEXT ·drawsAVX2(SB), NOSPLIT, $0-40
	MOVQ draws+0(FP), DI
	MOVQ bits+8(FP), R8
	MOVQ h+16(FP), AX
	MOVQ n+24(FP), CX
	MOVQ s+32(FP), SI

	// Y0: the hash inputs of four tiles: h + lane·tileStep.
	MOVQ         AX, X0
	VPBROADCASTQ X0, Y0
	VPADDQ       0(SI), Y0, Y0
	VPBROADCASTQ 32(SI), Y15 // 4·tileStep
	VMOVDQU      40(SI), Y14 // thresholds, biased

	MOVQ         $0xbf58476d1ce4e5b9, AX
	MOVQ         AX, X8
	VPBROADCASTQ X8, Y8      // c1 (low half used)
	VPSRLQ       $32, Y8, Y9 // c1 >> 32
	MOVQ         $0x94d049bb133111eb, AX
	MOVQ         AX, X10
	VPBROADCASTQ X10, Y10
	VPSRLQ       $32, Y10, Y11
	MOVQ         $0x8000800080008000, AX
	MOVQ         AX, X12
	VPBROADCASTQ X12, Y12    // the 16-bit sign bits
	XORQ         R9, R9

drawsLoop:
	CMPQ R9, CX
	JGE  drawsDone

	// z ^= z >> 30; z *= c1
	VPSRLQ   $30, Y0, Y1
	VPXOR    Y1, Y0, Y1
	VPSRLQ   $32, Y1, Y2
	VPMULUDQ Y8, Y2, Y2
	VPMULUDQ Y9, Y1, Y3
	VPADDQ   Y3, Y2, Y2
	VPSLLQ   $32, Y2, Y2
	VPMULUDQ Y8, Y1, Y1
	VPADDQ   Y2, Y1, Y1

	// z ^= z >> 27; z *= c2
	VPSRLQ   $27, Y1, Y2
	VPXOR    Y2, Y1, Y1
	VPSRLQ   $32, Y1, Y2
	VPMULUDQ Y10, Y2, Y2
	VPMULUDQ Y11, Y1, Y3
	VPADDQ   Y3, Y2, Y2
	VPSLLQ   $32, Y2, Y2
	VPMULUDQ Y10, Y1, Y1
	VPADDQ   Y2, Y1, Y1

	// z ^= z >> 31
	VPSRLQ  $31, Y1, Y2
	VPXOR   Y2, Y1, Y1
	VMOVDQU Y1, (DI)(R9*8)

	// The draws that pass, two bits each.
	VPXOR     Y12, Y1, Y1
	VPCMPGTW  Y14, Y1, Y1
	VPMOVMSKB Y1, AX
	MOVL      AX, (R8)(R9*1)

	VPADDQ Y15, Y0, Y0
	ADDQ   $4, R9
	JMP    drawsLoop

drawsDone:
	VZEROUPPER
	RET
