/*
 * Bit-level primitives shared by the generated datapath and the runtime.
 *
 * P4 values of up to 64 bits live in uint64_t (unsigned) or int64_t (signed)
 * with the invariant that only the low W bits carry the value: unsigned
 * values are zero-extended, signed ones sign-extended.  Every operation that
 * can overflow is followed by p4odp_trunc() or p4odp_sext(), which gives
 * P4's wrap-around semantics.  Packet fields are read and written at any bit
 * offset in network byte order.
 */
#ifndef P4ODP_BITS_H_
#define P4ODP_BITS_H_

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#define p4odp_likely(x) __builtin_expect(!!(x), 1)
#define p4odp_unlikely(x) __builtin_expect(!!(x), 0)

static inline uint64_t p4odp_mask(uint32_t width)
{
	return width >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << width) - 1;
}

/* The low `width` bits of `v`: unsigned wrap-around. */
static inline uint64_t p4odp_trunc(uint64_t v, uint32_t width)
{
	return v & p4odp_mask(width);
}

/* `v` taken as a `width`-bit two's complement number: signed wrap-around. */
static inline int64_t p4odp_sext(uint64_t v, uint32_t width)
{
	if (width >= 64)
		return (int64_t)v;
	uint64_t m = UINT64_C(1) << (width - 1);
	v &= p4odp_mask(width);
	return (int64_t)((v ^ m) - m);
}

static inline uint64_t p4odp_shl(uint64_t v, uint64_t amount, uint32_t width)
{
	return amount >= width ? 0 : p4odp_trunc(v << amount, width);
}

static inline uint64_t p4odp_shr(uint64_t v, uint64_t amount)
{
	return amount >= 64 ? 0 : v >> amount;
}

static inline int64_t p4odp_sshr(int64_t v, uint64_t amount)
{
	return amount >= 63 ? (v < 0 ? -1 : 0) : v >> amount;
}

static inline uint64_t p4odp_add_sat(uint64_t a, uint64_t b, uint32_t width)
{
	uint64_t max = p4odp_mask(width), sum = a + b;
	return (sum > max || sum < a) ? max : sum;
}

static inline uint64_t p4odp_sub_sat(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}

/* The range of int<width>: [-max - 1, max]. */
static inline int64_t p4odp_smax(uint32_t width)
{
	return (int64_t)(p4odp_mask(width) >> 1);
}

/* a + b as int<width>, saturating.  Operands are int<width> values, so the
 * sum overflows int64_t only when width is 64; no 128-bit type is needed
 * (32-bit targets have none). */
static inline int64_t p4odp_sadd_sat(int64_t a, int64_t b, uint32_t width)
{
	int64_t max = p4odp_smax(width), min = -max - 1, sum;
	if (__builtin_add_overflow(a, b, &sum))
		return a < 0 ? min : max;
	return sum > max ? max : sum < min ? min : sum;
}

/* a - b as int<width>, saturating (not a + (-b): -INT64_MIN overflows). */
static inline int64_t p4odp_ssub_sat(int64_t a, int64_t b, uint32_t width)
{
	int64_t max = p4odp_smax(width), min = -max - 1, diff;
	if (__builtin_sub_overflow(a, b, &diff))
		return a < 0 ? min : max;
	return diff > max ? max : diff < min ? min : diff;
}

/* `width` bits at bit `shift` (0..7) of `p`, where they span at most 8 bytes
 * (shift + width <= 64). */
static inline uint64_t p4odp__load_bits8(const uint8_t *p, uint32_t shift, uint32_t width)
{
	uint32_t nbytes = (shift + width + 7) >> 3;
	uint64_t acc = 0;
	for (uint32_t i = 0; i < nbytes; i++)
		acc = (acc << 8) | p[i];
	acc >>= nbytes * 8 - shift - width;
	return acc & p4odp_mask(width);
}

static inline void p4odp__store_bits8(uint8_t *p, uint32_t shift, uint32_t width, uint64_t v)
{
	uint32_t nbytes = (shift + width + 7) >> 3, low = nbytes * 8 - shift - width;
	uint64_t acc = 0, mask = p4odp_mask(width) << low;
	for (uint32_t i = 0; i < nbytes; i++)
		acc = (acc << 8) | p[i];
	acc = (acc & ~mask) | ((v & p4odp_mask(width)) << low);
	for (uint32_t i = nbytes; i-- > 0;) {
		p[i] = (uint8_t)acc;
		acc >>= 8;
	}
}

