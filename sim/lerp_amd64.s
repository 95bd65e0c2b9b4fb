#include "go_asm.h"
#include "textflag.h"
#include "lerp_amd64.h"

// LERP8 sets Y2 to lerp(Y0, Y1, t) (lerp_amd64.h), t's halves in Y6 (th)
// and Y7 (tl). It overwrites Y1 and Y3.
#define LERP8 LERP(Y0, Y1, Y6, Y7, Y3, Y2)

// func lerpRowsAVX2(dst, top, bot *int32, n int, th, tl int32)
//
// n ≥ 8. When n is not a multiple of 8, the last 8 elements are done
// again, overlapping: dst aliases neither input, so they come out the same.
TEXT ·lerpRowsAVX2(SB), NOSPLIT, $0-40
	MOVQ         dst+0(FP), DI
	MOVQ         top+8(FP), SI
	MOVQ         bot+16(FP), DX
	MOVQ         n+24(FP), CX
	MOVL         th+32(FP), AX
	VMOVD        AX, X6
	VPBROADCASTD X6, Y6
	MOVL         tl+36(FP), AX
	VMOVD        AX, X7
	VPBROADCASTD X7, Y7
	LEAQ         -8(CX), R9   // the last full start
	XORQ         R8, R8

lerpLoop:
	VMOVDQU (SI)(R8*4), Y0
	VMOVDQU (DX)(R8*4), Y1
	LERP8
	VMOVDQU Y2, (DI)(R8*4)
	CMPQ    R8, R9
	JGE     lerpDone
	ADDQ    $8, R8
	CMPQ    R8, R9
	JLE     lerpLoop
	MOVQ    R9, R8    // the overlapping last 8
	JMP     lerpLoop

lerpDone:
	VZEROUPPER
	RET

// func cells8AVX2(dst, vals *int32, cells int, w *cellSplit, bias int32)
TEXT ·cells8AVX2(SB), NOSPLIT, $0-36
	MOVQ         dst+0(FP), DI
	MOVQ         vals+8(FP), SI
	MOVQ         cells+16(FP), CX
	MOVQ         w+24(FP), AX
	VMOVDQU      cellSplit_hi(AX), Y6
	VMOVDQU      cellSplit_lo(AX), Y7
	MOVL         bias+32(FP), AX
	VMOVD        AX, X4
	VPBROADCASTD X4, Y4
	TESTQ        CX, CX
	JLE          cells8Done

cells8Loop:
	VPBROADCASTD (SI), Y0
	VPBROADCASTD 4(SI), Y1
	LERP8
	VPADDD       Y4, Y2, Y2
	VMOVDQU      Y2, (DI)
	ADDQ         $4, SI
	ADDQ         $32, DI
	DECQ         CX
	JNZ          cells8Loop

cells8Done:
	VZEROUPPER
	RET

// func cells4AVX2(dst, vals *int32, pairs int, w *cellSplit, bias int32)
TEXT ·cells4AVX2(SB), NOSPLIT, $0-36
	MOVQ         dst+0(FP), DI
	MOVQ         vals+8(FP), SI
	MOVQ         pairs+16(FP), CX
	MOVQ         w+24(FP), AX
	VMOVDQU      cellSplit_hi(AX), Y6
	VMOVDQU      cellSplit_lo(AX), Y7
	VMOVDQU      cellSplit_cell(AX), Y5
	MOVL         bias+32(FP), AX
	VMOVD        AX, X4
	VPBROADCASTD X4, Y4
	TESTQ        CX, CX
	JLE          cells4Done

cells4Loop:
	// Two cells: a0 ×4, a1 ×4 against a1 ×4, a2 ×4.
	VPBROADCASTQ (SI), Y0
	VPERMD       Y0, Y5, Y0
	VPBROADCASTQ 4(SI), Y1
	VPERMD       Y1, Y5, Y1
	LERP8
	VPADDD       Y4, Y2, Y2
	VMOVDQU      Y2, (DI)
	ADDQ         $8, SI
	ADDQ         $32, DI
	DECQ         CX
	JNZ          cells4Loop

cells4Done:
	VZEROUPPER
	RET

