//go:build !race

#include "textflag.h"

// func streamCopy(dst, src *byte, n int)
//
// Copies n bytes, n a multiple of 32, with non-temporal stores
// (MOVNTI: general registers only, so no vector state, and no alignment
// needed), then SFENCE, so that the frame is visible to the host before
// the pool reports the operation done.
TEXT ·streamCopy(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	SHRQ $5, CX
	JZ   done

loop:
	MOVQ    (SI), AX
	MOVQ    8(SI), BX
	MOVQ    16(SI), DX
	MOVQ    24(SI), R8
	MOVNTIQ AX, (DI)
	MOVNTIQ BX, 8(DI)
	MOVNTIQ DX, 16(DI)
	MOVNTIQ R8, 24(DI)
	ADDQ    $32, SI
	ADDQ    $32, DI
	DECQ    CX
	JNZ     loop

done:
	SFENCE
	RET