/* Unaligned big-endian loads and stores of 2, 4 and 8 bytes. */
static inline __attribute__((always_inline)) uint64_t p4odp__be16(const uint8_t *p)
{
	uint16_t x;
	memcpy(&x, p, 2);
	return __builtin_bswap16(x);
}

static inline __attribute__((always_inline)) uint64_t p4odp__be32(const uint8_t *p)
{
	uint32_t x;
	memcpy(&x, p, 4);
	return __builtin_bswap32(x);
}

static inline __attribute__((always_inline)) uint64_t p4odp__be64(const uint8_t *p)
{
	uint64_t x;
	memcpy(&x, p, 8);
	return __builtin_bswap64(x);
}

/* The `nbytes` (1..8) bytes at `p` as a big-endian number: one load of 1, 2,
 * 4 or 8 bytes, or the pieces of 4, 2 and 1 bytes that make 3, 5, 6 or 7,
 * put together in a register.  No byte past them is read (a field may end
 * the packet), and no byte goes through memory on the way (a wider load of
 * bytes just stored in parts waits for the stores to retire).  Little-endian
 * hosts only (see p4odp__one_word). */
static inline __attribute__((always_inline)) uint64_t p4odp__load_be(const uint8_t *p, uint32_t nbytes)
{
	uint64_t v = 0;
	uint32_t i = 0;
	if (nbytes == 8)
		return p4odp__be64(p);
	if (nbytes & 4) {
		v = p4odp__be32(p);
		i = 4;
	}
	if (nbytes & 2) {
		v = v << 16 | p4odp__be16(p + i);
		i += 2;
	}
	if (nbytes & 1)
		v = v << 8 | p[i];
	return v;
}

/* The low `nbytes` (1..8) bytes of `v` written at `p` in network order, in
 * the same pieces. */
static inline __attribute__((always_inline)) void p4odp__store_be(uint8_t *p, uint32_t nbytes, uint64_t v)
{
	uint32_t i = nbytes;
	if (nbytes == 8) {
		v = __builtin_bswap64(v);
		memcpy(p, &v, 8);
		return;
	}
	if (nbytes & 1) {
		p[--i] = (uint8_t)v;
		v >>= 8;
	}
	if (nbytes & 2) {
		uint16_t x = __builtin_bswap16((uint16_t)v);
		i -= 2;
		memcpy(p + i, &x, 2);
		v >>= 16;
	}
	if (nbytes & 4) {
		uint32_t x = __builtin_bswap32((uint32_t)v);
		memcpy(p, &x, 4);
	}
}

/* `width` (1..64) bits at bit `shift` of `p`, where they lie in its first 8
 * bytes (shift + width <= 64), as one word: the bytes they span loaded at
 * once, shifted and masked. */
static inline __attribute__((always_inline)) uint64_t p4odp__load_word(const uint8_t *p, uint32_t shift,
								       uint32_t width)
{
	uint32_t nbytes = (shift + width + 7) >> 3;
	return p4odp__load_be(p, nbytes) >> (8 * nbytes - shift - width) & p4odp_mask(width);
}

/* The low `width` bits of `v` written there the same way: the bytes the field
 * spans stored at once, with the bits of its first and last byte that are
 * not the field's read back from those two bytes alone (a read of the whole
 * span would wait for the stores of the fields just written next to it). */
static inline __attribute__((always_inline)) void p4odp__store_word(uint8_t *p, uint32_t shift, uint32_t width,
								    uint64_t v)
{
	uint32_t nbytes = (shift + width + 7) >> 3, low = 8 * nbytes - shift - width;
	uint64_t keep = 0;
	if (shift)  /* the first byte's `shift` high bits */
		keep |= (uint64_t)(p[0] & (0xff00u >> shift)) << (8 * (nbytes - 1));
	if (low)  /* the last byte's `low` low bits */
		keep |= p[nbytes - 1] & ((1u << low) - 1);
	p4odp__store_be(p, nbytes, keep | (v & p4odp_mask(width)) << low);
}