// func cells16AVX2(dst, vals *int32, cells int, w *cellSplit, bias int32)
TEXT ·cells16AVX2(SB), NOSPLIT, $0-36
	MOVQ         dst+0(FP), DI
	MOVQ         vals+8(FP), SI
	MOVQ         cells+16(FP), CX
	MOVQ         w+24(FP), AX
	VMOVDQU      cellSplit_hi(AX), Y6
	VMOVDQU      cellSplit_lo(AX), Y7
	VMOVDQU      cellSplit_hi2(AX), Y8
	VMOVDQU      cellSplit_lo2(AX), Y9
	MOVL         bias+32(FP), AX
	VMOVD        AX, X4
	VPBROADCASTD X4, Y4
	TESTQ        CX, CX
	JLE          cells16Done

cells16Loop:
	// The first eight tiles with hi and lo, the next eight with hi2
	// and lo2, swapped into the registers LERP8 reads, then back.
	VPBROADCASTD (SI), Y0
	VPBROADCASTD 4(SI), Y1
	LERP8
	VPADDD       Y4, Y2, Y2
	VMOVDQU      Y2, (DI)
	VPBROADCASTD 4(SI), Y1
	VMOVDQA      Y6, Y10
	VMOVDQA      Y7, Y11
	VMOVDQA      Y8, Y6
	VMOVDQA      Y9, Y7
	LERP8
	VMOVDQA      Y10, Y6
	VMOVDQA      Y11, Y7
	VPADDD       Y4, Y2, Y2
	VMOVDQU      Y2, 32(DI)
	ADDQ         $4, SI
	ADDQ         $64, DI
	DECQ         CX
	JNZ          cells16Loop

cells16Done:
	VZEROUPPER
	RET

// func cells2AVX2(dst, vals *int32, quads int, w *cellSplit, bias int32)
TEXT ·cells2AVX2(SB), NOSPLIT, $0-36
	MOVQ         dst+0(FP), DI
	MOVQ         vals+8(FP), SI
	MOVQ         quads+16(FP), CX
	MOVQ         w+24(FP), AX
	VMOVDQU      cellSplit_hi(AX), Y6
	VMOVDQU      cellSplit_lo(AX), Y7
	VMOVDQU      cellSplit_cell(AX), Y5
	MOVL         bias+32(FP), AX
	VMOVD        AX, X4
	VPBROADCASTD X4, Y4
	TESTQ        CX, CX
	JLE          cells2Done

cells2Loop:
	// Four cells: a0 a0 a1 a1 a2 a2 a3 a3 against a1 a1 … a4 a4.
	VMOVDQU (SI), X0
	VPERMD  Y0, Y5, Y0
	VMOVDQU 4(SI), X1
	VPERMD  Y1, Y5, Y1
	LERP8
	VPADDD  Y4, Y2, Y2
	VMOVDQU Y2, (DI)
	ADDQ    $16, SI
	ADDQ    $32, DI
	DECQ    CX
	JNZ     cells2Loop

cells2Done:
	VZEROUPPER
	RET

// func octaveAVX2(pts, coarse *int32, n int, w *octaveSplit)
//
// pts[i] = ⌊(pts[i]·fine + coarse[i]·coarseW) / 65536⌋ for i < 8·(n/8),
// each weight split as 256·hi + lo so that every product fits 32 bits:
// ⌊(256·A + B)/65536⌋ = (A + (B >> 8)) >> 8 with arithmetic shifts, A
// the sum of the products by the high parts, B by the low ones.
TEXT ·octaveAVX2(SB), NOSPLIT, $0-32
	MOVQ pts+0(FP), DI
	MOVQ coarse+8(FP), SI
	MOVQ n+16(FP), CX
	MOVQ w+24(FP), AX
	VMOVDQU octaveSplit_fineHi(AX), Y6
	VMOVDQU octaveSplit_fineLo(AX), Y7
	VMOVDQU octaveSplit_coarseHi(AX), Y8
	VMOVDQU octaveSplit_coarseLo(AX), Y9
	SHRQ    $3, CX
	JZ      octaveDone

octaveLoop:
	VMOVDQU (DI), Y0
	VMOVDQU (SI), Y1
	VPMULLD Y6, Y0, Y2
	VPMULLD Y8, Y1, Y3
	VPADDD  Y3, Y2, Y2 // A
	VPMULLD Y7, Y0, Y4
	VPMULLD Y9, Y1, Y5
	VPADDD  Y5, Y4, Y4 // B
	VPSRAD  $8, Y4, Y4
	VPADDD  Y4, Y2, Y2
	VPSRAD  $8, Y2, Y2
	VMOVDQU Y2, (DI)
	ADDQ    $32, DI
	ADDQ    $32, SI
	DECQ    CX
	JNZ     octaveLoop

octaveDone:
	VZEROUPPER
	RET
