#include "go_asm.h"
#include "textflag.h"
#include "lerp_amd64.h"
#include "decide_amd64.h"

// ACROSS sets Y9 to across-first field K (0 sand, 1 cave, 2 coal, 3 iron,
// 4 lava; see decideSetup) on the group's eight tiles: lerp(top, bot,
// 256·hi + lo) from its pair of rows, as lerpRows computes it. It
// overwrites R9, R10, Y3, Y8, Y10 and Y11.
#define ACROSS(K) \
	MOVQ         (decideSetup_acrossTop+8*K)(BX), R9 \
	MOVQ         (decideSetup_acrossBot+8*K)(BX), R10 \
	VMOVDQU      (R9)(R8*4), Y3 \
	VMOVDQU      (R10)(R8*4), Y8 \
	VPBROADCASTD (decideSetup_acrossW+8*K)(BX), Y10 \
	VPBROADCASTD (decideSetup_acrossW+8*K+4)(BX), Y11 \
	LERP(Y3, Y8, Y10, Y11, Y8, Y9)

// func decideAVX2(gen *generator, groups, y int)
//
// Decides eight tiles an iteration, as decideRow does one by one (see
// decide.go), without a branch on a tile: every test is computed in all
// eight lanes, and the material is blended in, the first test of the
// chain last. Comparisons are signed 32-bit, as the Go code's int32
// ones. The thresholds are decideSetup's lanes, read from memory. The
// across-first fields are brought down to the row here (ACROSS), from
// their pairs of lattice rows, rather than into rows of their own first.
// Skipping them, and the inside of mountains, on groups with no
// mountain or beach tile took 11 % fewer instructions but 5 % more time:
// at eight tiles, which groups have one is not predictable enough.
TEXT ·decideAVX2(SB), NOSPLIT, $0-24
	ENTER
	XORQ  R8, R8
	TESTQ CX, CX
	JLE   done

