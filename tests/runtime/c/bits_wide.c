/*
 * The wide-value helpers of p4odp_bits.h against a reference written
 * independently of them: values as arrays of bits (one 0/1 byte per bit,
 * bit 0 the least significant), ripple-carry addition, shift-and-add
 * multiplication, shifts and comparisons bit by bit, signed saturation in
 * one bit more.  Every helper runs on edge values and random ones for each
 * width, with dst apart from the operands and the same array as each of
 * them, and must write no byte outside dst[0..n).  The narrow helpers of
 * 1..64 bits with no wider type behind them (field loads and stores at any
 * bit offset, signed saturation) are checked the same way; field loads and
 * stores each way they can go: the byte loop, the one-word helpers, and with
 * the offset and width constants (every shift and width).  The Internet
 * checksum helpers are checked against RFC 1071 as written.
 * Usage: bits_wide [SEED [ROUNDS]]  (prints "bits_wide: OK").
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "p4odp_bits.h"

#define MAXW 256                 /* the widest width tested */
#define MAXN ((MAXW + 7) / 8)
#define GUARD 16                 /* canary bytes each side of a result */
#define CANARY 0xa5

static const uint32_t widths[] = {65, 72, 100, 127, 128, 129, 200, 256};

static uint64_t rng_state;

static uint64_t rnd(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static uint32_t rnd_below(uint32_t n)
{
	return (uint32_t)(rnd() % n);
}

/* ---- The reference: w-bit values as bit arrays (w + 1 bits at most) ---- */

struct bits {
	uint8_t v[MAXW + 1];
};

static struct bits ref_zero(void)
{
	struct bits r;

	memset(&r, 0, sizeof r);
	return r;
}

static struct bits ref_ones(uint32_t w)
{
	struct bits r = ref_zero();

	for (uint32_t i = 0; i < w; i++)
		r.v[i] = 1;
	return r;
}

static struct bits ref_bit(uint32_t i)
{
	struct bits r = ref_zero();

	r.v[i] = 1;
	return r;
}

static struct bits ref_from_u64(uint64_t x, uint32_t w)
{
	struct bits r = ref_zero();

	for (uint32_t i = 0; i < w && i < 64; i++)
		r.v[i] = (x >> i) & 1;
	return r;
}

static struct bits ref_from_i64(int64_t x, uint32_t w)
{
	struct bits r = ref_from_u64((uint64_t)x, w);

	for (uint32_t i = 64; i < w; i++)
		r.v[i] = x < 0;
	return r;
}

static uint64_t ref_to_u64(const struct bits *x)
{
	uint64_t r = 0;

	for (uint32_t i = 0; i < 64; i++)
		r |= (uint64_t)x->v[i] << i;
	return r;
}

static bool ref_is_zero(const struct bits *x, uint32_t w)
{
	for (uint32_t i = 0; i < w; i++)
		if (x->v[i])
			return false;
	return true;
}

/* x + y + carry in w bits; *carry becomes the carry out of bit w - 1. */
static struct bits ref_addc(const struct bits *x, const struct bits *y, unsigned *carry, uint32_t w)
{
	struct bits r = ref_zero();
	unsigned c = *carry;

	for (uint32_t i = 0; i < w; i++) {
		unsigned s = x->v[i] + y->v[i] + c;
		r.v[i] = s & 1;
		c = s >> 1;
	}
	*carry = c;
	return r;
}

static struct bits ref_not(const struct bits *x, uint32_t w)
{
	struct bits r = ref_zero();

	for (uint32_t i = 0; i < w; i++)
		r.v[i] = !x->v[i];
	return r;
}

static struct bits ref_add(const struct bits *x, const struct bits *y, uint32_t w)
{
	unsigned c = 0;

	return ref_addc(x, y, &c, w);
}

/* x - y = x + ~y + 1. */
static struct bits ref_sub(const struct bits *x, const struct bits *y, uint32_t w)
{
	struct bits ny = ref_not(y, w);
	unsigned c = 1;

	return ref_addc(x, &ny, &c, w);
}

static struct bits ref_neg(const struct bits *x, uint32_t w)
{
	struct bits zero = ref_zero();

	return ref_sub(&zero, x, w);
}

static struct bits ref_shl(const struct bits *x, uint64_t amount, uint32_t w)
{
	struct bits r = ref_zero();

	for (uint32_t i = 0; i < w; i++)
		r.v[i] = i >= amount ? x->v[i - amount] : 0;
	return r;
}

/* x >> amount with copies of `fill` shifting in. */
static struct bits ref_shr_fill(const struct bits *x, uint64_t amount, uint8_t fill, uint32_t w)
{
	struct bits r = ref_zero();

	for (uint32_t i = 0; i < w; i++)
		r.v[i] = amount < (uint64_t)(w - i) ? x->v[i + amount] : fill;
	return r;
}

static struct bits ref_shr(const struct bits *x, uint64_t amount, uint32_t w)
{
	return ref_shr_fill(x, amount, 0, w);
}

static struct bits ref_sshr(const struct bits *x, uint64_t amount, uint32_t w)
{
	return ref_shr_fill(x, amount, x->v[w - 1], w);
}

static struct bits ref_mul(const struct bits *x, const struct bits *y, uint32_t w)
{
	struct bits r = ref_zero();

	for (uint32_t i = 0; i < w; i++) {
		if (y->v[i]) {
			struct bits part = ref_shl(x, i, w);
			r = ref_add(&r, &part, w);
		}
	}
	return r;
}

static struct bits ref_and(const struct bits *x, const struct bits *y, uint32_t w)
{
	struct bits r = ref_zero();

	for (uint32_t i = 0; i < w; i++)
		r.v[i] = x->v[i] && y->v[i];
	return r;
}

static struct bits ref_or(const struct bits *x, const struct bits *y, uint32_t w)
{
	struct bits r = ref_zero();

	for (uint32_t i = 0; i < w; i++)
		r.v[i] = x->v[i] || y->v[i];
	return r;
}

static struct bits ref_xor(const struct bits *x, const struct bits *y, uint32_t w)
{
	struct bits r = ref_zero();

	for (uint32_t i = 0; i < w; i++)
		r.v[i] = x->v[i] != y->v[i];
	return r;
}

static int ref_cmp(const struct bits *x, const struct bits *y, uint32_t w)
{
	for (uint32_t i = w; i-- > 0;)
		if (x->v[i] != y->v[i])
			return x->v[i] ? 1 : -1;
	return 0;
}

/* Signed: with the sign bits flipped, the order is the unsigned one. */
static int ref_scmp(const struct bits *x, const struct bits *y, uint32_t w)
{
	struct bits fx = *x, fy = *y;

	fx.v[w - 1] ^= 1;
	fy.v[w - 1] ^= 1;
	return ref_cmp(&fx, &fy, w);
}

static struct bits ref_add_sat(const struct bits *x, const struct bits *y, uint32_t w)
{
	unsigned c = 0;
	struct bits r = ref_addc(x, y, &c, w);

	return c ? ref_ones(w) : r;
}

static struct bits ref_sub_sat(const struct bits *x, const struct bits *y, uint32_t w)
{
	return ref_cmp(x, y, w) < 0 ? ref_zero() : ref_sub(x, y, w);
}

/* x sign-extended to w + 1 bits. */
static struct bits ref_sext1(const struct bits *x, uint32_t w)
{
	struct bits r = *x;

	r.v[w] = x->v[w - 1];
	return r;
}

/* A (w + 1)-bit signed sum clamped to w bits. */
static struct bits ref_clamp(const struct bits *s, uint32_t w)
{
	struct bits r = *s;

	if (s->v[w] != s->v[w - 1])  /* not representable in w bits */
		r = s->v[w] ? ref_bit(w - 1) : ref_ones(w - 1);
	r.v[w] = 0;
	return r;
}

static struct bits ref_sadd_sat(const struct bits *x, const struct bits *y, uint32_t w)
{
	struct bits xe = ref_sext1(x, w), ye = ref_sext1(y, w);
	struct bits s = ref_add(&xe, &ye, w + 1);

	return ref_clamp(&s, w);
}

static struct bits ref_ssub_sat(const struct bits *x, const struct bits *y, uint32_t w)
{
	struct bits xe = ref_sext1(x, w), ye = ref_sext1(y, w);
	struct bits s = ref_sub(&xe, &ye, w + 1);

	return ref_clamp(&s, w);
}

/* ---- Between bits and the helpers' bytes ---- */

static void to_bytes(uint8_t *out, const struct bits *x, uint32_t n, uint32_t w)
{
	memset(out, 0, n);
	for (uint32_t i = 0; i < w; i++)
		out[n - 1 - i / 8] |= (uint8_t)(x->v[i] << (i % 8));
}

static void hex(char *out, const uint8_t *v, uint32_t n)
{
	out += sprintf(out, "0x");
	for (uint32_t i = 0; i < n; i++)
		out += sprintf(out, "%02x", v[i]);
}

/* ---- Values to test ---- */

enum { EDGES = 12 };

/* Edge value k (0 <= k < EDGES) of width w. */
static struct bits edge(int k, uint32_t w)
{
	switch (k) {
	case 0: return ref_zero();
	case 1: return ref_bit(0);
	case 2: return ref_ones(w);
	case 3: return ref_bit(w - 1);                       /* the sign bit only */
	case 4: return ref_ones(w - 1);                      /* the largest int<w> */
	case 5: { struct bits r = ref_bit(w - 1); r.v[0] = 1; return r; }
	case 6: return ref_ones(64);                         /* 2^64 - 1 */
	case 7: return ref_bit(64);
	case 8: return ref_bit(63);
	case 9: { struct bits r = ref_ones(w); r.v[0] = 0; return r; }  /* -2 */
	case 10: return ref_from_u64(0x8000000000000001ull, w);
	default: { struct bits r = ref_zero(); for (uint32_t i = 0; i < w; i += 8) r.v[i] = 1; return r; }
	}
}

static struct bits random_value(uint32_t w)
{
	struct bits r = ref_zero();
	uint32_t kind = rnd_below(8), lo = rnd_below(w), hi = lo + rnd_below(w - lo) + 1;

	switch (kind) {
	case 0:  /* bits lo..hi-1 set: long carry and borrow chains */
		for (uint32_t i = lo; i < hi; i++)
			r.v[i] = 1;
		break;
	case 1:  /* runs of equal bits */
		for (uint32_t i = 0, bit = (uint32_t)rnd() & 1, run = 0; i < w; i++, run--) {
			if (!run) {
				bit ^= 1;
				run = 1 + rnd_below(40);
			}
			r.v[i] = (uint8_t)bit;
		}
		break;
	case 2:  /* small: below 2^lo */
		for (uint32_t i = 0; i < lo; i++)
			r.v[i] = rnd() & 1;
		break;
	case 3:  /* small and negative */
		for (uint32_t i = 0; i < w; i++)
			r.v[i] = i < lo ? rnd() & 1 : 1;
		break;
	case 4:
		r = edge((int)rnd_below(EDGES), w);
		break;
	default:
		for (uint32_t i = 0; i < w; i++)
			r.v[i] = rnd() & 1;
	}
	return r;
}

static const uint64_t fixed_amounts[] = {0, 1, 7, 8, 9, 63, 64, 65, 0xffffffffull, 0x100000000ull,
					 0x100000001ull, 0x8000000000000000ull, UINT64_MAX};

/* ---- Checks ---- */

static unsigned long long checks;
static uint8_t buf[GUARD + MAXN + GUARD];
static uint8_t *const dst = buf + GUARD;

static void fail(const char *helper, uint32_t w, const char *how, const struct bits *x,
		 const struct bits *y, const char *extra, const char *want, const char *got)
{
	uint32_t n = (w + 7) / 8;
	char a[2 * MAXN + 3] = "", b[2 * MAXN + 3] = "";
	uint8_t bytes[MAXN];

	if (x) {
		to_bytes(bytes, x, n, w);
		hex(a, bytes, n);
	}
	if (y) {
		to_bytes(bytes, y, n, w);
		hex(b, bytes, n);
	}
	fprintf(stderr, "bits_wide: %s, width %" PRIu32 "%s: %s%s%s%s%s: expected %s, got %s\n",
		helper, w, how, x ? "a = " : "", a, y ? ", b = " : "", b, extra, want, got);
	exit(1);
}

/* The bytes of dst against `want`, and the canaries around it. */
static void check_result(const char *helper, uint32_t w, const char *how, const struct bits *x,
			 const struct bits *y, const char *extra, const struct bits *want)
{
	uint32_t n = (w + 7) / 8;
	uint8_t expect[MAXN];
	char ws[2 * MAXN + 3], gs[2 * MAXN + 3];

	checks++;
	to_bytes(expect, want, n, w);
	if (memcmp(dst, expect, n) != 0) {
		hex(ws, expect, n);
		hex(gs, dst, n);
		fail(helper, w, how, x, y, extra, ws, gs);
	}
	for (uint32_t i = 0; i < GUARD; i++)
		if (buf[i] != CANARY || dst[n + i] != CANARY)
			fail(helper, w, how, x, y, extra, "no write outside dst[0..n)", "one");
}

static void reset_guards(void)
{
	memset(buf, CANARY, sizeof buf);
}

typedef void binary_fn(uint8_t *, const uint8_t *, const uint8_t *, uint32_t, uint32_t);
typedef struct bits binary_ref(const struct bits *, const struct bits *, uint32_t);

static const struct binary {
	const char *name;
	binary_fn *fn;
	binary_ref *ref;
} binaries[] = {
	{"p4odp_wide_add", p4odp_wide_add, ref_add},
	{"p4odp_wide_sub", p4odp_wide_sub, ref_sub},
	{"p4odp_wide_mul", p4odp_wide_mul, ref_mul},
	{"p4odp_wide_and", p4odp_wide_and, ref_and},
	{"p4odp_wide_or", p4odp_wide_or, ref_or},
	{"p4odp_wide_xor", p4odp_wide_xor, ref_xor},
	{"p4odp_wide_add_sat", p4odp_wide_add_sat, ref_add_sat},
	{"p4odp_wide_sub_sat", p4odp_wide_sub_sat, ref_sub_sat},
	{"p4odp_wide_sadd_sat", p4odp_wide_sadd_sat, ref_sadd_sat},
	{"p4odp_wide_ssub_sat", p4odp_wide_ssub_sat, ref_ssub_sat},
};

/* op(x, y) with dst apart, dst == a and dst == b; op(x, x) with a == b and dst == a == b. */
static void check_binary(const struct binary *op, const struct bits *x, const struct bits *y,
			 uint32_t w)
{
	uint32_t n = (w + 7) / 8;
	uint8_t a[MAXN], b[MAXN], a0[MAXN], b0[MAXN];
	struct bits want = op->ref(x, y, w), want_xx = op->ref(x, x, w);

	to_bytes(a, x, n, w);
	to_bytes(b, y, n, w);
	memcpy(a0, a, n);
	memcpy(b0, b, n);

	reset_guards();
	op->fn(dst, a, b, n, w);
	check_result(op->name, w, "", x, y, "", &want);
	if (memcmp(a, a0, n) != 0 || memcmp(b, b0, n) != 0)
		fail(op->name, w, "", x, y, "", "operands unchanged", "changed");

	reset_guards();
	memcpy(dst, a, n);
	op->fn(dst, dst, b, n, w);
	check_result(op->name, w, " (dst == a)", x, y, "", &want);

	reset_guards();
	memcpy(dst, b, n);
	op->fn(dst, a, dst, n, w);
	check_result(op->name, w, " (dst == b)", x, y, "", &want);

	reset_guards();
	op->fn(dst, a, a, n, w);
	check_result(op->name, w, " (a == b)", x, x, "", &want_xx);

	reset_guards();
	memcpy(dst, a, n);
	op->fn(dst, dst, dst, n, w);
	check_result(op->name, w, " (dst == a == b)", x, x, "", &want_xx);
}

typedef void unary_fn(uint8_t *, const uint8_t *, uint32_t, uint32_t);

static void check_unary(const char *name, unary_fn *fn, const struct bits *want,
			const struct bits *x, uint32_t w)
{
	uint32_t n = (w + 7) / 8;
	uint8_t a[MAXN];

	to_bytes(a, x, n, w);
	reset_guards();
	fn(dst, a, n, w);
	check_result(name, w, "", x, NULL, "", want);
	reset_guards();
	memcpy(dst, a, n);
	fn(dst, dst, n, w);
	check_result(name, w, " (dst == a)", x, NULL, "", want);
}

typedef void shift_fn(uint8_t *, const uint8_t *, uint64_t, uint32_t, uint32_t);

static void check_shifts(const struct bits *x, uint64_t amount, uint32_t w)
{
	static const struct {
		const char *name;
		shift_fn *fn;
		struct bits (*ref)(const struct bits *, uint64_t, uint32_t);
	} shifts[] = {
		{"p4odp_wide_shl", p4odp_wide_shl, ref_shl},
		{"p4odp_wide_shr", p4odp_wide_shr, ref_shr},
		{"p4odp_wide_sshr", p4odp_wide_sshr, ref_sshr},
	};
	uint32_t n = (w + 7) / 8;
	uint8_t a[MAXN];
	char extra[64];

	to_bytes(a, x, n, w);
	snprintf(extra, sizeof extra, ", amount = %" PRIu64, amount);
	for (size_t k = 0; k < sizeof shifts / sizeof shifts[0]; k++) {
		struct bits want = shifts[k].ref(x, amount, w);
		reset_guards();
		shifts[k].fn(dst, a, amount, n, w);
		check_result(shifts[k].name, w, "", x, NULL, extra, &want);
		reset_guards();
		memcpy(dst, a, n);
		shifts[k].fn(dst, dst, amount, n, w);
		check_result(shifts[k].name, w, " (dst == a)", x, NULL, extra, &want);
	}
}

static int sign(int v)
{
	return (v > 0) - (v < 0);
}

static void check_compare(const struct bits *x, const struct bits *y, uint32_t w)
{
	uint32_t n = (w + 7) / 8;
	uint8_t a[MAXN], b[MAXN];
	int want = ref_cmp(x, y, w), swant = ref_scmp(x, y, w);
	char ws[8], gs[8];

	to_bytes(a, x, n, w);
	to_bytes(b, y, n, w);
	int got = sign(p4odp_wide_cmp(a, b, n));
	checks++;
	if (got != want) {
		snprintf(ws, sizeof ws, "%d", want);
		snprintf(gs, sizeof gs, "%d", got);
		fail("p4odp_wide_cmp", w, "", x, y, "", ws, gs);
	}
	got = sign(p4odp_wide_scmp(a, b, n, w));
	checks++;
	if (got != swant) {
		snprintf(ws, sizeof ws, "%d", swant);
		snprintf(gs, sizeof gs, "%d", got);
		fail("p4odp_wide_scmp", w, "", x, y, "", ws, gs);
	}
}

static void check_value(const struct bits *x, uint32_t w)
{
	uint32_t n = (w + 7) / 8;
	uint8_t a[MAXN];
	struct bits inv = ref_not(x, w), neg = ref_neg(x, w);
	uint64_t low = ref_to_u64(x);
	bool zero = ref_is_zero(x, w);

	check_unary("p4odp_wide_not", p4odp_wide_not, &inv, x, w);
	check_unary("p4odp_wide_neg", p4odp_wide_neg, &neg, x, w);
	to_bytes(a, x, n, w);
	checks += 2;
	if (p4odp_wide_to_u64(a, n) != low) {
		char ws[24], gs[24];
		snprintf(ws, sizeof ws, "0x%" PRIx64, low);
		snprintf(gs, sizeof gs, "0x%" PRIx64, p4odp_wide_to_u64(a, n));
		fail("p4odp_wide_to_u64", w, "", x, NULL, "", ws, gs);
	}
	if (p4odp_wide_is_zero(a, n) != zero)
		fail("p4odp_wide_is_zero", w, "", x, NULL, "", zero ? "true" : "false",
		     zero ? "false" : "true");
}

static void check_from(uint64_t v, uint32_t w)
{
	uint32_t n = (w + 7) / 8;
	struct bits want_u = ref_from_u64(v, w), want_i = ref_from_i64((int64_t)v, w);
	char extra[64];

	snprintf(extra, sizeof extra, "v = 0x%" PRIx64, v);
	reset_guards();
	p4odp_wide_from_u64(dst, n, w, v);
	check_result("p4odp_wide_from_u64", w, "", NULL, NULL, extra, &want_u);
	reset_guards();
	p4odp_wide_from_i64(dst, n, w, (int64_t)v);
	check_result("p4odp_wide_from_i64", w, "", NULL, NULL, extra, &want_i);
}

static void check_pair(const struct bits *x, const struct bits *y, uint32_t w)
{
	for (size_t k = 0; k < sizeof binaries / sizeof binaries[0]; k++)
		check_binary(&binaries[k], x, y, w);
	check_compare(x, y, w);
}

static void check_width(uint32_t w, uint32_t rounds)
{
	const uint64_t amounts[] = {w - 1, w, w + 1, 2 * (uint64_t)w};
	static const uint64_t from[] = {0, 1, 0x7fffffffffffffffull, 0x8000000000000000ull, UINT64_MAX,
					0x00000000ffffffffull, 0xffffffff00000000ull};

	for (int i = 0; i < EDGES; i++) {
		struct bits x = edge(i, w);
		check_value(&x, w);
		for (int j = 0; j < EDGES; j++) {
			struct bits y = edge(j, w);
			check_pair(&x, &y, w);
		}
		for (size_t k = 0; k < sizeof fixed_amounts / sizeof fixed_amounts[0]; k++)
			check_shifts(&x, fixed_amounts[k], w);
		for (size_t k = 0; k < sizeof amounts / sizeof amounts[0]; k++)
			check_shifts(&x, amounts[k], w);
	}
	for (size_t k = 0; k < sizeof from / sizeof from[0]; k++)
		check_from(from[k], w);

	for (uint32_t r = 0; r < rounds; r++) {
		struct bits x = random_value(w), y = random_value(w);
		uint64_t fixed = fixed_amounts[rnd_below(sizeof fixed_amounts / sizeof fixed_amounts[0])];
		check_value(&x, w);
		check_pair(&x, &y, w);
		check_shifts(&x, rnd_below(w + 2), w);
		check_shifts(&x, r & 1 ? fixed : amounts[rnd_below(4)], w);
		check_from(rnd(), w);
	}
}

/* ---- Narrow helpers (values of 1..64 bits in uint64_t) ---- */

/* x cut to its low w bits: edge values are made for wide widths. */
static struct bits narrow(struct bits x, uint32_t w)
{
	memset(x.v + w, 0, MAXW + 1 - w);
	return x;
}

static void fail_narrow(const char *helper, uint32_t w, const char *what, uint64_t want, uint64_t got)
{
	fprintf(stderr, "bits_wide: %s, width %" PRIu32 ", %s: expected 0x%" PRIx64 ", got 0x%" PRIx64 "\n",
		helper, w, what, want, got);
	exit(1);
}

/* p4odp_load_bits and p4odp_store_bits with the bit offset and the width
 * constants, as the generated code calls them once the packet-alignment pass
 * has run: one case per bit offset 8..15 (every shift 0..7, in the second
 * byte) and width 1..64, each a call with literal arguments, so that the
 * helpers take the one-word path wherever the field lies in 8 bytes (and the
 * loop beyond).  (Offsets 0..7 too would double the compile time of this
 * file, already the longest part of the test, and test nothing more.) */
#define W8(M, o, a) M(o, a + 1) M(o, a + 2) M(o, a + 3) M(o, a + 4) \
	M(o, a + 5) M(o, a + 6) M(o, a + 7) M(o, a + 8)
#define WIDTHS(M, o) W8(M, o, 0) W8(M, o, 8) W8(M, o, 16) W8(M, o, 24) \
	W8(M, o, 32) W8(M, o, 40) W8(M, o, 48) W8(M, o, 56)
#define OFFSETS(M) WIDTHS(M, 8) WIDTHS(M, 9) WIDTHS(M, 10) WIDTHS(M, 11) WIDTHS(M, 12) WIDTHS(M, 13) \
	WIDTHS(M, 14) WIDTHS(M, 15)
#define FIRST_CONST_OFFSET 8
#define CASE(o, w) ((o) - FIRST_CONST_OFFSET) * 64 + (w) - 1

static uint64_t load_const(const uint8_t *buf, uint32_t off, uint32_t w)
{
	switch (CASE(off, w)) {
#define LOAD_CASE(o, w) case CASE(o, w): return p4odp_load_bits(buf, (o), (w));
	OFFSETS(LOAD_CASE)
	}
	abort();
}

static void store_const(uint8_t *buf, uint32_t off, uint32_t w, uint64_t v)
{
	switch (CASE(off, w)) {
#define STORE_CASE(o, w) case CASE(o, w): p4odp_store_bits(buf, (o), (w), v); return;
	OFFSETS(STORE_CASE)
	}
	abort();
}

/* Offsets and widths that no compiler can fold, for the calls that must take
 * the byte loop. */
static volatile uint32_t opaque;

/* Field loads and stores of `x` (w bits) at every bit offset 0..15, amid
 * random bytes, against the bit arrays: fields that span up to 9 bytes,
 * written without touching a bit around them.  Each way is checked: the byte
 * loop (p4odp__load_bits_loop, p4odp__store_bits_loop, also what
 * p4odp_load_bits and p4odp_store_bits take with offsets known only at run
 * time), the one-word helpers where the field lies in 8 bytes (at run-time
 * shifts, on little-endian hosts, where they are used), and p4odp_load_bits
 * and p4odp_store_bits with constant arguments at offsets 8..15 (the one-word
 * path or the loop, as p4odp__one_word chooses). */
static void check_load_store(const struct bits *x, uint32_t w)
{
	uint8_t around[24], want[24], pkt[24];
	uint64_t v = ref_to_u64(x), high = w < 64 ? ~UINT64_C(0) << w : 0;  /* above the field: ignored */
	char what[64];

	for (uint32_t off = 0; off < 16; off++) {
		struct bits noise = random_value(8 * sizeof around);
		uint32_t off_rt = off + opaque, w_rt = w + opaque, shift = off & 7;

		to_bytes(around, &noise, sizeof around, 8 * sizeof around);
		memcpy(want, around, sizeof want);
		for (uint32_t i = 0; i < w; i++) {  /* bit i of v at big-endian position off + w - 1 - i */
			uint32_t pos = off + w - 1 - i;
			want[pos / 8] = (uint8_t)((want[pos / 8] & ~(0x80 >> pos % 8)) | (x->v[i] ? 0x80 >> pos % 8 : 0));
		}
#define CHECK_LOAD(helper, got) do { \
		uint64_t got_ = (got); \
		checks++; \
		if (got_ != v) \
			fail_narrow(helper, w, what, v, got_); \
	} while (0)
#define CHECK_STORE(helper, store) do { \
		memcpy(pkt, around, sizeof pkt); \
		store; \
		checks++; \
		for (uint32_t i = 0; i < sizeof pkt; i++) \
			if (pkt[i] != want[i]) \
				fail_narrow(helper, w, what, want[i], pkt[i]); \
	} while (0)
		snprintf(what, sizeof what, "offset %" PRIu32, off);
		CHECK_LOAD("p4odp__load_bits_loop", p4odp__load_bits_loop(want, off_rt, w_rt));
		CHECK_STORE("p4odp__store_bits_loop", p4odp__store_bits_loop(pkt, off_rt, w_rt, v | high));
		CHECK_LOAD("p4odp_load_bits", p4odp_load_bits(want, off_rt, w_rt));
		CHECK_STORE("p4odp_store_bits", p4odp_store_bits(pkt, off_rt, w_rt, v | high));
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
		if (shift + w <= 64) {
			CHECK_LOAD("p4odp__load_word", p4odp__load_word(want + off / 8, shift + opaque, w_rt));
			CHECK_STORE("p4odp__store_word", p4odp__store_word(pkt + off / 8, shift + opaque, w_rt, v | high));
		}
#endif
		if (off >= FIRST_CONST_OFFSET) {
			snprintf(what, sizeof what, "offset %" PRIu32 " and width constants", off);
			CHECK_LOAD("p4odp_load_bits", load_const(want, off, w));
			CHECK_STORE("p4odp_store_bits", store_const(pkt, off, w, v | high));
		}
#undef CHECK_LOAD
#undef CHECK_STORE
	}
}

