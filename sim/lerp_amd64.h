// The interpolation the vector kernels share (lerp_amd64.s,
// lerp512_amd64.s, decide_amd64.s): a + ⌊(b−a)·t/65536⌋ in 32-bit
// lanes, exactly as lerp does in 64 bits. With t = th·256 + tl (both below 256) and
// |b−a| < 2^23, (b−a)·th and (b−a)·tl fit 32 bits, and
// ⌊(256·A + B)/65536⌋ = (A + (B >> 8)) >> 8 with arithmetic shifts.

// LERP sets OUT to lerp(A, B, t) in 32-bit lanes (eight in Y registers,
// sixteen in Z registers), t's halves in HI (th) and LO (tl). It
// overwrites B and T, which may be the same register.
#define LERP(A, B, HI, LO, T, OUT) \
	VPSUBD  A, B, B \
	VPMULLD HI, B, OUT \
	VPMULLD LO, B, T \
	VPSRAD  $8, T, T \
	VPADDD  T, OUT, OUT \
	VPSRAD  $8, OUT, OUT \
	VPADDD  A, OUT, OUT
