/*
 * v1model's extern functions that compute: hash algorithms and random
 * numbers (also the `random` hash algorithm, which hashes nothing); meters;
 * and log_msg's printing.  The hash algorithms are BMv2's, so that programs and
 * tests written for simple_switch get the same numbers.
 */

#include <stdarg.h>

#include "switch.h"

/* A hash being computed over its input's bytes, given in parts. */
struct hash_state {
	enum p4odp_hash_algorithm algo;
	uint64_t value;
	uint32_t bytes;	/* of input so far */
};

static uint32_t reflect(uint32_t v, unsigned bits)
{
	uint32_t r = 0;
	for (unsigned i = 0; i < bits; i++)
		if (v & (1u << i))
			r |= 1u << (bits - 1 - i);
	return r;
}

static void hash_init(struct hash_state *h, enum p4odp_hash_algorithm algo)
{
	bool crc32 = algo == P4ODP_HASH_CRC32 || algo == P4ODP_HASH_CRC32_CUSTOM;

	*h = (struct hash_state){ algo, crc32 ? 0xffffffffu : 0, 0 };
}

/* The next `len` bytes of the input. */
static void hash_update(struct hash_state *h, const uint8_t *buf, uint32_t len)
{
	uint64_t v = h->value;

	switch (h->algo) {
	case P4ODP_HASH_CRC16:	/* CRC-16/ARC: poly 0x8005, reflected, init 0 (BMv2's crc16) */
	case P4ODP_HASH_CRC16_CUSTOM:
		for (uint32_t i = 0; i < len; i++) {
			v ^= buf[i];
			for (int b = 0; b < 8; b++)
				v = (v & 1) ? (v >> 1) ^ reflect(0x8005, 16) : v >> 1;
		}
		break;
	case P4ODP_HASH_CRC32:	/* CRC-32 (IEEE 802.3): poly 0x04C11DB7, reflected, init and xorout all ones */
	case P4ODP_HASH_CRC32_CUSTOM:
		for (uint32_t i = 0; i < len; i++) {
			v ^= buf[i];
			for (int b = 0; b < 8; b++)
				v = (v & 1) ? (v >> 1) ^ 0xedb88320u : v >> 1;
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
		return h->value & 0xffff;
	case P4ODP_HASH_CRC32:
	case P4ODP_HASH_CRC32_CUSTOM:
		return (h->value ^ 0xffffffffu) & 0xffffffffu;
	case P4ODP_HASH_CSUM16:
		return p4odp_csum16_finish((uint32_t)h->value);
	default:
		return h->value;
	}
}

uint64_t p4odp_hash_parts(enum p4odp_hash_algorithm algo, const uint8_t *buf, uint32_t len, const uint8_t *more,
			  uint32_t more_len)
{
	struct hash_state h;

	hash_init(&h, algo);
	hash_update(&h, buf, len);
	hash_update(&h, more, more_len);
	return hash_final(&h);
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

uint8_t p4odp_meter_execute(struct p4odp_pctx *pc, struct p4odp_meter *m, bool bytes)
{
	uint8_t color = P4ODP_METER_GREEN;

	if (!__atomic_load_n(&m->configured, __ATOMIC_ACQUIRE))
		return color;
	uint64_t micros = (odp_time_global_ns() - pc->sw->started_ns) / 1000;
	uint64_t need = bytes ? pc->len : 1;

	p4odp_meter_lock(m);
	if (!bucket_take(&m->peak, micros, need))
		color = P4ODP_METER_RED;
	else if (!bucket_take(&m->committed, micros, need))
		color = P4ODP_METER_YELLOW;
	p4odp_meter_unlock(m);
	return color;
}
