#include "textflag.h"

// func prefetchRows(p unsafe.Pointer, n, stride uintptr, rows int)
//
// PREFETCHT0 on every 64-byte line of the rows [p + r·stride, +n) for
// r < rows: from the line of a row's first byte through that of its
// last. A prefetch never faults, and touches no vector register.
TEXT ·prefetchRows(SB), NOSPLIT, $0-32
	MOVQ p+0(FP), AX
	MOVQ n+8(FP), CX
	MOVQ stride+16(FP), DX
	MOVQ rows+24(FP), BX
	TESTQ CX, CX
	JZ   done
	DECQ CX // a row's last byte is at n-1

row:
	TESTQ BX, BX
	JLE  done
	MOVQ AX, SI
	LEAQ (AX)(CX*1), DI
	ANDQ $~63, SI
	ANDQ $~63, DI

line:
	PREFETCHT0 (SI)
	ADDQ $64, SI
	CMPQ SI, DI
	JLS  line
	ADDQ DX, AX
	DECQ BX
	JMP  row

done:
	RET
