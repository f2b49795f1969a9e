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

static inline int64_t p4odp_sadd_sat(int64_t a, int64_t b, uint32_t width)
{
	int64_t max = (int64_t)(p4odp_mask(width) >> 1), min = -max - 1;
	__int128 sum = (__int128)a + b;
	return sum > max ? max : sum < min ? min : (int64_t)sum;
}

static inline int64_t p4odp_ssub_sat(int64_t a, int64_t b, uint32_t width)
{
	return p4odp_sadd_sat(a, -b, width);
}

/* Read `width` (1..64) bits at bit offset `off` of `buf`, big-endian. */
static inline uint64_t p4odp_load_bits(const uint8_t *buf, uint32_t off, uint32_t width)
{
	const uint8_t *p = buf + (off >> 3);
	uint32_t shift = off & 7, nbytes = (shift + width + 7) >> 3;
	unsigned __int128 acc = 0;
	for (uint32_t i = 0; i < nbytes; i++)
		acc = (acc << 8) | p[i];
	acc >>= nbytes * 8 - shift - width;
	return (uint64_t)acc & p4odp_mask(width);
}

/* Write the low `width` (1..64) bits of `v` at bit offset `off` of `buf`. */
static inline void p4odp_store_bits(uint8_t *buf, uint32_t off, uint32_t width, uint64_t v)
{
	uint8_t *p = buf + (off >> 3);
	uint32_t shift = off & 7, nbytes = (shift + width + 7) >> 3;
	uint32_t low = nbytes * 8 - shift - width;
	unsigned __int128 acc = 0, mask = (unsigned __int128)p4odp_mask(width) << low;
	for (uint32_t i = 0; i < nbytes; i++)
		acc = (acc << 8) | p[i];
	acc = (acc & ~mask) | (((unsigned __int128)(v & p4odp_mask(width))) << low);
	for (uint32_t i = nbytes; i-- > 0;) {
		p[i] = (uint8_t)acc;
		acc >>= 8;
	}
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

/* The ones' complement sum of `len` bytes, folded to 16 bits (RFC 1071). */
static inline uint32_t p4odp_csum16_add(uint32_t sum, const uint8_t *data, uint32_t len)
{
	uint32_t i;
	for (i = 0; i + 1 < len; i += 2)
		sum += (uint32_t)data[i] << 8 | data[i + 1];
	if (len & 1)
		sum += (uint32_t)data[len - 1] << 8;
	return sum;
}

static inline uint16_t p4odp_csum16_finish(uint32_t sum)
{
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

#endif /* P4ODP_BITS_H_ */
