#include "go_asm.h"
#include "textflag.h"
#include "lerp_amd64.h"

// The cell kernels of lerp_amd64.s sixteen tiles an iteration, in ZMM
// registers, where the machine has AVX-512 (hasWideKernels): the job
// runner (jobs_amd64.s) takes them in place of the AVX2 ones. Each
// iteration interpolates 16/span cells; the weights of cells of 2, 4
// and 8 tiles repeat every eight lanes, so both halves of Z6 and Z7 hold
// cellSplit's eight, and cell16 spreads the lattice values over the
// lanes. They read vals up to index 16/span·count and write 16·count
// values.

// WIDESETUP loads a cell kernel's arguments: DI dst, SI vals, CX the
// count, Z6 and Z7 the weight halves, Z5 the cell of each lane, Z4 the
// bias.
#define WIDESETUP \
	MOVQ            dst+0(FP), DI \
	MOVQ            vals+8(FP), SI \
	MOVQ            n+16(FP), CX \
	MOVQ            w+24(FP), AX \
	VBROADCASTI64X4 cellSplit_hi(AX), Z6 \
	VBROADCASTI64X4 cellSplit_lo(AX), Z7 \
	VMOVDQU32       cellSplit_cell16(AX), Z5 \
	MOVL            bias+32(FP), AX \
	VPBROADCASTD    AX, Z4

// WIDECELLS interpolates the cells whose left values VPERMD spreads from
// Z0 against the right ones from Z1 (the same loads one value on), adds
// the bias and stores sixteen values at DI.
#define WIDECELLS \
	VPERMD    Z0, Z5, Z0 \
	VPERMD    Z1, Z5, Z1 \
	LERP(Z0, Z1, Z6, Z7, Z3, Z2) \
	VPADDD    Z4, Z2, Z2 \
	VMOVDQU32 Z2, (DI)

// WIDEKERNEL is a whole cell kernel of 2, 4 or 8 tiles: each iteration
// loads the left values into R0 and the right ones into R1 by LOAD, the
// 16/span values an iteration interpolates, and moves STEP bytes along
// vals.
#define WIDEKERNEL(LOAD, R0, R1, STEP) \
	WIDESETUP \
	TESTQ CX, CX \
	JLE   done \
loop: \
	LOAD  (SI), R0 \
	LOAD  4(SI), R1 \
	WIDECELLS \
	ADDQ  $STEP, SI \
	ADDQ  $64, DI \
	DECQ  CX \
	JNZ   loop \
done: \
	VZEROUPPER \
	RET

// func cells2AVX512(dst, vals *int32, n int, w *cellSplit, bias int32)
//
// Eight cells of 2 tiles an iteration, for n iterations.
TEXT ·cells2AVX512(SB), NOSPLIT, $0-36
	WIDEKERNEL(VMOVDQU, Y0, Y1, 32)

// func cells4AVX512(dst, vals *int32, n int, w *cellSplit, bias int32)
//
// Four cells of 4 tiles an iteration, for n iterations.
TEXT ·cells4AVX512(SB), NOSPLIT, $0-36
	WIDEKERNEL(VMOVDQU, X0, X1, 16)

// func cells8AVX512(dst, vals *int32, n int, w *cellSplit, bias int32)
//
// Two cells of 8 tiles an iteration, for n iterations.
TEXT ·cells8AVX512(SB), NOSPLIT, $0-36
	WIDEKERNEL(VMOVQ, X0, X1, 8)

// func cells16AVX512(dst, vals *int32, n int, w *cellSplit, bias int32)
//
// One cell of 16 tiles an iteration, for n iterations: the weights'
// first eight (hi, lo) in the low half of Z6 and Z7, the next (hi2, lo2)
// in the high half.
TEXT ·cells16AVX512(SB), NOSPLIT, $0-36
	MOVQ         dst+0(FP), DI
	MOVQ         vals+8(FP), SI
	MOVQ         n+16(FP), CX
	MOVQ         w+24(FP), AX
	VMOVDQU      cellSplit_hi(AX), Y6
	VINSERTI64X4 $1, cellSplit_hi2(AX), Z6, Z6
	VMOVDQU      cellSplit_lo(AX), Y7
	VINSERTI64X4 $1, cellSplit_lo2(AX), Z7, Z7
	MOVL         bias+32(FP), AX
	VPBROADCASTD AX, Z4
	TESTQ        CX, CX
	JLE          cells16Done

cells16Loop:
	VPBROADCASTD (SI), Z0
	VPBROADCASTD 4(SI), Z1
	LERP(Z0, Z1, Z6, Z7, Z3, Z2)
	VPADDD       Z4, Z2, Z2
	VMOVDQU32    Z2, (DI)
	ADDQ         $4, SI
	ADDQ         $64, DI
	DECQ         CX
	JNZ          cells16Loop

cells16Done:
	VZEROUPPER
	RET
