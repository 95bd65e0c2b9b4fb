#include "go_asm.h"
#include "textflag.h"
#include "lerp_amd64.h"

// The AVX-512 decision kernel: decideAVX2 on sixteen tiles an iteration,
// in ZMM registers, with mask registers where decideAVX2 computes
// compare, and, blend chains. Every threshold and weight is a broadcast
// operand, and VPMOVDB packs sixteen materials to bytes in one
// instruction. Only Z0 to Z15 are used, whose upper halves VZEROUPPER
// clears: it leaves ZMM16 to ZMM31 as they are, and on some CPUs a dirty
// upper state slows the legacy-SSE code Go compiles (see
// mix64_amd64.h). On this
// project's AVX-512 machine (a Zen 5 class EPYC, whose vector units are
// 512 bits wide) an iteration costs little more than decideAVX2's for
// half as many tiles; see docs/step-speed.md.

// WIDEWEIGHT is decide_amd64.s's WEIGHT: field K's weight on row DX,
// split 256·hi + lo, into decideSetup.acrossW, where WIDEACROSS reads it
// as a broadcast operand. It overwrites R9 to R11.
#define WIDEWEIGHT(K) \
	MOVQ (decideSetup_acrossWy+8*K)(BX), R9 \
	MOVL (R9)(DX*4), R10 \
	MOVL R10, R11 \
	SARL $8, R11 \
	MOVL R11, (decideSetup_acrossW+8*K)(BX) \
	ANDL $255, R10 \
	MOVL R10, (decideSetup_acrossW+8*K+4)(BX)

// WIDEACROSS sets Z9 to across-first field K on the group's sixteen
// tiles, as ACROSS does on eight (LERP's steps, the weight's halves
// broadcast from memory). It overwrites R9, R10, Z3 and Z8.
#define WIDEACROSS(K) \
	MOVQ         (decideSetup_acrossTop+8*K)(BX), R9 \
	MOVQ         (decideSetup_acrossBot+8*K)(BX), R10 \
	VMOVDQU32    (R9)(R8*4), Z3 \
	VMOVDQU32    (R10)(R8*4), Z8 \
	VPSUBD       Z3, Z8, Z8 \
	VPMULLD.BCST (decideSetup_acrossW+8*K)(BX), Z8, Z9 \
	VPMULLD.BCST (decideSetup_acrossW+8*K+4)(BX), Z8, Z8 \
	VPSRAD       $8, Z8, Z8 \
	VPADDD       Z8, Z9, Z9 \
	VPSRAD       $8, Z9, Z9 \
	VPADDD       Z3, Z9, Z9

// func decideAVX512(gen *generator, groups, y int)
//
// Decides sixteen tiles an iteration for groups groups, as decideAVX2
// does eight (decide_amd64.s has the tests in the same order). Masks:
// K1 mountain tiles, K2 the test at hand, K3 tunnels (then the tiles
// where skeletons may start), K4 sand, K5 water, K6 trees, K7 scratch.
TEXT ·decideAVX512(SB), NOSPLIT, $0-24
	MOVQ gen+0(FP), AX
	MOVQ groups+8(FP), CX
	LEAQ generator_decide(AX), BX
	MOVQ y+16(FP), DX
	WIDEWEIGHT(0)
	WIDEWEIGHT(1)
	WIDEWEIGHT(2)
	WIDEWEIGHT(3)
	WIDEWEIGHT(4)
	VMOVDQU32 decideSetup_wideDraws(BX), Z14
	VMOVDQU32 decideSetup_wideDraws+64(BX), Z15
	XORQ      R8, R8
	TESTQ     CX, CX
	JLE       done