/* Are a field's bit offset `off` and `width` known when compiling (the
 * packet-alignment pass makes field offsets constants, inlining does the
 * rest) and does it lie in the 8 bytes from its first one?  Then it is read
 * and written as one word (p4odp__load_word, p4odp__store_word), which the
 * compiler folds into a load, a byte swap, a shift and a mask: IPv4's
 * version, ihl, flags and fragOffset, TCP's dataOffset, whole-byte fields.
 * Else, and on big-endian hosts, the byte loop (p4odp__load_bits_loop). */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define p4odp__one_word(off, width) \
	(__builtin_constant_p(off) && __builtin_constant_p(width) && ((off) & 7) + (width) <= 64)
#else
#define p4odp__one_word(off, width) 0
#endif

/* Read `width` (1..64) bits at bit offset `off` of `buf`, big-endian, a
 * byte at a time: any offset and width, known when compiling or not.  Bits
 * that span 9 bytes (an unaligned field of more than 56 bits) are read in two
 * parts: 64-bit arithmetic is enough on every target (32-bit ones have no
 * __int128). */
static inline uint64_t p4odp__load_bits_loop(const uint8_t *buf, uint32_t off, uint32_t width)
{
	const uint8_t *p = buf + (off >> 3);
	uint32_t shift = off & 7, last = shift + width - 8;
	if (p4odp_unlikely(shift + width > 64))
		return p4odp__load_bits8(p, shift, width - 8) << 8 | p4odp__load_bits8(p + (last >> 3), last & 7, 8);
	return p4odp__load_bits8(p, shift, width);
}

/* Write the low `width` (1..64) bits of `v` at bit offset `off` of `buf`, a
 * byte at a time. */
static inline void p4odp__store_bits_loop(uint8_t *buf, uint32_t off, uint32_t width, uint64_t v)
{
	uint8_t *p = buf + (off >> 3);
	uint32_t shift = off & 7, last = shift + width - 8;
	if (p4odp_unlikely(shift + width > 64)) {
		p4odp__store_bits8(p, shift, width - 8, v >> 8);
		p4odp__store_bits8(p + (last >> 3), last & 7, 8, v);
		return;
	}
	p4odp__store_bits8(p, shift, width, v);
}

/* Read `width` (1..64) bits at bit offset `off` of `buf`, big-endian: as one
 * word where p4odp__one_word says so, else a byte at a time.  Always inlined:
 * the choice is made where the caller's constants are known, and the
 * compiler's size estimate, made before they are, would sometimes keep an
 * out-of-line copy that takes the loop for every field. */
static inline __attribute__((always_inline)) uint64_t p4odp_load_bits(const uint8_t *buf, uint32_t off,
									  uint32_t width)
{
	if (p4odp__one_word(off, width))
		return p4odp__load_word(buf + (off >> 3), off & 7, width);
	return p4odp__load_bits_loop(buf, off, width);
}

/* The same, where all 8 bytes from the field's first one may be read (the
 * parser checked that the packet holds them): one 8-byte load for any
 * constant offset and width (the bytes of a MAC address would take two
 * pieces), on which the compiler can see through a byte swap back, as an
 * exact key's is.  Not for bytes just stored in parts (the load would wait
 * for the stores). */
static inline __attribute__((always_inline)) uint64_t p4odp_load_bits_in8(const uint8_t *buf, uint32_t off,
									uint32_t width)
{
	if (p4odp__one_word(off, width))
		return p4odp__be64(buf + (off >> 3)) >> (64 - (off & 7) - width) & p4odp_mask(width);
	return p4odp__load_bits_loop(buf, off, width);
}

/* Write the low `width` (1..64) bits of `v` at bit offset `off` of `buf`, the
 * same way as p4odp_load_bits reads them. */
static inline __attribute__((always_inline)) void p4odp_store_bits(uint8_t *buf, uint32_t off, uint32_t width,
								   uint64_t v)
{
	if (p4odp__one_word(off, width))
		p4odp__store_word(buf + (off >> 3), off & 7, width, v);
	else
		p4odp__store_bits_loop(buf, off, width, v);
}

