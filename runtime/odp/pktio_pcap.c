/* Bundled ODP: the "pcap:" device, reading and writing libpcap files.
 *
 *   pcap:in=FILE[:out=FILE][:loops=N][:cache]   or   pcap:out=FILE
 *
 * in     classic pcap file (not pcapng) with Ethernet link type, either byte
 *        order, microsecond or nanosecond time stamps
 * out    file written with every packet sent, microsecond time stamps, in
 *        the host byte order; created or truncated on open, flushed on stop
 *        and close
 * loops  passes over the input file, 0 for endless, default 1
 * cache  replay from memory: the input file is read once, on open, and each
 *        receive copies cached frames into new packets (one allocation for
 *        the burst, one memcpy a frame); for load generation (p4odp bench)
 *
 * One input and one output queue; with cache, up to 64 of each. With several
 * input queues and hash_enable, queue q replays the frames whose flow hash
 * (_odp_flow_hash(), as the loop device) modulo the number of queues is q,
 * so one flow always comes from one queue; without hash_enable frame k goes
 * to queue k modulo the number of queues. Each queue replays its frames, in
 * file order, `loops` times. Several output queues write the out= file under
 * a lock.
 *
 * When the input has been read the given number of times (by every queue),
 * odp_pktin_recv() returns 0 and odp_bundled_pktio_input_done() returns 1.
 * Records longer than the pool's packets are skipped and counted in
 * in_discards; a record cut short by the end of the file ends the input (with
 * cache: what was read before it is replayed) and counts in in_errors.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "odp_internal.h"

#define PCAP_MAGIC_USEC     0xa1b2c3d4u
#define PCAP_MAGIC_NSEC     0xa1b23c4du
#define PCAP_LINKTYPE_ETHER 1
#define PCAP_FILE_HDR_LEN   24
#define PCAP_REC_HDR_LEN    16
/* Largest record accepted: libpcap's largest snapshot length. */
#define PCAP_MAX_RECORD     262144u
#define PCAP_MAXLEN         (64 * 1024)

/* A cached frame. */
typedef struct {
	const uint8_t *data;
	uint32_t len;
} pcap_frame_t;

/* What one input queue replays, used by the queue's owner only. */
typedef struct ODP_ALIGNED_CACHE {
	pcap_frame_t *frame;  /* this queue's frames, in file order */
	uint32_t num;
	uint32_t next;        /* next frame to hand out */
	uint32_t max_len;     /* longest of them: the burst's allocation */
	uint32_t loops_done;
	int done;
} pcap_replay_t;

typedef struct {
	FILE *in;
	FILE *out;
	char *in_name;
	char *out_name;
	int swapped;          /* input file is in the other byte order */
	int nsec;             /* input time stamps are in nanoseconds */
	uint32_t loops;       /* passes over the input, 0: endless */
	uint32_t loops_done;
	int done;             /* input finished (or there is none) */
	int pass_delivered;   /* a packet was returned since the last rewind */
	uint32_t data_room;   /* largest packet of the pool */
	odp_spinlock_t out_lock; /* the out= file, with several output queues */

	/* The cache option: the input file's frames, and how they are dealt out. */
	int cache;
	uint8_t *cache_data;  /* the frames' bytes, one after the other */
	pcap_frame_t *cache_frame;
	uint32_t cache_num;
	pcap_replay_t *replay; /* [ODP_PKTIN_MAX_QUEUES] */
	pcap_frame_t *replay_frame; /* the queues' frame lists, cache_num in all */
	uint32_t replay_queues; /* the queues the frames are dealt to, 0: not yet */
	int replay_hash;
	uint32_t queues_left; /* queues still replaying */
} pcap_priv_t;

static int pcap_match(const char *devname)
{
	return strncmp(devname, "pcap:", 5) == 0;
}

static uint32_t rd32(const uint8_t *p, int swapped)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return swapped ? __builtin_bswap32(v) : v;
}

static uint16_t rd16(const uint8_t *p, int swapped)
{
	uint16_t v;

	memcpy(&v, p, 2);
	return swapped ? __builtin_bswap16(v) : v;
}