static int64_t narrow_signed(const struct bits *x, uint32_t w)
{
	return p4odp_sext(ref_to_u64(x), w);
}

static void check_narrow_sat(const struct bits *x, const struct bits *y, uint32_t w)
{
	int64_t a = narrow_signed(x, w), b = narrow_signed(y, w);
	struct bits sum = ref_sadd_sat(x, y, w), diff = ref_ssub_sat(x, y, w);
	char what[96];

	snprintf(what, sizeof what, "a = %" PRId64 ", b = %" PRId64, a, b);
	checks += 2;
	if (p4odp_sadd_sat(a, b, w) != narrow_signed(&sum, w))
		fail_narrow("p4odp_sadd_sat", w, what, (uint64_t)narrow_signed(&sum, w), (uint64_t)p4odp_sadd_sat(a, b, w));
	if (p4odp_ssub_sat(a, b, w) != narrow_signed(&diff, w))
		fail_narrow("p4odp_ssub_sat", w, what, (uint64_t)narrow_signed(&diff, w), (uint64_t)p4odp_ssub_sat(a, b, w));
}

static void check_narrow(uint32_t rounds)
{
	for (uint32_t w = 1; w <= 64; w++) {
		for (int i = 0; i < EDGES; i++) {
			struct bits x = narrow(edge(i, w), w);
			check_load_store(&x, w);
			for (int j = 0; j < EDGES; j++) {
				struct bits y = narrow(edge(j, w), w);
				check_narrow_sat(&x, &y, w);
			}
		}
		for (uint32_t r = 0; r < rounds / 10 + 1; r++) {
			struct bits x = narrow(random_value(w), w), y = narrow(random_value(w), w);
			check_narrow_sat(&x, &y, w);
			check_load_store(&x, w);
		}
	}
}

