// What the two decision kernels (decide_amd64.s, eight tiles an
// iteration; decide512_amd64.s, sixteen) share. Both hold the generator
// in AX, its decideSetup in BX, the row in DX and the group's first tile
// in R8, and leave the group's materials, one byte a tile, in X11.

// WEIGHT sets across-first field K's weight on row DX, split 256·hi + lo
// (decideSetup.acrossW), from its weights by row. It overwrites R9 to
// R11.
#define WEIGHT(K) \
	MOVQ (decideSetup_acrossWy+8*K)(BX), R9 \
	MOVL (R9)(DX*4), R10 \
	MOVL R10, R11 \
	SARL $8, R11 \
	MOVL R11, (decideSetup_acrossW+8*K)(BX) \
	ANDL $255, R10 \
	MOVL R10, (decideSetup_acrossW+8*K+4)(BX)

// ENTER loads a decision kernel's arguments as above (AX, BX, the group
// count in CX, DX) and sets the five across-first fields' weights on the
// row.
#define ENTER \
	MOVQ gen+0(FP), AX \
	MOVQ groups+8(FP), CX \
	LEAQ generator_decide(AX), BX \
	MOVQ y+16(FP), DX \
	WEIGHT(0) \
	WEIGHT(1) \
	WEIGHT(2) \
	WEIGHT(3) \
	WEIGHT(4)

// COUNTSET counts the group's tiles into column set K of
// generator.columns (see countRow): each column byte takes one where its
// tile is of the set's material (subtracting the compare's −1), the
// bytes moved by MOVE (VMOVQ for eight, VMOVDQU for sixteen). It
// overwrites X2 and X3.
#define COUNTSET(K, MOVE) \
	VPCMPEQB (decideSetup_count+16*K)(BX), X11, X2 \
	MOVE     (generator_columns+1024*K)(AX)(R8*1), X3 \
	VPSUBB   X2, X3, X3 \
	MOVE     X3, (generator_columns+1024*K)(AX)(R8*1)