static void wr32(uint8_t *p, uint32_t v)
{
	memcpy(p, &v, 4);
}

static void wr16(uint8_t *p, uint16_t v)
{
	memcpy(p, &v, 2);
}

/* Split "pcap:in=A:out=B:loops=N" into the fields of priv. */
static int parse_name(pcap_priv_t *priv, const char *devname)
{
	char *copy = strdup(devname + 5);
	char *save = NULL;
	int ret = 0;

	if (!copy)
		return -1;
	priv->loops = 1;
	for (char *tok = strtok_r(copy, ":", &save); tok; tok = strtok_r(NULL, ":", &save)) {
		if (strncmp(tok, "in=", 3) == 0 && !priv->in_name) {
			priv->in_name = strdup(tok + 3);
		} else if (strncmp(tok, "out=", 4) == 0 && !priv->out_name) {
			priv->out_name = strdup(tok + 4);
		} else if (strcmp(tok, "cache") == 0) {
			priv->cache = 1;
		} else if (strncmp(tok, "loops=", 6) == 0) {
			char *end;
			long long v;  /* not long: 32 bits on 32-bit targets */

			errno = 0;
			v = strtoll(tok + 6, &end, 10);
			if (errno || *end || end == tok + 6 || v < 0 || v > UINT32_MAX) {
				_ODP_ERR("pcap: bad loop count '%s'\n", tok + 6);
				ret = -1;
			}
			priv->loops = (uint32_t)v;
		} else {
			_ODP_ERR("pcap: unknown option '%s' in '%s'\n", tok, devname);
			ret = -1;
		}
	}
	free(copy);
	if (ret == 0 && !priv->in_name && !priv->out_name) {
		_ODP_ERR("pcap: '%s' names no in= or out= file\n", devname);
		ret = -1;
	}
	if (ret == 0 && ((priv->in_name && !priv->in_name[0]) ||
			 (priv->out_name && !priv->out_name[0]))) {
		_ODP_ERR("pcap: empty file name in '%s'\n", devname);
		ret = -1;
	}
	if (ret == 0 && priv->cache && !priv->in_name) {
		_ODP_ERR("pcap: '%s': cache needs an in= file\n", devname);
		ret = -1;
	}
	return ret;
}

static int open_input(pcap_priv_t *priv)
{
	uint8_t hdr[PCAP_FILE_HDR_LEN];
	uint32_t magic;
	uint32_t linktype;

	priv->in = fopen(priv->in_name, "rb");
	if (!priv->in) {
		_ODP_ERR("pcap: cannot open '%s': %s\n", priv->in_name, strerror(errno));
		return -1;
	}
	if (fread(hdr, 1, sizeof(hdr), priv->in) != sizeof(hdr)) {
		_ODP_ERR("pcap: '%s' is too short for a pcap file\n", priv->in_name);
		return -1;
	}
	memcpy(&magic, hdr, 4);
	if (magic == PCAP_MAGIC_USEC || magic == PCAP_MAGIC_NSEC) {
		priv->swapped = 0;
	} else if (__builtin_bswap32(magic) == PCAP_MAGIC_USEC ||
		   __builtin_bswap32(magic) == PCAP_MAGIC_NSEC) {
		priv->swapped = 1;
		magic = __builtin_bswap32(magic);
	} else {
		_ODP_ERR("pcap: '%s' is not a pcap file (magic 0x%08x; pcapng is not "
			 "supported)\n", priv->in_name, magic);
		return -1;
	}
	priv->nsec = magic == PCAP_MAGIC_NSEC;
	if (rd16(hdr + 4, priv->swapped) != 2) {
		_ODP_ERR("pcap: '%s': unsupported format version %u.%u\n", priv->in_name,
			 rd16(hdr + 4, priv->swapped), rd16(hdr + 6, priv->swapped));
		return -1;
	}
	/* The link type shares its word with FCS flags in newer files. */
	linktype = rd32(hdr + 20, priv->swapped) & 0x0fffffff;
	if (linktype != PCAP_LINKTYPE_ETHER) {
		_ODP_ERR("pcap: '%s': link type %u, only Ethernet (1) is supported\n",
			 priv->in_name, linktype);
		return -1;
	}
	return 0;
}

