#include "go_asm.h"
#include "textflag.h"
#include "mix64_amd64.h"

// func drawsAVX2(draws *uint64, bits *uint8, h uint64, n int, s *drawSetup)
//
// Four tiles a step, one per 64-bit lane: the tile's hash, mix64 of
// h + x·splitMixGamma, is stored in draws; its four 16-bit draws are compared
// with s.above (biased by 0x8000, as AVX2 compares 16-bit lanes signed)
// and VPMOVMSKB leaves, per tile, one byte with two bits per draw that
// passed.
TEXT ·drawsAVX2(SB), NOSPLIT, $0-40
	MOVQ draws+0(FP), DI
	MOVQ bits+8(FP), R8
	MOVQ n+24(FP), CX
	MOVQ s+32(FP), SI

	// Y0: the hash inputs of four tiles: h + lane·splitMixGamma.
	VPBROADCASTQ h+16(FP), Y0
	VPADDQ       (drawSetup_lanes+hashLanes_start)(SI), Y0, Y0
	VPBROADCASTQ (drawSetup_lanes+hashLanes_step)(SI), Y15 // 4·splitMixGamma
	VMOVDQU      drawSetup_above(SI), Y14                  // thresholds, biased

	MIX64_CONSTANTS
	MOVQ         $0x8000800080008000, AX
	VMOVQ        AX, X12
	VPBROADCASTQ X12, Y12    // the 16-bit sign bits
	XORQ         R9, R9
	CMPB         (drawSetup_lanes+hashLanes_mul64)(SI), $0
	JNE          drawsLoopQ

drawsLoop:
	CMPQ R9, CX
	JGE  drawsDone
	MIX64(Y0, Y1, Y2, Y3)

drawsPass:
	VMOVDQU Y1, (DI)(R9*8)

	// The draws that pass, two bits each.
	VPXOR     Y12, Y1, Y1
	VPCMPGTW  Y14, Y1, Y1
	VPMOVMSKB Y1, AX
	MOVL      AX, (R8)(R9*1)

	VPADDQ Y15, Y0, Y0
	ADDQ   $4, R9
	CMPB   (drawSetup_lanes+hashLanes_mul64)(SI), $0
	JEQ    drawsLoop

drawsLoopQ:
	// The same loop with AVX-512's multiply (hashLanes.mul64).
	CMPQ R9, CX
	JGE  drawsDone
	MIX64Q(Y0, Y1, Y2)
	JMP  drawsPass

drawsDone:
	VZEROUPPER
	RET

// func fillAVX2(dst *int32, h uint64, n int, s *hashLanes)
//
// fill for n values, n a multiple of 16: value 4j+k is the k-th 16-bit
// chunk of mix64(h + 4j·splitMixGamma), centred and doubled. Four hashes a
// step (s has them 4·splitMixGamma apart) give sixteen values.
TEXT ·fillAVX2(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ n+16(FP), CX
	MOVQ s+24(FP), SI

	VPBROADCASTQ h+8(FP), Y0
	VPADDQ       hashLanes_start(SI), Y0, Y0
	VPBROADCASTQ hashLanes_step(SI), Y15
	MIX64_CONSTANTS
	MOVL         $const_one, AX
	VMOVD        AX, X12
	VPBROADCASTD X12, Y12 // one
	XORQ         R9, R9

fillLoop:
	CMPQ R9, CX
	JGE  fillDone
	CMPB hashLanes_mul64(SI), $0
	JNE  fillQ
	MIX64(Y0, Y1, Y2, Y3)
	JMP  fillChunks

fillQ:
	MIX64Q(Y0, Y1, Y2) // AVX-512's multiply (hashLanes.mul64)

fillChunks:

	// Sixteen 16-bit chunks, in order, to 2·chunk − one.
	VPMOVZXWD    X1, Y2
	VEXTRACTI128 $1, Y1, X3
	VPMOVZXWD    X3, Y3
	VPSLLD       $1, Y2, Y2
	VPSLLD       $1, Y3, Y3
	VPSUBD       Y12, Y2, Y2
	VPSUBD       Y12, Y3, Y3
	VMOVDQU      Y2, (DI)(R9*4)
	VMOVDQU      Y3, 32(DI)(R9*4)

	VPADDQ Y15, Y0, Y0
	ADDQ   $16, R9
	JMP    fillLoop

fillDone:
	VZEROUPPER
	RET
