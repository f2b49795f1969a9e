/*
 * v1model's extern functions that compute: hash algorithms and random
 * numbers (also the `random` hash algorithm, which hashes nothing); meters;
 * and log_msg's printing.  The hash algorithms are BMv2's, so that programs and
 * tests written for simple_switch get the same numbers.
 */

#include <errno.h>
#include <stdarg.h>

#include "switch.h"

/* A hash being computed over its input's bytes, given in parts. */
struct hash_state {
	enum p4odp_hash_algorithm algo;
	const struct p4odp_crc_params *crc;	/* a CRC's parameters */
	uint32_t width;		/* a CRC's bits */
	uint32_t polynomial;	/* a CRC's, reflected where its data are */
	uint64_t value;
	uint32_t bytes;	/* of input so far */
};

/* BMv2's crc16 (CRC-16/ARC) and crc32 (IEEE 802.3), and its crc16_custom and
 * crc32_custom until their parameters are set. */
static const struct p4odp_crc_params crc16_params = { 0x8005, 0, 0, true, true };
static const struct p4odp_crc_params crc32_params = { 0x04c11db7, 0xffffffffu, 0xffffffffu, true, true };

static uint32_t reflect(uint32_t v, unsigned bits)
{
	uint32_t r = 0;
	for (unsigned i = 0; i < bits; i++)
		if (v & (1u << i))
			r |= 1u << (bits - 1 - i);
	return r;
}

static bool is_crc(enum p4odp_hash_algorithm algo)
{
	return algo == P4ODP_HASH_CRC16 || algo == P4ODP_HASH_CRC16_CUSTOM || algo == P4ODP_HASH_CRC32 ||
	       algo == P4ODP_HASH_CRC32_CUSTOM;
}

/* `crc`: a custom CRC's parameters, NULL for the algorithm's own.  Every CRC is
 * BMv2's crc_custom (most significant bit first, bytes reflected as the
 * parameters say); where the data are reflected the register is kept
 * reflected instead (least significant bit first, the polynomial and the
 * initial remainder reflected), which gives the same numbers with no byte
 * reflected. */
static void hash_init(struct hash_state *h, enum p4odp_hash_algorithm algo, const struct p4odp_crc_params *crc)
{
	bool crc32 = algo == P4ODP_HASH_CRC32 || algo == P4ODP_HASH_CRC32_CUSTOM;
	uint32_t width = crc32 ? 32 : 16;

	if (!crc)
		crc = crc32 ? &crc32_params : &crc16_params;
	*h = (struct hash_state){ algo, crc, width, crc->polynomial, 0, 0 };
	if (is_crc(algo)) {
		h->value = crc->initial_remainder;
		if (crc->data_reflected) {
			h->polynomial = reflect(crc->polynomial, width);
			h->value = reflect(crc->initial_remainder, width);
		}
	}
}

/* The 40-byte key of Microsoft's RSS specification (the default of DPDK's drivers); a longer
 * input wraps around it. */
static const uint8_t toeplitz_key[40] = {
	0x6d, 0x5a, 0x56, 0xda, 0x25, 0x5b, 0x0e, 0xc2, 0x41, 0x67, 0x25, 0x3d, 0x43, 0xa3,
	0x8f, 0xb0, 0xd0, 0xca, 0x2b, 0xcb, 0xae, 0x7b, 0x30, 0xb4, 0x77, 0xcb, 0x2d, 0xa3,
	0x80, 0x30, 0xf2, 0x0c, 0x6a, 0x42, 0xb7, 0x3b, 0xbe, 0xac, 0x01, 0xfa,
};

/* The 32 bits of the key from bit `bit`. */
static uint32_t toeplitz_window(uint32_t bit)
{
	uint64_t bytes = 0;

	for (uint32_t i = 0; i < 5; i++)
		bytes = bytes << 8 | toeplitz_key[(bit / 8 + i) % sizeof toeplitz_key];
	return (uint32_t)(bytes >> (8 - bit % 8));
}