static int open_output(pcap_priv_t *priv)
{
	uint8_t hdr[PCAP_FILE_HDR_LEN];

	priv->out = fopen(priv->out_name, "wb");
	if (!priv->out) {
		_ODP_ERR("pcap: cannot create '%s': %s\n", priv->out_name, strerror(errno));
		return -1;
	}
	wr32(hdr, PCAP_MAGIC_USEC);
	wr16(hdr + 4, 2);
	wr16(hdr + 6, 4);
	wr32(hdr + 8, 0);                      /* time zone offset */
	wr32(hdr + 12, 0);                     /* time stamp accuracy */
	wr32(hdr + 16, PCAP_MAX_RECORD);       /* snapshot length */
	wr32(hdr + 20, PCAP_LINKTYPE_ETHER);
	if (fwrite(hdr, 1, sizeof(hdr), priv->out) != sizeof(hdr) || fflush(priv->out) != 0) {
		_ODP_ERR("pcap: cannot write '%s': %s\n", priv->out_name, strerror(errno));
		return -1;
	}
	return 0;
}

static int pcap_close(_odp_pktio_entry_t *e)
{
	pcap_priv_t *priv = e->priv;
	int ret = 0;

	if (!priv)
		return 0;
	if (priv->in)
		fclose(priv->in);
	if (priv->out && fclose(priv->out) != 0) {
		_ODP_ERR("pcap: cannot write '%s': %s\n", priv->out_name, strerror(errno));
		ret = -1;
	}
	free(priv->in_name);
	free(priv->out_name);
	free(priv->cache_data);
	free(priv->cache_frame);
	free(priv->replay);
	free(priv->replay_frame);
	free(priv);
	e->priv = NULL;
	return ret;
}

/* The cache option: every record of the input file into memory, then the file
 * is closed. Records that do not fit the pool's packets count in in_discards,
 * a truncated one in in_errors (it ends the file), as when reading the file. */
static int load_cache(_odp_pktio_entry_t *e, pcap_priv_t *priv)
{
	_odp_pktio_queue_t *stats = &e->in[0];
	size_t used = 0;
	size_t room = 0;
	uint32_t cap = 0;

	for (;;) {
		uint8_t rec[PCAP_REC_HDR_LEN];
		size_t got = fread(rec, 1, sizeof(rec), priv->in);
		uint32_t caplen;

		if (got != sizeof(rec)) {
			if (got != 0) {
				_ODP_ERR("pcap: '%s': truncated record header\n", priv->in_name);
				_odp_stat_add(&stats->errors, 1);
			}
			break;
		}
		caplen = rd32(rec + 8, priv->swapped);
		if (caplen > PCAP_MAX_RECORD) {
			_ODP_ERR("pcap: '%s': record of %u bytes, file corrupt?\n", priv->in_name,
				 caplen);
			_odp_stat_add(&stats->errors, 1);
			break;
		}
		if (caplen == 0 || caplen > priv->data_room) {
			if (fseek(priv->in, (long)caplen, SEEK_CUR) != 0)
				break;
			_odp_stat_add(&stats->discards, 1);
			continue;
		}
		if (priv->cache_num == cap) {
			uint32_t more = cap ? 2 * cap : 1024;
			pcap_frame_t *frame = more > cap ?
				realloc(priv->cache_frame, more * sizeof(*frame)) : NULL;

			if (!frame)
				goto nomem;
			priv->cache_frame = frame;
			cap = more;
		}
		if (used + caplen > room) {
			size_t more = room ? 2 * room : 64 * 1024;
			uint8_t *data;

			while (more < used + caplen)
				more *= 2;
			data = realloc(priv->cache_data, more);
			if (!data)
				goto nomem;
			priv->cache_data = data;
			room = more;
		}
		if (fread(priv->cache_data + used, 1, caplen, priv->in) != caplen) {
			_ODP_ERR("pcap: '%s': truncated record\n", priv->in_name);
			_odp_stat_add(&stats->errors, 1);
			break;
		}
		priv->cache_frame[priv->cache_num++].len = caplen;
		used += caplen;
	}
	/* The bytes do not move any more: point the frames at them. */
	used = 0;
	for (uint32_t i = 0; i < priv->cache_num; i++) {
		priv->cache_frame[i].data = priv->cache_data + used;
		used += priv->cache_frame[i].len;
	}
	fclose(priv->in);
	priv->in = NULL;
	return 0;
nomem:
	_ODP_ERR("pcap: '%s': out of memory for the cache (%u frames read)\n", priv->in_name,
		 priv->cache_num);
	return -1;
}

