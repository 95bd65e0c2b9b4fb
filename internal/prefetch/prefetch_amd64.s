#include "textflag.h"

// func lines(p unsafe.Pointer, n uintptr)
//
// PREFETCHT0 on every 64-byte line from that of p through that of
// p+n−1. It touches no vector register.
TEXT ·lines(SB), NOSPLIT, $0-16
	MOVQ p+0(FP), SI
	MOVQ n+8(FP), DI
	LEAQ -1(SI)(DI*1), DI
	ANDQ $~63, SI
	ANDQ $~63, DI

line:
	PREFETCHT0 (SI)
	ADDQ       $64, SI
	CMPQ       SI, DI
	JLS        line
	RET