loop:
	// Z0 = water; Z1 = mv = mountain − ⌊water·19660/65536⌋; K1 = mountain
	// tiles (mv > mountainLevel), as in decideAVX2.
	VMOVDQU32     generator_water(AX)(R8*4), Z0
	VPMULLD.BCST  decideSetup_w76(BX), Z0, Z2
	VPMULLD.BCST  decideSetup_w204(BX), Z0, Z3
	VPSRAD        $8, Z3, Z3
	VPADDD        Z3, Z2, Z2
	VPSRAD        $8, Z2, Z2
	VMOVDQU32     generator_mountain(AX)(R8*4), Z1
	VPSUBD        Z2, Z1, Z1
	VPCMPGTD.BCST decideSetup_mountainLevel(BX), Z1, K1

	// Z6 = draws 0 and 1 (low and high halves), Z7 = draws 2 and 3, a
	// lane a tile: the low and high dwords of the sixteen hashes, picked
	// from both halves by the indices in Z14 and Z15.
	VMOVDQU64 generator_hashes(AX)(R8*8), Z6
	VMOVDQA64 Z6, Z7
	VPERMT2D  generator_hashes+64(AX)(R8*8), Z14, Z6
	VPERMT2D  generator_hashes+64(AX)(R8*8), Z15, Z7

	// Z13 = the material inside mountains: stone, then lava, diamond,
	// iron, coal, tunnel and cave broadcast over it where their masks
	// hold.
	VPBROADCASTD  decideSetup_stone(BX), Z13
	VPCMPGTD.BCST decideSetup_lavaMountain(BX), Z1, K2
	WIDEACROSS(4)
	VPCMPGTD.BCST decideSetup_lavaLevel(BX), Z9, K2, K2
	VPBROADCASTD  decideSetup_lava(BX), K2, Z13

	VPCMPGTD.BCST decideSetup_diamondMountain(BX), Z1, K2
	VPANDD.BCST   decideSetup_low16(BX), Z7, Z3
	VPCMPGTD.BCST decideSetup_diamond(BX), Z3, K2, K2
	VPBROADCASTD  decideSetup_diamondM(BX), K2, Z13

	VPSRLD        $16, Z6, Z2
	VPCMPGTD.BCST decideSetup_iron(BX), Z2, K2
	WIDEACROSS(3)
	VPCMPGTD.BCST decideSetup_ironLevel(BX), Z9, K2, K2
	VPBROADCASTD  decideSetup_ironM(BX), K2, Z13

	VPANDD.BCST   decideSetup_low16(BX), Z6, Z2
	VPCMPGTD.BCST decideSetup_coal(BX), Z2, K2
	WIDEACROSS(2)
	VPCMPGTD.BCST decideSetup_coalLevel(BX), Z9, K2, K2
	VPBROADCASTD  decideSetup_coalM(BX), K2, Z13

	VMOVDQU32     generator_tunnelH(AX)(R8*4), Z2
	VPCMPGTD.BCST decideSetup_tunnelLevel(BX), Z2, K3
	VMOVDQU32     generator_tunnelV(AX)(R8*4), Z3
	VPCMPGTD.BCST decideSetup_tunnelLevel(BX), Z3, K4
	KORW          K4, K3, K3
	VPBROADCASTD  decideSetup_path(BX), K3, Z13

	VPCMPGTD.BCST decideSetup_caveMountain(BX), Z1, K2
	WIDEACROSS(1)
	VPCMPGTD.BCST decideSetup_caveLevel(BX), Z9, K2, K2
	VPBROADCASTD  decideSetup_path(BX), K2, Z13

	// K3 = tiles where skeletons may start: mountain tunnels, not caves.
	KANDNW K3, K2, K3 // K3 = K3 &^ K2
	KANDW  K1, K3, K3

	// Z11 = the material elsewhere: K4 sand (sandLow < water ≤ sandHigh,
	// the sand field above sandLevel), K5 water (above waterLevel, not
	// sand), K6 trees (the tree draw passed, the tree field above
	// treeLevel, neither sand nor water).
	VPCMPGTD.BCST decideSetup_sandLow(BX), Z0, K4
	VPCMPGTD.BCST decideSetup_sandHigh(BX), Z0, K5
	KANDNW        K4, K5, K4 // K4 = K4 &^ K5
	WIDEACROSS(0)
	VPCMPGTD.BCST decideSetup_sandLevel(BX), Z9, K4, K4
	VPCMPGTD.BCST decideSetup_waterLevel(BX), Z0, K5
	KANDNW        K5, K4, K5 // K5 = K5 &^ K4
	VPMOVZXBD     generator_passes(AX)(R8*1), Z4
	VPTESTMD.BCST decideSetup_passTree(BX), Z4, K6
	VMOVDQU32     generator_treeRow(AX)(R8*4), Z5
	VPCMPGTD.BCST decideSetup_treeLevel(BX), Z5, K6, K6
	KORW          K4, K5, K7
	KANDNW        K6, K7, K6 // K6 = K6 &^ K7
	VPBROADCASTD  decideSetup_grass(BX), Z11
	VPBROADCASTD  decideSetup_tree(BX), K6, Z11
	VPBROADCASTD  decideSetup_sandM(BX), K4, Z11
	VPBROADCASTD  decideSetup_water(BX), K5, Z11

	// The tile: the mountain's material or the other. Z12 = the
	// creature draws it may start from, in byte 1 of the lane, kept only
	// where the tile is walkable (K2: walkD[material], VPERMD indexing
	// sixteen dwords by the lane's low four bits), the cow's only on
	// grass (K7).
	VMOVDQA32       Z13, K1, Z11
	VPERMD          decideSetup_walkD(BX), Z11, Z2
	VPTESTMD        Z2, Z2, K2
	VPCMPEQD.BCST   decideSetup_grass(BX), Z11, K7
	VPBROADCASTD.Z  decideSetup_skeleton(BX), K3, Z12
	VPORD.BCST      decideSetup_cow(BX), Z12, K7, Z12
	VPORD.BCST      decideSetup_zombie(BX), Z12, Z12
	VMOVDQA32.Z     Z12, K2, Z12
	VPSRLD          $8, Z12, Z12
	VPMOVDB         Z12, generator_creatures(AX)(R8*1)
	VPMOVDB         Z11, X11
	VMOVDQU         X11, generator_tileRow(AX)(R8*1)

	// The balance counts, sixteen columns at a time, as in decideAVX2.
	VPCMPEQB decideSetup_count+0(BX), X11, X2
	VMOVDQU  generator_columns+0(AX)(R8*1), X3
	VPSUBB   X2, X3, X3
	VMOVDQU  X3, generator_columns+0(AX)(R8*1)
	VPCMPEQB decideSetup_count+16(BX), X11, X2
	VMOVDQU  generator_columns+1024(AX)(R8*1), X3
	VPSUBB   X2, X3, X3
	VMOVDQU  X3, generator_columns+1024(AX)(R8*1)
	VPCMPEQB decideSetup_count+32(BX), X11, X2
	VMOVDQU  generator_columns+2048(AX)(R8*1), X3
	VPSUBB   X2, X3, X3
	VMOVDQU  X3, generator_columns+2048(AX)(R8*1)
	VPCMPEQB decideSetup_count+48(BX), X11, X2
	VMOVDQU  generator_columns+3072(AX)(R8*1), X3
	VPSUBB   X2, X3, X3
	VMOVDQU  X3, generator_columns+3072(AX)(R8*1)

	ADDQ $16, R8
	DECQ CX
	JNZ  loop

done:
	VZEROUPPER
	RET