static int pcap_open(_odp_pktio_entry_t *e, const char *devname)
{
	pcap_priv_t *priv = calloc(1, sizeof(*priv));

	if (!priv) {
		_ODP_ERR("pcap: out of memory\n");
		return -1;
	}
	e->priv = priv;
	odp_spinlock_init(&priv->out_lock);
	priv->data_room = e->pool != ODP_POOL_INVALID ? _odp_pool_data_room(e->pool) : 0;
	if (parse_name(priv, devname) ||
	    (priv->in_name && open_input(priv)) ||
	    (priv->cache && load_cache(e, priv)) ||
	    (priv->out_name && open_output(priv))) {
		pcap_close(e);
		return -1;
	}
	priv->done = priv->in == NULL && priv->cache_num == 0;
	return 0;
}

static void pcap_queues(_odp_pktio_entry_t *e, uint32_t *max_in, uint32_t *max_out)
{
	if (!((pcap_priv_t *)e->priv)->cache) {
		*max_in = 1;
		*max_out = 1;
	}
}

/* The cache option: deal the frames to the input queues (again when their
 * number or the hashing changed since the last start). */
static int replay_deal(_odp_pktio_entry_t *e, pcap_priv_t *priv)
{
	uint32_t nq = e->num_in;
	int hash = nq > 1 && e->in_param.hash_enable;
	uint32_t count[ODP_PKTIN_MAX_QUEUES] = { 0 };
	uint32_t start[ODP_PKTIN_MAX_QUEUES];
	uint32_t total = 0;
	uint8_t *queue_of;

	if (nq == 0 || (priv->replay_queues == nq && priv->replay_hash == hash))
		return 0;
	if (!priv->replay) {
		priv->replay = aligned_alloc(ODP_CACHE_LINE_SIZE,
					     ODP_PKTIN_MAX_QUEUES * sizeof(pcap_replay_t));
		priv->replay_frame = malloc((priv->cache_num ? priv->cache_num : 1) *
					    sizeof(pcap_frame_t));
		if (!priv->replay || !priv->replay_frame) {
			_ODP_ERR("pcap: '%s': out of memory\n", priv->in_name);
			return -1;
		}
	}
	queue_of = malloc(priv->cache_num ? priv->cache_num : 1);
	if (!queue_of) {
		_ODP_ERR("pcap: '%s': out of memory\n", priv->in_name);
		return -1;
	}
	for (uint32_t i = 0; i < priv->cache_num; i++) {
		const pcap_frame_t *f = &priv->cache_frame[i];

		queue_of[i] = (uint8_t)(hash ? _odp_flow_hash(f->data, f->len) % nq : i % nq);
		count[queue_of[i]]++;
	}
	memset(priv->replay, 0, ODP_PKTIN_MAX_QUEUES * sizeof(pcap_replay_t));
	priv->queues_left = 0;
	for (uint32_t q = 0; q < nq; q++) {
		pcap_replay_t *r = &priv->replay[q];

		start[q] = total;
		total += count[q];
		r->frame = priv->replay_frame + start[q];
		r->done = count[q] == 0;
		priv->queues_left += count[q] != 0;
	}
	for (uint32_t i = 0; i < priv->cache_num; i++) {
		pcap_replay_t *r = &priv->replay[queue_of[i]];

		r->frame[r->num++] = priv->cache_frame[i];
		if (priv->cache_frame[i].len > r->max_len)
			r->max_len = priv->cache_frame[i].len;
	}
	free(queue_of);
	priv->replay_queues = nq;
	priv->replay_hash = hash;
	__atomic_store_n(&priv->done, priv->queues_left == 0, __ATOMIC_RELEASE);
	return 0;
}

