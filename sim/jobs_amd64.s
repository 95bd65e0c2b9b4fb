#include "go_asm.h"
#include "textflag.h"

// cellKernels are the cell kernels by job kind (jobCells2 to jobCells16),
// the AVX2 ones (lerp_amd64.s), then the AVX-512 ones (lerp512_amd64.s).
DATA cellKernels<>+0(SB)/8, $·cells2AVX2(SB)
DATA cellKernels<>+8(SB)/8, $·cells4AVX2(SB)
DATA cellKernels<>+16(SB)/8, $·cells8AVX2(SB)
DATA cellKernels<>+24(SB)/8, $·cells16AVX2(SB)
DATA cellKernels<>+32(SB)/8, $·cells2AVX512(SB)
DATA cellKernels<>+40(SB)/8, $·cells4AVX512(SB)
DATA cellKernels<>+48(SB)/8, $·cells8AVX512(SB)
DATA cellKernels<>+56(SB)/8, $·cells16AVX512(SB)
GLOBL cellKernels<>(SB), RODATA|NOPTR, $64

// func runLerpJobs(jobs *lerpJob, n, y int, wide bool)
//
// Runs n jobs of row y in order (jobs.go): each a call to the kernel of
// its kind (a cell kind's from cellKernels: lerp_amd64.s's, or if wide
// lerp512_amd64.s's with the job's nWide for count), its arguments from
// the job; a jobRows of fewer than eight values, which lerpRowsAVX2 does
// not take, is done here one value at a time, in 64 bits, as lerp does.
// The kernels keep no register, so the job pointer and count live in
// the frame across the calls.
TEXT ·runLerpJobs(SB), NOSPLIT, $64-25
	MOVQ  jobs+0(FP), AX
	MOVQ  n+8(FP), CX
	MOVQ  AX, 48(SP)
	MOVQ  CX, 56(SP)
	TESTQ CX, CX
	JLE   jobsDone

jobsLoop:
	// Every kernel takes dst first, and the values it reads from second.
	MOVQ 48(SP), BX
	MOVQ lerpJob_dst(BX), DI
	MOVQ DI, 0(SP)
	MOVQ lerpJob_n(BX), CX
	MOVQ lerpJob_kind(BX), AX
	CMPQ AX, $0 // jobRows
	JEQ  jobsRows

	// A cell kind: (dst, vals, n, split, bias), vals at aOff.
	MOVQ lerpJob_a(BX), SI
	MOVQ lerpJob_aOff(BX), R8
	LEAQ (SI)(R8*4), SI
	MOVQ SI, 8(SP)
	MOVQ CX, 16(SP)
	MOVQ lerpJob_split(BX), DX
	MOVQ DX, 24(SP)
	MOVL lerpJob_bias(BX), DX
	MOVL DX, 32(SP)
	CMPB wide+24(FP), $0
	JEQ  jobsCell
	MOVQ lerpJob_nWide(BX), CX
	MOVQ CX, 16(SP)
	ADDQ $4, AX // the AVX-512 half of cellKernels

jobsCell:
	LEAQ cellKernels<>(SB), R11
	MOVQ -8(R11)(AX*8), R11 // kinds start at jobCells2 = 1
	CALL R11
	JMP  jobsNext

jobsRows:
	// Row y's lattice rows: SI the top (rowStart[y]), DX the bottom
	// (stride on); its weight: R10 = th, R11 = tl (wy[y] = th·256 + tl).
	MOVQ    y+16(FP), R9
	MOVQ    lerpJob_rowStart(BX), DX
	MOVLQSX (DX)(R9*4), R8
	MOVQ    lerpJob_a(BX), SI
	LEAQ    (SI)(R8*4), SI
	MOVQ    lerpJob_stride(BX), R8
	LEAQ    (SI)(R8*4), DX
	MOVQ    lerpJob_wy(BX), R8
	MOVLQSX (R8)(R9*4), R10
	MOVQ    R10, R11
	SARQ    $8, R10
	ANDQ    $255, R11
	CMPQ    CX, $8
	JLT     jobsRowsShort
	MOVQ    SI, 8(SP)
	MOVQ    DX, 16(SP)
	MOVQ    CX, 24(SP)
	MOVL    R10, 32(SP)
	MOVL    R11, 36(SP)
	CALL    ·lerpRowsAVX2(SB)
	JMP     jobsNext

jobsRowsShort:
	// lerp: a + (b − a)·t >> 16 in 64 bits, t = th·256 + tl.
	SHLQ  $8, R10
	ADDQ  R11, R10
	XORQ  R9, R9
	TESTQ CX, CX
	JLE   jobsNext

jobsShortLoop:
	MOVLQSX (SI)(R9*4), R8
	MOVLQSX (DX)(R9*4), R11
	SUBQ    R8, R11
	IMULQ   R10, R11
	SARQ    $16, R11
	ADDQ    R8, R11
	MOVL    R11, (DI)(R9*4)
	INCQ    R9
	CMPQ    R9, CX
	JLT     jobsShortLoop

jobsNext:
	ADDQ $lerpJob__size, 48(SP)
	DECQ 56(SP)
	JNZ  jobsLoop

jobsDone:
	RET
