#include "textflag.h"

// func startAreaAVX2(water, mountain, tree, start, dist *int32, groups int, table *int32)
//
// startArea's loop for groups groups of eight tiles, the pointers at the
// first tile (dist at its offset from the player, see generator.startDist):
// s = dist + 2·start; near = logistic(s), from the table by two gathers
// and the same interpolation as logistic; water −= 2·near, mountain −=
// 5·near/2 (near ≥ 0, so the halving is a shift); where s > 0 the three
// rows take startTile.
TEXT ·startAreaAVX2(SB), NOSPLIT, $0-56
	MOVQ water+0(FP), DI
	MOVQ mountain+8(FP), SI
	MOVQ tree+16(FP), DX
	MOVQ start+24(FP), R8
	MOVQ dist+32(FP), R9
	MOVQ groups+40(FP), CX
	MOVQ table+48(FP), R10

	MOVL         $0x500000, AX // 10·8·65536: k's offset
	VMOVD        AX, X15
	VPBROADCASTD X15, Y15
	MOVL         $0xa00000, AX // 160·65536: k at the table's last entry
	VMOVD        AX, X14
	VPBROADCASTD X14, Y14
	MOVL         $0xffff, AX
	VMOVD        AX, X13
	VPBROADCASTD X13, Y13
	MOVL         $160, AX // the last index
	VMOVD        AX, X12
	VPBROADCASTD X12, Y12
	MOVL         $0x80000000, AX // startTile
	VMOVD        AX, X11
	VPBROADCASTD X11, Y11
	VPXOR        Y10, Y10, Y10
	MOVL         $1, AX
	VMOVD        AX, X9
	VPBROADCASTD X9, Y9
	TESTQ        CX, CX
	JLE          startDone

startLoop:
	VMOVDQU (R8), Y1
	VPADDD  Y1, Y1, Y1
	VPADDD  (R9), Y1, Y0 // s
	VPSLLD  $3, Y0, Y2
	VPADDD  Y15, Y2, Y2  // k
	VPMAXSD Y10, Y2, Y2  // k ≤ 0 reads entry 0 with no weight
	VPMINSD Y14, Y2, Y2  // past the end reads the last entry with no weight
	VPSRAD  $16, Y2, Y3  // i
	VPAND   Y13, Y2, Y4  // the weight
	VPADDD  Y9, Y3, Y5
	VPMINSD Y12, Y5, Y5  // i+1, kept in the table

	VPCMPEQD   Y6, Y6, Y6
	VPGATHERDD Y6, (R10)(Y3*4), Y7 // a
	VPCMPEQD   Y6, Y6, Y6
	VPGATHERDD Y6, (R10)(Y5*4), Y8 // b
	VPSUBD     Y7, Y8, Y8
	VPMULLD    Y4, Y8, Y8 // (b−a)·weight < 2^31 (TestStartAreaKernelBounds)
	VPSRAD     $16, Y8, Y8
	VPADDD     Y7, Y8, Y8 // near

	VPCMPGTD Y10, Y0, Y4 // s > 0
	VMOVDQU  (DI), Y1
	VPSUBD   Y8, Y1, Y1
	VPSUBD   Y8, Y1, Y1
	VPBLENDVB Y4, Y11, Y1, Y1
	VMOVDQU  Y1, (DI)
	VPSLLD   $2, Y8, Y2
	VPADDD   Y8, Y2, Y2
	VPSRAD   $1, Y2, Y2 // 5·near/2
	VMOVDQU  (SI), Y3
	VPSUBD   Y2, Y3, Y3
	VPBLENDVB Y4, Y11, Y3, Y3
	VMOVDQU  Y3, (SI)
	VMOVDQU  (DX), Y5
	VPBLENDVB Y4, Y11, Y5, Y5
	VMOVDQU  Y5, (DX)

	ADDQ $32, DI
	ADDQ $32, SI
	ADDQ $32, DX
	ADDQ $32, R8
	ADDQ $32, R9
	DECQ CX
	JNZ  startLoop

startDone:
	VZEROUPPER
	RET