static int pcap_start(_odp_pktio_entry_t *e)
{
	pcap_priv_t *priv = e->priv;

	return priv->cache ? replay_deal(e, priv) : 0;
}

static int pcap_stop(_odp_pktio_entry_t *e)
{
	pcap_priv_t *priv = e->priv;

	if (priv->out && fflush(priv->out) != 0) {
		_ODP_ERR("pcap: cannot write '%s': %s\n", priv->out_name, strerror(errno));
		return -1;
	}
	return 0;
}

/* No more input. Other threads may ask with odp_bundled_pktio_input_done(). */
static void set_done(pcap_priv_t *priv)
{
	__atomic_store_n(&priv->done, 1, __ATOMIC_RELEASE);
}

/* End of one pass over the input: start the next one or finish. */
static int next_pass(pcap_priv_t *priv)
{
	priv->loops_done++;
	if (priv->loops != 0 && priv->loops_done >= priv->loops) {
		set_done(priv);
		return -1;
	}
	if (fseek(priv->in, PCAP_FILE_HDR_LEN, SEEK_SET) != 0) {
		set_done(priv);
		return -1;
	}
	return 0;
}

/* The cache option: copies of the queue's next frames. */
static int replay_recv(_odp_pktio_entry_t *e, pcap_priv_t *priv, int q, odp_packet_t pkts[],
		       int num)
{
	pcap_replay_t *r = &priv->replay[q];
	int n;

	if (odp_unlikely(r->done))
		return 0;
	if (priv->loops != 0) {
		/* Frames left in the passes to go: the last one ends here. */
		uint64_t left = (uint64_t)(priv->loops - r->loops_done) * r->num - r->next;

		if ((uint64_t)num > left)
			num = (int)left;
	}
	n = odp_packet_alloc_multi(e->pool, r->max_len, pkts, num);
	if (odp_unlikely(n <= 0))
		return 0;  /* pool empty: try again later */
	for (int i = 0; i < n; i++) {
		const pcap_frame_t *f = &r->frame[r->next];
		uint8_t *data = _odp_pkt_data(pkts[i]);

		_odp_pkt_set_data(pkts[i], data, f->len);
		memcpy(data, f->data, f->len);
		if (odp_unlikely(++r->next == r->num)) {
			r->next = 0;
			if (priv->loops != 0 && ++r->loops_done == priv->loops) {
				r->done = 1;
				if (__atomic_sub_fetch(&priv->queues_left, 1, __ATOMIC_ACQ_REL) == 0)
					set_done(priv);
			}
		}
	}
	return n;
}

static int pcap_recv(_odp_pktio_entry_t *e, int q, odp_packet_t pkts[], int num)
{
	pcap_priv_t *priv = e->priv;
	_odp_pktio_queue_t *stats = &e->in[q];
	int n = 0;

	if (priv->cache)
		return replay_recv(e, priv, q, pkts, num);
	while (n < num && !priv->done) {
		uint8_t rec[PCAP_REC_HDR_LEN];
		size_t got = fread(rec, 1, sizeof(rec), priv->in);
		uint32_t caplen;
		odp_packet_t pkt;

		if (got != sizeof(rec)) {
			if (got != 0) {
				_ODP_ERR("pcap: '%s': truncated record header\n", priv->in_name);
				_odp_stat_add(&stats->errors, 1);
			}
			/* A pass without packets would repeat forever. */
			if (!priv->pass_delivered || got != 0) {
				set_done(priv);
				break;
			}
			if (next_pass(priv))
				break;
			priv->pass_delivered = 0;
			continue;
		}
		caplen = rd32(rec + 8, priv->swapped);
		if (caplen > PCAP_MAX_RECORD) {
			_ODP_ERR("pcap: '%s': record of %u bytes, file corrupt?\n", priv->in_name,
				 caplen);
			_odp_stat_add(&stats->errors, 1);
			set_done(priv);
			break;
		}
		if (caplen == 0 || caplen > priv->data_room) {
			/* Does not fit the pool's packets: skip it. */
			if (fseek(priv->in, (long)caplen, SEEK_CUR) != 0) {
				set_done(priv);
				break;
			}
			_odp_stat_add(&stats->discards, 1);
			continue;
		}
		pkt = odp_packet_alloc(e->pool, caplen);
		if (pkt == ODP_PACKET_INVALID) {
			/* Pool empty: read this record again next time. */
			fseek(priv->in, -(long)sizeof(rec), SEEK_CUR);
			break;
		}
		if (fread(odp_packet_data(pkt), 1, caplen, priv->in) != caplen) {
			_ODP_ERR("pcap: '%s': truncated record\n", priv->in_name);
			_odp_stat_add(&stats->errors, 1);
			odp_packet_free(pkt);
			set_done(priv);
			break;
		}
		pkts[n++] = pkt;
		priv->pass_delivered = 1;
	}
	return n;
}