loop:
	// Y0 = water; Y1 = mv = mountain − ⌊water·19660/65536⌋, the
	// product split as 76·256 + 204 to fit 32 bits.
	VMOVDQU  generator_water(AX)(R8*4), Y0
	VPMULLD  decideSetup_w76(BX), Y0, Y2
	VPMULLD  decideSetup_w204(BX), Y0, Y3
	VPSRAD   $8, Y3, Y3
	VPADDD   Y3, Y2, Y2
	VPSRAD   $8, Y2, Y2
	VMOVDQU  generator_mountain(AX)(R8*4), Y1
	VPSUBD   Y2, Y1, Y1

	// Y14 = mountain tiles (mv > mountainLevel). The start area's tiles
	// (water and mountain startTile) need no mask: there both products
	// wrap to 0, so mv is startTile and fails the test, as in decideRow.
	VPCMPGTD decideSetup_mountainLevel(BX), Y1, Y14

	// Y6 = draws 0 and 1 (low and high halves), Y7 = draws 2 and 3, a
	// lane a tile: the low and high dwords of the eight hashes, in order.
	VMOVDQU generator_hashes(AX)(R8*8), Y4
	VMOVDQU generator_hashes+32(AX)(R8*8), Y5
	VSHUFPS $0x88, Y5, Y4, Y6
	VSHUFPS $0xDD, Y5, Y4, Y7
	VPERMQ  $0xD8, Y6, Y6
	VPERMQ  $0xD8, Y7, Y7

	// Y13 = the material inside mountains: stone, then lava, diamond,
	// iron, coal, tunnel and cave blended in over it.
	VMOVDQU   decideSetup_stone(BX), Y13
	VPCMPGTD  decideSetup_lavaMountain(BX), Y1, Y2
	ACROSS(4)
	VPCMPGTD  decideSetup_lavaLevel(BX), Y9, Y3
	VPAND     Y3, Y2, Y2
	VPBLENDVB Y2, decideSetup_lava(BX), Y13, Y13

	VPCMPGTD  decideSetup_diamondMountain(BX), Y1, Y2
	VPAND     decideSetup_low16(BX), Y7, Y3
	VPCMPGTD  decideSetup_diamond(BX), Y3, Y3
	VPAND     Y3, Y2, Y2
	VPBLENDVB Y2, decideSetup_diamondM(BX), Y13, Y13

	VPSRLD    $16, Y6, Y2
	VPCMPGTD  decideSetup_iron(BX), Y2, Y2
	ACROSS(3)
	VPCMPGTD  decideSetup_ironLevel(BX), Y9, Y3
	VPAND     Y3, Y2, Y2
	VPBLENDVB Y2, decideSetup_ironM(BX), Y13, Y13

	VPAND     decideSetup_low16(BX), Y6, Y2
	VPCMPGTD  decideSetup_coal(BX), Y2, Y2
	ACROSS(2)
	VPCMPGTD  decideSetup_coalLevel(BX), Y9, Y3
	VPAND     Y3, Y2, Y2
	VPBLENDVB Y2, decideSetup_coalM(BX), Y13, Y13

	VMOVDQU   generator_tunnelH(AX)(R8*4), Y2
	VPCMPGTD  decideSetup_tunnelLevel(BX), Y2, Y2
	VMOVDQU   generator_tunnelV(AX)(R8*4), Y3
	VPCMPGTD  decideSetup_tunnelLevel(BX), Y3, Y3
	VPOR      Y3, Y2, Y12
	VPBLENDVB Y12, decideSetup_path(BX), Y13, Y13

	VPCMPGTD  decideSetup_caveMountain(BX), Y1, Y2
	ACROSS(1)
	VPCMPGTD  decideSetup_caveLevel(BX), Y9, Y3
	VPAND     Y3, Y2, Y2
	VPBLENDVB Y2, decideSetup_path(BX), Y13, Y13

	// Y12 = tiles where skeletons may start: mountain tunnels, not caves.
	VPANDN Y12, Y2, Y12
	VPAND  Y14, Y12, Y12

	// Y11 = the material elsewhere. Y2 = sand (sandLow < water ≤
	// sandHigh, the sand field above sandLevel), Y3 = water (above
	// waterLevel, not sand), Y4 = trees (the tree draw passed, the tree
	// field above treeLevel, neither sand nor water).
	VPCMPGTD  decideSetup_sandLow(BX), Y0, Y2
	VPCMPGTD  decideSetup_sandHigh(BX), Y0, Y3
	VPANDN    Y2, Y3, Y2
	ACROSS(0)
	VPCMPGTD  decideSetup_sandLevel(BX), Y9, Y3
	VPAND     Y3, Y2, Y2
	VPCMPGTD  decideSetup_waterLevel(BX), Y0, Y3
	VPANDN    Y3, Y2, Y3
	VPMOVZXBD generator_passes(AX)(R8*1), Y4
	VPAND     decideSetup_passTree(BX), Y4, Y4
	VPXOR     Y5, Y5, Y5
	VPCMPGTD  Y5, Y4, Y4
	VMOVDQU   generator_treeRow(AX)(R8*4), Y5
	VPCMPGTD  decideSetup_treeLevel(BX), Y5, Y5
	VPAND     Y5, Y4, Y4
	VPOR      Y3, Y2, Y5
	VPANDN    Y4, Y5, Y4
	VMOVDQU   decideSetup_grass(BX), Y11
	VPBLENDVB Y4, decideSetup_tree(BX), Y11, Y11
	VPBLENDVB Y2, decideSetup_sandM(BX), Y11, Y11
	VPBLENDVB Y3, decideSetup_water(BX), Y11, Y11

	// The tile: the mountain's material or the other, in byte 0 of its
	// lane, the creature draws it may start from in byte 1; packed to
	// eight materials and eight draws. The draws are those decideRow
	// gives (the cow's, the zombie's, and in tunnels the skeleton's),
	// kept only where the tile could start one, so that scatterRow visits
	// few tiles that start none: the tile walkable (walk, by material;
	// every byte of the lane but the first indexes material 0), the
	// cow's only on grass.
	VPBLENDVB Y14, Y13, Y11, Y11
	VMOVDQU   decideSetup_walk(BX), Y2
	VPSHUFB   Y11, Y2, Y2 // walk[material]: the lanes index the table
	VPXOR     Y3, Y3, Y3
	VPCMPGTD  Y3, Y2, Y2
	VPCMPEQD  decideSetup_grass(BX), Y11, Y3
	VPAND     decideSetup_cow(BX), Y3, Y3
	VPAND     decideSetup_skeleton(BX), Y12, Y12
	VPOR      Y3, Y12, Y12
	VPOR      decideSetup_zombie(BX), Y12, Y12
	VPAND     Y2, Y12, Y12
	VPOR      Y12, Y11, Y11
	VPSHUFB   decideSetup_pack(BX), Y11, Y11
	VMOVDQU   decideSetup_order(BX), Y10
	VPERMD    Y11, Y10, Y11
	VMOVQ     X11, generator_tileRow(AX)(R8*1)
	VPEXTRQ   $1, X11, generator_creatures(AX)(R8*1)

	// The balance counts: each counted material's column bytes (see
	// countRow) take one where the tile is of it (subtracting the
	// compare's −1); the unused patterns match no material.
	COUNTSET(0, VMOVQ)
	COUNTSET(1, VMOVQ)
	COUNTSET(2, VMOVQ)
	COUNTSET(3, VMOVQ)

	ADDQ $8, R8
	DECQ CX
	JNZ  loop

done:
	VZEROUPPER
	RET