/* Copy `width` bits at bit offset `src_off` of `src` to bit offset `dst_off` of `dst`. */
static inline void p4odp_copy_bits(uint8_t *dst, uint32_t dst_off, const uint8_t *src, uint32_t src_off,
				   uint32_t width)
{
	if (((dst_off | src_off | width) & 7) == 0) {
		memmove(dst + (dst_off >> 3), src + (src_off >> 3), width >> 3);
		return;
	}
	while (width) {
		uint32_t n = width > 56 ? 56 : width;
		p4odp_store_bits(dst, dst_off, n, p4odp_load_bits(src, src_off, n));
		dst_off += n;
		src_off += n;
		width -= n;
	}
}

/* Values wider than 64 bits are byte arrays in network order (a bit<W> in
 * ceil(W/8) bytes, the unused high bits zero). */
static inline void p4odp_wide_trunc(uint8_t *v, uint32_t nbytes, uint32_t width)
{
	uint32_t spare = nbytes * 8 - width;
	if (spare)
		v[0] &= (uint8_t)(0xff >> spare);
}

/*
 * Wide values.  Arithmetic on bit<W> and int<W> with W > 64, stored as
 * above in n = ceil(W/8) bytes; an int<W> is the same bytes in W-bit two's
 * complement (its sign is bit W-1, the pad bits above it are zero too).
 * Operands must keep the pad bits zero; every result is truncated to `width`
 * bits again, which gives P4's wrap-around.  `dst` may be the same array as
 * any operand (not a partial overlap).  n is at most P4ODP_WIDE_MAX_BYTES:
 * the front end's limit of 2048 bits.
 */
#define P4ODP_WIDE_MAX_BYTES 256

/* `v` zero-extended. */
static inline void p4odp_wide_from_u64(uint8_t *dst, uint32_t n, uint32_t width, uint64_t v)
{
	for (uint32_t i = n; i-- > 0; v >>= 8)
		dst[i] = (uint8_t)v;  /* v is 0 after its 8 bytes */
	p4odp_wide_trunc(dst, n, width);
}

/* `v` sign-extended to `width` bits. */
static inline void p4odp_wide_from_i64(uint8_t *dst, uint32_t n, uint32_t width, int64_t v)
{
	uint8_t fill = v < 0 ? 0xff : 0;
	for (uint32_t i = n, k = 0; i-- > 0; k++)
		dst[i] = k < 8 ? (uint8_t)((uint64_t)v >> (8 * k)) : fill;
	p4odp_wide_trunc(dst, n, width);
}

/* The low 64 bits of `src`. */
static inline uint64_t p4odp_wide_to_u64(const uint8_t *src, uint32_t n)
{
	uint64_t v = 0;
	for (uint32_t i = n > 8 ? n - 8 : 0; i < n; i++)
		v = v << 8 | src[i];
	return v;
}

/* Whether `a` is zero. */
static inline bool p4odp_wide_is_zero(const uint8_t *a, uint32_t n)
{
	uint8_t any = 0;
	for (uint32_t i = 0; i < n; i++)
		any |= a[i];
	return any == 0;
}

/* Bit `width - 1` of `a`: the sign of an int<width>. */
static inline bool p4odp_wide_sign(const uint8_t *a, uint32_t n, uint32_t width)
{
	uint32_t bit = width - 1;
	return (a[n - 1 - (bit >> 3)] >> (bit & 7)) & 1;
}

/* a + b; returns whether the unsigned sum wrapped (exceeded `width` bits). */
static inline bool p4odp_wide_add_ovf(uint8_t *dst, const uint8_t *a, const uint8_t *b, uint32_t n,
				      uint32_t width)
{
	uint32_t carry = 0;
	for (uint32_t i = n; i-- > 0; carry >>= 8) {
		carry += (uint32_t)a[i] + b[i];
		dst[i] = (uint8_t)carry;
	}
	/* A carry out of byte 0, or into its pad bits. */
	bool over = carry || (dst[0] >> (8 - (n * 8 - width))) > 0;
	p4odp_wide_trunc(dst, n, width);
	return over;
}

/* a - b; returns whether it wrapped (a < b). */
static inline bool p4odp_wide_sub_ovf(uint8_t *dst, const uint8_t *a, const uint8_t *b, uint32_t n,
				      uint32_t width)
{
	uint32_t borrow = 0;
	for (uint32_t i = n; i-- > 0;) {
		uint32_t d = (uint32_t)a[i] - b[i] - borrow;
		dst[i] = (uint8_t)d;
		borrow = d >> 31;  /* 1 if it went below zero */
	}
	p4odp_wide_trunc(dst, n, width);
	return borrow;
}