/* The next `len` bytes of the input. */
static void hash_update(struct hash_state *h, const uint8_t *buf, uint32_t len)
{
	uint64_t v = h->value;

	switch (h->algo) {
	case P4ODP_HASH_CRC16:
	case P4ODP_HASH_CRC16_CUSTOM:
	case P4ODP_HASH_CRC32:
	case P4ODP_HASH_CRC32_CUSTOM:
		if (h->crc->data_reflected) {
			for (uint32_t i = 0; i < len; i++) {
				v ^= buf[i];
				for (int b = 0; b < 8; b++)
					v = v & 1 ? v >> 1 ^ h->polynomial : v >> 1;
			}
		} else {
			uint64_t top = UINT64_C(1) << (h->width - 1), mask = (top << 1) - 1;

			for (uint32_t i = 0; i < len; i++) {
				v ^= (uint64_t)buf[i] << (h->width - 8);
				for (int b = 0; b < 8; b++)
					v = (v & top ? v << 1 ^ h->polynomial : v << 1) & mask;
			}
		}
		break;
	case P4ODP_HASH_CSUM16:	/* the 16-bit words' sum (p4odp_bits.h), a word across the parts too */
		if (len && h->bytes % 2) {	/* the low byte of the word the last part began */
			v += buf[0];
			buf++;
			len--;
		}
		v += p4odp_csum16_fold(p4odp_csum16_acc(0, buf, len));
		break;
	case P4ODP_HASH_XOR16:
		for (uint32_t i = 0; i < len; i++)
			v ^= (uint64_t)buf[i] << ((h->bytes + i) % 2 ? 0 : 8);
		break;
	case P4ODP_HASH_TOEPLITZ:	/* each bit set: the key's 32 bits from its place */
		for (uint32_t i = 0; i < len; i++)
			for (uint32_t b = 0; b < 8; b++)
				if (buf[i] & 0x80 >> b)
					v ^= toeplitz_window(((h->bytes + i) * 8 + b) % (8 * sizeof toeplitz_key));
		break;
	case P4ODP_HASH_IDENTITY:	/* the first 8 bytes (BMv2's identity), not the last 8 */
	default:
		for (uint32_t i = 0; i < len && h->bytes + i < 8; i++)
			v = v << 8 | buf[i];
		break;
	}
	h->value = v;
	h->bytes += len;
}

static uint64_t hash_final(const struct hash_state *h)
{
	switch (h->algo) {
	case P4ODP_HASH_CRC16:
	case P4ODP_HASH_CRC16_CUSTOM:
	case P4ODP_HASH_CRC32:
	case P4ODP_HASH_CRC32_CUSTOM: {
		/* The register is reflected already where the data were. */
		uint64_t v = h->crc->data_reflected != h->crc->remainder_reflected ? reflect((uint32_t)h->value, h->width)
										    : h->value;

		return (v ^ h->crc->final_xor_value) & ((UINT64_C(1) << h->width) - 1);
	}
	case P4ODP_HASH_CSUM16:
		return p4odp_csum16_finish((uint32_t)h->value);
	default:
		return h->value;
	}
}

static uint64_t hash_parts(enum p4odp_hash_algorithm algo, const struct p4odp_crc_params *crc, const uint8_t *buf,
			   uint32_t len, const uint8_t *more, uint32_t more_len)
{
	struct hash_state h;

	hash_init(&h, algo, crc);
	hash_update(&h, buf, len);
	hash_update(&h, more, more_len);
	return hash_final(&h);
}

uint64_t p4odp_hash_parts(enum p4odp_hash_algorithm algo, const uint8_t *buf, uint32_t len, const uint8_t *more,
			  uint32_t more_len)
{
	return hash_parts(algo, NULL, buf, len, more, more_len);
}

uint64_t p4odp_hash_custom(struct p4odp_pctx *pc, uint32_t calc, const uint8_t *buf, uint32_t len,
			   const uint8_t *more, uint32_t more_len)
{
	const struct p4odp_crc_params *crc = atomic_load_explicit(&pc->sw->crcs[calc], memory_order_acquire);

	return hash_parts(pc->sw->program->crcs[calc].width == 32 ? P4ODP_HASH_CRC32_CUSTOM : P4ODP_HASH_CRC16_CUSTOM,
			  crc, buf, len, more, more_len);
}

int p4odp_crcs_init(struct p4odp_switch *sw)
{
	const struct p4odp_program *prog = sw->program;

	sw->crcs = calloc(prog->n_crcs ? prog->n_crcs : 1, sizeof *sw->crcs);
	if (!sw->crcs)
		return -1;
	for (uint32_t i = 0; i < prog->n_crcs; i++) {
		struct p4odp_crc_params *p = malloc(sizeof *p);

		if (!p)
			return -1;
		*p = prog->crcs[i].width == 32 ? crc32_params : crc16_params;
		atomic_init(&sw->crcs[i], p);
	}
	return 0;
}

