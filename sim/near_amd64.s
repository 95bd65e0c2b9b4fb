#include "go_asm.h"
#include "textflag.h"

// nearPick gathers, in each 128-bit lane, the X and Y of the two objects
// that a 16-byte load at an object's start holds (bytes 0–3 and
// Object__size + 0–3) into the lane's low 64 bits.
DATA nearPick<>+0(SB)/1, $(Object_X+0)
DATA nearPick<>+1(SB)/1, $(Object_X+1)
DATA nearPick<>+2(SB)/1, $(Object_X+2)
DATA nearPick<>+3(SB)/1, $(Object_X+3)
DATA nearPick<>+4(SB)/1, $(Object__size+Object_X+0)
DATA nearPick<>+5(SB)/1, $(Object__size+Object_X+1)
DATA nearPick<>+6(SB)/1, $(Object__size+Object_X+2)
DATA nearPick<>+7(SB)/1, $(Object__size+Object_X+3)
DATA nearPick<>+8(SB)/8, $0x8080808080808080
DATA nearPick<>+16(SB)/1, $(Object_X+0)
DATA nearPick<>+17(SB)/1, $(Object_X+1)
DATA nearPick<>+18(SB)/1, $(Object_X+2)
DATA nearPick<>+19(SB)/1, $(Object_X+3)
DATA nearPick<>+20(SB)/1, $(Object__size+Object_X+0)
DATA nearPick<>+21(SB)/1, $(Object__size+Object_X+1)
DATA nearPick<>+22(SB)/1, $(Object__size+Object_X+2)
DATA nearPick<>+23(SB)/1, $(Object__size+Object_X+3)
DATA nearPick<>+24(SB)/8, $0x8080808080808080
GLOBL nearPick<>(SB), RODATA|NOPTR, $32

// func nearMaskAVX2(objs *Object, groups int, pxy uint32, radius int32) uint64
//
// nearMask for the first 8·groups ≤ 64 objects, eight at a time. Four
// 16-byte loads each hold two objects' positions; a shuffle and an unpack
// put the eight in order, X and Y as 16-bit halves of a 32-bit lane. The
// player's position is subtracted half by half, the absolute values are
// summed pairwise into 32 bits, compared with the radius, and the lanes'
// signs collected. (A gather was slower: about 20 cycles a group on Zen 3.)
TEXT ·nearMaskAVX2(SB), NOSPLIT, $0-32
	MOVQ         objs+0(FP), SI
	MOVQ         groups+8(FP), DX
	MOVL         pxy+16(FP), R9
	VMOVD        R9, X4
	VPBROADCASTD X4, Y4
	MOVL         radius+20(FP), R9
	VMOVD        R9, X5
	VPBROADCASTD X5, Y5
	VMOVDQU      nearPick<>(SB), Y6
	VPCMPEQD     Y9, Y9, Y9
	VPSRLW       $15, Y9, Y9   // 1 in every 16-bit half
	XORQ         AX, AX        // the mask
	XORQ         CX, CX        // the first object of the group

nearLoop:
	TESTQ        DX, DX
	JZ           nearDone
	VMOVDQU      (0*Object__size)(SI), X0
	VINSERTI128  $1, (4*Object__size)(SI), Y0, Y0  // objects 0, 1 | 4, 5
	VMOVDQU      (2*Object__size)(SI), X1
	VINSERTI128  $1, (6*Object__size)(SI), Y1, Y1  // objects 2, 3 | 6, 7
	VPSHUFB      Y6, Y0, Y0
	VPSHUFB      Y6, Y1, Y1
	VPUNPCKLQDQ  Y1, Y0, Y0    // objects 0–3 | 4–7
	VPSUBW       Y4, Y0, Y0
	VPABSW       Y0, Y0
	VPMADDWD     Y9, Y0, Y0    // |dx| + |dy|
	VPCMPGTD     Y0, Y5, Y0    // radius > distance
	VMOVMSKPS    Y0, R8
	SHLQ         CX, R8
	ORQ          R8, AX
	ADDQ         $(8*Object__size), SI
	ADDQ         $8, CX
	DECQ         DX
	JMP          nearLoop

nearDone:
	VZEROUPPER
	MOVQ         AX, ret+24(FP)
	RET