/* a + b, wrapping. */
static inline void p4odp_wide_add(uint8_t *dst, const uint8_t *a, const uint8_t *b, uint32_t n,
				  uint32_t width)
{
	(void)p4odp_wide_add_ovf(dst, a, b, n, width);
}

/* a - b, wrapping. */
static inline void p4odp_wide_sub(uint8_t *dst, const uint8_t *a, const uint8_t *b, uint32_t n,
				  uint32_t width)
{
	(void)p4odp_wide_sub_ovf(dst, a, b, n, width);
}

/* The low `width` bits of a * b (the same bits signed or unsigned). */
static inline void p4odp_wide_mul(uint8_t *dst, const uint8_t *a, const uint8_t *b, uint32_t n,
				  uint32_t width)
{
	uint8_t tmp[P4ODP_WIDE_MAX_BYTES];
	uint64_t acc = 0;
	/* Column k (counted from the least significant byte) sums a[i] * b[j]
	 * for i + j = k, plus the carry of the columns below. */
	for (uint32_t k = 0; k < n; k++, acc >>= 8) {
		for (uint32_t i = 0; i <= k; i++)
			acc += (uint32_t)a[n - 1 - i] * b[n - 1 - (k - i)];
		tmp[n - 1 - k] = (uint8_t)acc;
	}
	memcpy(dst, tmp, n);
	p4odp_wide_trunc(dst, n, width);
}

/* a & b. */
static inline void p4odp_wide_and(uint8_t *dst, const uint8_t *a, const uint8_t *b, uint32_t n,
				  uint32_t width)
{
	for (uint32_t i = 0; i < n; i++)
		dst[i] = a[i] & b[i];
	p4odp_wide_trunc(dst, n, width);
}

/* a | b. */
static inline void p4odp_wide_or(uint8_t *dst, const uint8_t *a, const uint8_t *b, uint32_t n,
				 uint32_t width)
{
	for (uint32_t i = 0; i < n; i++)
		dst[i] = a[i] | b[i];
	p4odp_wide_trunc(dst, n, width);
}

/* a ^ b. */
static inline void p4odp_wide_xor(uint8_t *dst, const uint8_t *a, const uint8_t *b, uint32_t n,
				  uint32_t width)
{
	for (uint32_t i = 0; i < n; i++)
		dst[i] = a[i] ^ b[i];
	p4odp_wide_trunc(dst, n, width);
}

/* ~a within `width` bits. */
static inline void p4odp_wide_not(uint8_t *dst, const uint8_t *a, uint32_t n, uint32_t width)
{
	for (uint32_t i = 0; i < n; i++)
		dst[i] = (uint8_t)~a[i];
	p4odp_wide_trunc(dst, n, width);
}

/* 0 - a, wrapping. */
static inline void p4odp_wide_neg(uint8_t *dst, const uint8_t *a, uint32_t n, uint32_t width)
{
	uint32_t borrow = 0;
	for (uint32_t i = n; i-- > 0;) {
		uint32_t d = 0u - a[i] - borrow;
		dst[i] = (uint8_t)d;
		borrow = d >> 31;
	}
	p4odp_wide_trunc(dst, n, width);
}

/* a << amount; 0 when amount >= width. */
static inline void p4odp_wide_shl(uint8_t *dst, const uint8_t *a, uint64_t amount, uint32_t n,
				  uint32_t width)
{
	if (amount >= width) {
		memset(dst, 0, n);
		return;
	}
	uint32_t q = (uint32_t)amount >> 3, r = (uint32_t)amount & 7;
	/* Front to back: dst[i] reads a[i + q] and a[i + q + 1], not yet written. */
	for (uint32_t i = 0; i < n; i++) {
		uint32_t hi = i + q < n ? a[i + q] : 0, lo = i + q + 1 < n ? a[i + q + 1] : 0;
		dst[i] = (uint8_t)(hi << r | lo >> (8 - r));
	}
	p4odp_wide_trunc(dst, n, width);
}