/* ---- Internet checksum ---- */

/* RFC 1071 as written: big-endian 16-bit words one by one, an odd last byte
 * padded with zero, summed in 64 bits (no length here comes near overflow). */
static uint64_t ref_csum16_add(uint64_t sum, const uint8_t *data, uint32_t len)
{
	for (uint32_t i = 0; i < len; i += 2)
		sum += (uint32_t)data[i] << 8 | (i + 1 < len ? data[i + 1] : 0);
	return sum;
}

static uint16_t ref_csum16_finish(uint64_t sum)
{
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

/* p4odp_csum16_add and p4odp_csum16_finish against the reference: every
 * length 0..80 at every alignment 0..7, from several starting sums, alone and
 * chained (as a checksum `_with_payload` adds the payload to the fields' sum),
 * on random bytes, all zeros (whose checksum is 0xffff, not 0) and all 0xff;
 * and one p4odp_csum16_acc over two pieces apart from each other, the first of
 * an even length (a checksum's fields read from the packet around a word
 * taken from field values), folded by p4odp_csum16_fold. */
static void check_csum16(uint32_t rounds)
{
	static const uint32_t starts[] = {0, 1, 0xfffe, 0xffff, 0x10000, 0x7fffffffu};  /* far from overflow */
	uint8_t data[8 + 80];

	for (uint32_t r = 0; r < rounds / 100 + 3; r++) {
		for (uint32_t i = 0; i < sizeof data; i++)
			data[i] = r == 0 ? 0 : r == 1 ? 0xff : (uint8_t)rnd();
		for (uint32_t align = 0; align < 8; align++)
			for (uint32_t len = 0; len + align <= sizeof data; len++)
				for (size_t k = 0; k < sizeof starts / sizeof starts[0]; k++) {
					const uint8_t *d = data + align;
					uint32_t cut = len / 2 + (r & 1);  /* chained: two parts, either may be odd */
					uint16_t want = ref_csum16_finish(ref_csum16_add(starts[k], d, len));
					uint16_t got = p4odp_csum16_finish(p4odp_csum16_add(starts[k], d, len));
					uint16_t want2, got2;

					if (cut > len)
						cut = len;
					want2 = ref_csum16_finish(ref_csum16_add(ref_csum16_add(starts[k], d, cut), d + cut,
										 len - cut));
					got2 = p4odp_csum16_finish(p4odp_csum16_add(p4odp_csum16_add(starts[k], d, cut),
										    d + cut, len - cut));
					uint32_t even = cut & ~1u, gap = len - even < 3 ? 0 : 3;  /* the second piece after a gap */
					uint16_t want3 = ref_csum16_finish(ref_csum16_add(ref_csum16_add(starts[k], d, even),
											  d + even + gap, len - even - gap));
					uint16_t got3 = p4odp_csum16_finish(starts[k] + p4odp_csum16_fold(p4odp_csum16_acc(
						p4odp_csum16_acc(0, d, even), d + even + gap, len - even - gap)));

					checks += 3;
					if (got3 != want3) {
						fprintf(stderr, "bits_wide: p4odp_csum16_acc, pieces of %" PRIu32 " and %" PRIu32
							" bytes, alignment %" PRIu32 ", start 0x%" PRIx32 ": expected 0x%04x, got 0x%04x\n",
							even, len - even - gap, align, starts[k], want3, got3);
						exit(1);
					}
					if (got != want || got2 != want2) {
						fprintf(stderr, "bits_wide: p4odp_csum16, length %" PRIu32 ", alignment %" PRIu32
							", start 0x%" PRIx32 "%s: expected 0x%04x, got 0x%04x\n", len, align,
							starts[k], got != want ? "" : ", in two parts", got != want ? want : want2,
							got != want ? got : got2);
						exit(1);
					}
				}
	}
	/* 65,537 words 0xffffffff then 0x00010000 (little-endian bytes 00 00 01 00; on
	 * big-endian hosts some other sum): a native sum of 0x1_0000_ffff_ffff, whose
	 * folds each carry (0x1_00ff_ffff and 0x2_00fe after the shift by 8 of a
	 * little-endian host).  (Its sum of big-endian words exceeds 32 bits: the
	 * reference sums in 64.) */
	static uint8_t big[4 * 65538];
	memset(big, 0xff, sizeof big - 4);
	memcpy(big + sizeof big - 4, (const uint8_t[]){0, 0, 1, 0}, 4);
	uint16_t want = ref_csum16_finish(ref_csum16_add(0, big, sizeof big));
	uint16_t got = p4odp_csum16_finish(p4odp_csum16_add(0, big, sizeof big));
	checks++;
	if (got != want) {
		fprintf(stderr, "bits_wide: p4odp_csum16 of %zu bytes: expected 0x%04x, got 0x%04x\n", sizeof big,
			want, got);
		exit(1);
	}
}

int main(int argc, char **argv)
{
	uint64_t seed = argc > 1 ? strtoull(argv[1], NULL, 0) : 1;
	uint32_t rounds = argc > 2 ? (uint32_t)strtoul(argv[2], NULL, 0) : 1000;

	rng_state = seed;
	for (size_t i = 0; i < sizeof widths / sizeof widths[0]; i++)
		check_width(widths[i], rounds);
	check_narrow(rounds);
	check_csum16(rounds);
	printf("bits_wide: OK (%llu checks)\n", checks);
	return 0;
}