void p4odp_crcs_destroy(struct p4odp_switch *sw)
{
	for (uint32_t i = 0; sw->crcs && i < sw->program->n_crcs; i++)
		free(atomic_load(&sw->crcs[i]));
	free(sw->crcs);
}

/* The control-plane API's (p4odp_control.h). */
int p4odp_ctl_crc_set(struct p4odp_switch *sw, uint32_t calc, const struct p4odp_crc_params *params)
{
	if (calc >= sw->program->n_crcs ||
	    (sw->program->crcs[calc].width == 16 &&
	     (params->polynomial | params->initial_remainder | params->final_xor_value) > 0xffff))
		return -EINVAL;
	struct p4odp_crc_params *p = malloc(sizeof *p);
	if (!p)
		return -ENOMEM;
	*p = *params;
	p = atomic_exchange_explicit(&sw->crcs[calc], p, memory_order_acq_rel);
	p4odp_rcu_synchronize(sw->rcu);
	free(p);
	return 0;
}

uint64_t p4odp_hash(enum p4odp_hash_algorithm algo, const uint8_t *buf, uint32_t len)
{
	return p4odp_hash_parts(algo, buf, len, NULL, 0);
}

/* xorshift64* on the worker's own state: workers never share a generator. */
uint64_t p4odp_random(struct p4odp_pctx *pc, uint64_t lo, uint64_t hi)
{
	uint64_t *state = &pc->worker->random_state;

	*state ^= *state >> 12;
	*state ^= *state << 25;
	*state ^= *state >> 27;
	uint64_t r = *state * UINT64_C(0x2545F4914F6CDD1D);
	if (hi <= lo)
		return lo;
	uint64_t span = hi - lo + 1;
	return span ? lo + r % span : r;
}

void p4odp_log_msg(struct p4odp_pctx *pc, const char *format, ...)
{
	struct p4odp_worker *w = pc->worker;
	va_list args;

	if (!pc->sw->log_msgs)
		return;
	uint64_t second = odp_time_global_ns() / ODP_TIME_SEC_IN_NS;
	if (second != w->log_second) {
		if (w->log_dropped)
			fprintf(stderr, "log_msg: %llu line(s) left out (more than %d a second)\n",
				(unsigned long long)w->log_dropped, P4ODP_LOG_MSG_RATE);
		w->log_second = second;
		w->log_lines = 0;
		w->log_dropped = 0;
	}
	if (w->log_lines == P4ODP_LOG_MSG_RATE) {
		w->log_dropped++;
		return;
	}
	w->log_lines++;
	va_start(args, format);
	vfprintf(stderr, format, args);
	va_end(args);
	fputc('\n', stderr);
}

/* Tokens the bucket's rate has given by `micros` (BMv2's count from its
 * time origin, not from the last packet: no error adds up), added up to
 * the burst size; whether `need` of them are there, then taken. */
static bool bucket_take(struct p4odp_meter_bucket *b, uint64_t micros, uint64_t need)
{
	uint64_t credited = (uint64_t)((double)micros * b->rate);

	if (credited > b->credited) {
		uint64_t room = b->burst - b->tokens;
		b->tokens += credited - b->credited < room ? credited - b->credited : room;
		b->credited = credited;
	}
	if (b->tokens < need)
		return false;
	b->tokens -= need;
	return true;
}

uint8_t p4odp_meter_execute(struct p4odp_pctx *pc, struct p4odp_meter *m, uint64_t amount)
{
	uint8_t color = P4ODP_METER_GREEN;

	if (!__atomic_load_n(&m->configured, __ATOMIC_ACQUIRE))
		return color;
	uint64_t micros = (odp_time_global_ns() - pc->sw->started_ns) / 1000;
	p4odp_meter_lock(m);
	if (!bucket_take(&m->peak, micros, amount))
		color = P4ODP_METER_RED;
	else if (!bucket_take(&m->committed, micros, amount))
		color = P4ODP_METER_YELLOW;
	p4odp_meter_unlock(m);
	return color;
}