/* a >> amount, logical; 0 when amount >= width. */
static inline void p4odp_wide_shr(uint8_t *dst, const uint8_t *a, uint64_t amount, uint32_t n,
				  uint32_t width)
{
	if (amount >= width) {
		memset(dst, 0, n);
		return;
	}
	uint32_t q = (uint32_t)amount >> 3, r = (uint32_t)amount & 7;
	/* Back to front: dst[i] reads a[i - q] and a[i - q - 1], not yet written. */
	for (uint32_t i = n; i-- > 0;) {
		uint32_t lo = i >= q ? a[i - q] : 0, hi = i >= q + 1 ? a[i - q - 1] : 0;
		dst[i] = (uint8_t)(lo >> r | hi << (8 - r));
	}
	p4odp_wide_trunc(dst, n, width);
}

/* a >> amount, arithmetic: copies of bit `width - 1` shift in (all of them
 * when amount >= width). */
static inline void p4odp_wide_sshr(uint8_t *dst, const uint8_t *a, uint64_t amount, uint32_t n,
				   uint32_t width)
{
	if (!p4odp_wide_sign(a, n, width)) {
		p4odp_wide_shr(dst, a, amount, n, width);
		return;
	}
	/* Negative: ~(~a >> amount), where ~a is non-negative. */
	p4odp_wide_not(dst, a, n, width);
	p4odp_wide_shr(dst, dst, amount, n, width);
	p4odp_wide_not(dst, dst, n, width);
}

/* Unsigned comparison: <0, 0 or >0 as a < b, a == b or a > b. */
static inline int p4odp_wide_cmp(const uint8_t *a, const uint8_t *b, uint32_t n)
{
	return memcmp(a, b, n);  /* big-endian: the first differing byte decides */
}

/* a / b into `quotient` and a % b into `remainder` (either may be NULL),
 * unsigned; both 0 when b is 0, as for values of up to 64 bits (P4 leaves it
 * undefined).  Long division, a bit of `a` at a time from the top. */
static inline void p4odp_wide_divmod(uint8_t *quotient, uint8_t *remainder, const uint8_t *a, const uint8_t *b,
				     uint32_t n)
{
	uint8_t q[P4ODP_WIDE_MAX_BYTES] = { 0 }, r[P4ODP_WIDE_MAX_BYTES] = { 0 };

	uint32_t bits = p4odp_wide_is_zero(b, n) ? 0 : 8 * n;

	for (uint32_t bit = 0; bit < bits; bit++) {
		unsigned carry = a[bit / 8] >> (7 - bit % 8) & 1;
		for (uint32_t i = n; i-- > 0;) {	/* r = r << 1 | that bit */
			unsigned top = r[i] >> 7;
			r[i] = (uint8_t)(r[i] << 1 | carry);
			carry = top;
		}
		/* A bit shifted out of r makes it larger than any b; r - b then fits. */
		if (carry || p4odp_wide_cmp(r, b, n) >= 0) {
			p4odp_wide_sub(r, r, b, n, 8 * n);
			q[bit / 8] |= (uint8_t)(0x80 >> bit % 8);
		}
	}
	if (quotient)
		memcpy(quotient, q, n);
	if (remainder)
		memcpy(remainder, r, n);
}

/* Whether a and b agree in the bits where mask has ones. */
static inline bool p4odp_wide_masked_eq(const uint8_t *a, const uint8_t *b, const uint8_t *mask, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		if ((a[i] ^ b[i]) & mask[i])
			return false;
	return true;
}

/* Comparison of a and b as int<width>. */
static inline int p4odp_wide_scmp(const uint8_t *a, const uint8_t *b, uint32_t n, uint32_t width)
{
	bool sa = p4odp_wide_sign(a, n, width), sb = p4odp_wide_sign(b, n, width);
	if (sa != sb)
		return sa ? -1 : 1;
	return memcmp(a, b, n);
}

/* a + b, saturating: all ones on overflow. */
static inline void p4odp_wide_add_sat(uint8_t *dst, const uint8_t *a, const uint8_t *b, uint32_t n,
				      uint32_t width)
{
	if (p4odp_wide_add_ovf(dst, a, b, n, width)) {
		memset(dst, 0xff, n);
		p4odp_wide_trunc(dst, n, width);
	}
}

/* a - b, saturating: 0 when b > a. */
static inline void p4odp_wide_sub_sat(uint8_t *dst, const uint8_t *a, const uint8_t *b, uint32_t n,
				      uint32_t width)
{
	if (p4odp_wide_sub_ovf(dst, a, b, n, width))
		memset(dst, 0, n);
}

