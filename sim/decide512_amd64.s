#include "go_asm.h"
#include "textflag.h"
#include "lerp_amd64.h"
#include "decide_amd64.h"

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

// WIDEACROSS sets Z9 to across-first field K on the group's sixteen
// tiles, as ACROSS does on eight: LERP's steps (lerp_amd64.h), with the
// weight's halves as broadcast operands of the multiplies. Broadcasting
// them into registers first, to use LERP itself, was slower (two more
// instructions a field: Reset 27.9 against 30.0 µs, medians of 10
// alternated rounds in a slow hour). It overwrites R9, R10, Z3 and Z8.
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

// wideDraws indexes, for VPERMT2D, the low dwords of sixteen hashes in
// two vectors (draws 0 and 1), then at +64 the high ones (draws 2 and 3).
DATA wideDraws<>+0(SB)/4, $0
DATA wideDraws<>+4(SB)/4, $2
DATA wideDraws<>+8(SB)/4, $4
DATA wideDraws<>+12(SB)/4, $6
DATA wideDraws<>+16(SB)/4, $8
DATA wideDraws<>+20(SB)/4, $10
DATA wideDraws<>+24(SB)/4, $12
DATA wideDraws<>+28(SB)/4, $14
DATA wideDraws<>+32(SB)/4, $16
DATA wideDraws<>+36(SB)/4, $18
DATA wideDraws<>+40(SB)/4, $20
DATA wideDraws<>+44(SB)/4, $22
DATA wideDraws<>+48(SB)/4, $24
DATA wideDraws<>+52(SB)/4, $26
DATA wideDraws<>+56(SB)/4, $28
DATA wideDraws<>+60(SB)/4, $30
DATA wideDraws<>+64(SB)/4, $1
DATA wideDraws<>+68(SB)/4, $3
DATA wideDraws<>+72(SB)/4, $5
DATA wideDraws<>+76(SB)/4, $7
DATA wideDraws<>+80(SB)/4, $9
DATA wideDraws<>+84(SB)/4, $11
DATA wideDraws<>+88(SB)/4, $13
DATA wideDraws<>+92(SB)/4, $15
DATA wideDraws<>+96(SB)/4, $17
DATA wideDraws<>+100(SB)/4, $19
DATA wideDraws<>+104(SB)/4, $21
DATA wideDraws<>+108(SB)/4, $23
DATA wideDraws<>+112(SB)/4, $25
DATA wideDraws<>+116(SB)/4, $27
DATA wideDraws<>+120(SB)/4, $29
DATA wideDraws<>+124(SB)/4, $31
GLOBL wideDraws<>(SB), RODATA|NOPTR, $128

// func decideAVX512(gen *generator, groups, y int)
//
// Decides sixteen tiles an iteration for groups groups, as decideAVX2
// does eight (decide_amd64.s has the tests in the same order). Masks:
// K1 mountain tiles, K2 the test at hand, K3 tunnels (then the tiles
// where skeletons may start), K4 sand, K5 water, K6 trees, K7 scratch.
TEXT ·decideAVX512(SB), NOSPLIT, $0-24
	ENTER
	VMOVDQU32 wideDraws<>(SB), Z14
	VMOVDQU32 wideDraws<>+64(SB), Z15
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
	COUNTSET(0, VMOVDQU)
	COUNTSET(1, VMOVDQU)
	COUNTSET(2, VMOVDQU)
	COUNTSET(3, VMOVDQU)

	ADDQ $16, R8
	DECQ CX
	JNZ  loop

done:
	VZEROUPPER
	RET
