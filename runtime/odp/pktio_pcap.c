/* Bundled ODP: the "pcap:" device, reading and writing libpcap files.
 *
 *   pcap:in=FILE[:out=FILE][:loops=N]   or   pcap:out=FILE
 *
 * in     classic pcap file (not pcapng) with Ethernet link type, either byte
 *        order, microsecond or nanosecond time stamps
 * out    file written with every packet sent, microsecond time stamps, in
 *        the host byte order; created or truncated on open, flushed on stop
 *        and close
 * loops  passes over the input file, 0 for endless, default 1
 *
 * One input and one output queue. When the input file has been read the
 * given number of times, odp_pktin_recv() returns 0 and
 * odp_bundled_pktio_input_done() returns 1. Records longer than the pool's
 * packets are skipped and counted in in_discards; a record cut short by the
 * end of the file ends the input and counts in in_errors.
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
	free(priv);
	e->priv = NULL;
	return ret;
}

static int pcap_open(_odp_pktio_entry_t *e, const char *devname)
{
	pcap_priv_t *priv = calloc(1, sizeof(*priv));

	if (!priv) {
		_ODP_ERR("pcap: out of memory\n");
		return -1;
	}
	e->priv = priv;
	if (parse_name(priv, devname) ||
	    (priv->in_name && open_input(priv)) ||
	    (priv->out_name && open_output(priv))) {
		pcap_close(e);
		return -1;
	}
	priv->done = priv->in == NULL;
	priv->data_room = e->pool != ODP_POOL_INVALID ? _odp_pool_data_room(e->pool) : 0;
	return 0;
}

static int pcap_start(_odp_pktio_entry_t *e)
{
	(void)e;
	return 0;
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

static int pcap_recv(_odp_pktio_entry_t *e, int q, odp_packet_t pkts[], int num)
{
	pcap_priv_t *priv = e->priv;
	_odp_pktio_queue_t *stats = &e->in[q];
	int n = 0;

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
	int n = 0;

	clock_gettime(CLOCK_REALTIME, &now);
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
	.max_in_queues = 1,
	.max_out_queues = 1,
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