static int pcap_send(_odp_pktio_entry_t *e, int q, const odp_packet_t pkts[], int num)
{
	pcap_priv_t *priv = e->priv;
	uint64_t octets = 0;
	struct timespec now;
	int lock = priv->out && e->num_out > 1;
	int n = 0;

	clock_gettime(CLOCK_REALTIME, &now);
	if (lock)
		odp_spinlock_lock(&priv->out_lock);
	for (; n < num; n++) {
		uint32_t len = odp_packet_len(pkts[n]);
		uint8_t rec[PCAP_REC_HDR_LEN];

		if (priv->out) {
			wr32(rec, (uint32_t)now.tv_sec);
			wr32(rec + 4, (uint32_t)(now.tv_nsec / 1000));
			wr32(rec + 8, len);
			wr32(rec + 12, len);
			if (fwrite(rec, 1, sizeof(rec), priv->out) != sizeof(rec) ||
			    fwrite(odp_packet_data(pkts[n]), 1, len, priv->out) != len) {
				_ODP_ERR("pcap: cannot write '%s': %s\n", priv->out_name,
					 strerror(errno));
				_odp_stat_add(&e->out[q].errors, 1);
			}
		}
		octets += len;
	}
	if (lock)
		odp_spinlock_unlock(&priv->out_lock);
	odp_packet_free_multi(pkts, num);
	_odp_pktio_tx_count(e, q, (uint64_t)num, octets);
	return num;
}

static int pcap_input_done(_odp_pktio_entry_t *e)
{
	return __atomic_load_n(&((pcap_priv_t *)e->priv)->done, __ATOMIC_ACQUIRE);
}

static int pcap_mac_addr(_odp_pktio_entry_t *e, uint8_t mac[6])
{
	static const uint8_t pcap_mac[6] = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x02 };

	(void)e;
	memcpy(mac, pcap_mac, 6);
	return 0;
}

static uint32_t pcap_maxlen(_odp_pktio_entry_t *e)
{
	pcap_priv_t *priv = e->priv;

	return priv->data_room ? priv->data_room : PCAP_MAXLEN;
}

static int pcap_promisc_set(_odp_pktio_entry_t *e, int enable)
{
	(void)e;
	(void)enable;
	return 0;
}

const _odp_pktio_ops_t _odp_pktio_pcap_ops = {
	.name = "pcap",
	.match = pcap_match,
	.max_in_queues = ODP_PKTIN_MAX_QUEUES,   /* with cache; else 1 (pcap_queues) */
	.max_out_queues = ODP_PKTOUT_MAX_QUEUES,
	.queues = pcap_queues,
	.open = pcap_open,
	.close = pcap_close,
	.start = pcap_start,
	.stop = pcap_stop,
	.recv = pcap_recv,
	.send = pcap_send,
	.input_done = pcap_input_done,
	.mac_addr = pcap_mac_addr,
	.maxlen = pcap_maxlen,
	.promisc_set = pcap_promisc_set,
};
