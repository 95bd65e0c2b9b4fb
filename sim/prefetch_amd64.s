#include "go_asm.h"
#include "textflag.h"

// PREFETCH_ROWS issues PREFETCHT0 on every 64-byte line of BX rows of CX
// bytes, DX apart, from AX: from the line of a row's first byte through
// that of its last. A prefetch never faults, and touches no vector
// register.
#define PREFETCH_ROWS \
	TESTQ CX, CX \
	JZ    done \
	DECQ  CX \
row: \
	TESTQ BX, BX \
	JLE   done \
	MOVQ  AX, SI \
	LEAQ  (AX)(CX*1), DI \
	ANDQ  $~63, SI \
	ANDQ  $~63, DI \
line: \
	PREFETCHT0 (SI) \
	ADDQ  $64, SI \
	CMPQ  SI, DI \
	JLS   line \
	ADDQ  DX, AX \
	DECQ  BX \
	JMP   row \
done: \
	RET

// func prefetchWorld(w *World)
TEXT ·prefetchWorld(SB), NOSPLIT, $0-8
	MOVQ w+0(FP), AX
	MOVQ $World__size, CX
	XORQ DX, DX
	MOVQ $1, BX
	PREFETCH_ROWS

// func prefetchObjects(o *Object, n int)
TEXT ·prefetchObjects(SB), NOSPLIT, $0-16
	MOVQ o+0(FP), AX
	MOVQ n+8(FP), CX
	IMULQ $Object__size, CX
	XORQ DX, DX
	MOVQ $1, BX
	PREFETCH_ROWS

// func prefetchChunks(c *chunkCounts, n int)
TEXT ·prefetchChunks(SB), NOSPLIT, $0-16
	MOVQ c+0(FP), AX
	MOVQ n+8(FP), CX
	IMULQ $chunkCounts__size, CX
	XORQ DX, DX
	MOVQ $1, BX
	PREFETCH_ROWS

// func prefetchTileRows(p *Material, n, stride, rows int)
TEXT ·prefetchTileRows(SB), NOSPLIT, $0-32
	MOVQ p+0(FP), AX
	MOVQ n+8(FP), CX
	MOVQ stride+16(FP), DX
	MOVQ rows+24(FP), BX
	PREFETCH_ROWS

// func prefetchSlotRows(p *uint8, n, stride, rows int)
TEXT ·prefetchSlotRows(SB), NOSPLIT, $0-32
	MOVQ p+0(FP), AX
	MOVQ n+8(FP), CX
	MOVQ stride+16(FP), DX
	MOVQ rows+24(FP), BX
	PREFETCH_ROWS