/* The largest int<width> (negative false) or the smallest (negative true). */
static inline void p4odp_wide_slimit(uint8_t *dst, uint32_t n, uint32_t width, bool negative)
{
	uint32_t bit = width - 1;
	memset(dst, negative ? 0 : 0xff, n);
	dst[n - 1 - (bit >> 3)] ^= (uint8_t)(1u << (bit & 7));
	p4odp_wide_trunc(dst, n, width);
}

/* a + b as int<width>, saturating. */
static inline void p4odp_wide_sadd_sat(uint8_t *dst, const uint8_t *a, const uint8_t *b, uint32_t n,
				       uint32_t width)
{
	bool sa = p4odp_wide_sign(a, n, width), sb = p4odp_wide_sign(b, n, width);
	p4odp_wide_add(dst, a, b, n, width);
	if (sa == sb && p4odp_wide_sign(dst, n, width) != sa)
		p4odp_wide_slimit(dst, n, width, sa);
}

/* a - b as int<width>, saturating. */
static inline void p4odp_wide_ssub_sat(uint8_t *dst, const uint8_t *a, const uint8_t *b, uint32_t n,
				       uint32_t width)
{
	bool sa = p4odp_wide_sign(a, n, width), sb = p4odp_wide_sign(b, n, width);
	p4odp_wide_sub(dst, a, b, n, width);
	if (sa != sb && p4odp_wide_sign(dst, n, width) != sa)
		p4odp_wide_slimit(dst, n, width, sa);
}

/* The ones' complement sum of bytes as big-endian 16-bit words (RFC 1071),
 * in two steps: p4odp_csum16_acc adds the `len` bytes at `data` to a 64-bit
 * accumulator (several pieces may go into one, each but the last of an even
 * length: an odd last byte is the high byte of a word padded with a zero
 * byte), and p4odp_csum16_fold makes it a sum below 2^18, to be added to
 * others and folded by p4odp_csum16_finish.  The sum of the words does not
 * depend on the byte order (RFC 1071 2(B)): they are added as native 32-bit
 * words, and on little-endian hosts the accumulator multiplied by 2^8 before
 * folding, which modulo 0xffff swaps the bytes of each word.  The result is
 * congruent to the big-endian sum modulo 0xffff and 0 only when it is, so
 * p4odp_csum16_finish gives the same 16 bits.  The accumulator stays below
 * 2^56 for any `len` under 64 MiB. */
static inline uint64_t p4odp_csum16_acc(uint64_t acc, const uint8_t *data, uint32_t len)
{
	uint32_t i = 0;
	for (; i + 4 <= len; i += 4) {
		uint32_t word;
		memcpy(&word, data + i, 4);
		acc += word;
	}
	if (i + 2 <= len) {
		uint16_t half;
		memcpy(&half, data + i, 2);
		acc += half;
		i += 2;
	}
	if (i < len)
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
		acc += data[i];  /* the high byte of a big-endian word: the low byte of a native one */
#else
		acc += (uint32_t)data[i] << 8;
#endif
	return acc;
}

static inline uint32_t p4odp_csum16_fold(uint64_t acc)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	acc <<= 8;
#endif
	acc = (acc & 0xffffffff) + (acc >> 32);  /* end-around carries: 2^16 is 1 modulo 0xffff */
	return (uint32_t)((acc & 0xffff) + (acc >> 16));
}

/* `sum` plus the sum of the `len` bytes at `data`. */
static inline uint32_t p4odp_csum16_add(uint32_t sum, const uint8_t *data, uint32_t len)
{
	return sum + p4odp_csum16_fold(p4odp_csum16_acc(0, data, len));
}

static inline uint16_t p4odp_csum16_finish(uint32_t sum)
{
	/* The end-around sum of the two halves lands in the high half (Linux's
	 * csum_fold): added to itself with its halves swapped, the low half's
	 * carry goes into the high one.  The same 16 bits as folding twice, for
	 * every 32-bit sum (checked over all of them). */
	sum += sum >> 16 | sum << 16;
	return (uint16_t)~(sum >> 16);
}

#endif /* P4ODP_BITS_H_ */
