/* Bundled ODP: netmap ports (netmap:IFNAME, VALE ports vale*), with the
 * netmap user API of net/netmap_user.h (NETMAP_WITH_LIBS: nm_open()).
 *
 * Names are those of odp-linux and netmap: netmap:IFNAME binds the NIC rings
 * of interface IFNAME, valeX:Y port Y of VALE switch X. A ring suffix
 * (IFNAME^ host rings, IFNAME* NIC and host rings, IFNAME-N NIC ring pair N,
 * {N / }N pipe ends) binds those rings only, for one input and one output
 * queue. Flags (/...) and memory ids (@N) are not taken: the pktio sets the
 * flags of each descriptor itself.
 *
 * Without a ring suffix, input queue i gets an even share of the port's RX
 * rings and output queue i of its TX rings, each ring through a descriptor of
 * its own (NR_REG_ONE_NIC, RX or TX rings only), so a queue syncs its own
 * rings only; a single queue binds all rings with one descriptor. The first
 * descriptor maps the netmap memory, the others share that mapping.
 * Descriptors exist between odp_pktio_start() and odp_pktio_stop();
 * odp_pktio_open() binds the port once to read its rings and buffer size.
 *
 * Packets are copied: received slots into packets of the pktio's pool, sent
 * packets into TX slots. Each receive call syncs the queue's RX rings
 * (NIOCRXSYNC) and each send call pushes what it queued (NIOCTXSYNC).
 * Frames that span several slots (NS_MOREFRAG), are shorter than an Ethernet
 * header or longer than the pool's packets are dropped and counted in
 * in_discards.
 *
 * Needs the netmap kernel module (/dev/netmap) and its headers at build time
 * (make PKTIO=netmap EXTRA_CFLAGS=-I.../netmap/sys); build-checked only.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

/* netmap_user.h prints through these when defined by nobody else; the
 * messages of this file say what failed instead. */
#define ND(_fmt, ...) do {} while (0)
#define D(_fmt, ...) do {} while (0)
#define RD(lps, format, ...) do {} while (0)
#define NETMAP_WITH_LIBS
#include <net/netmap_user.h>

#include "odp_internal.h"

#define NETMAP_PREFIX     "netmap:"
#define NETMAP_PREFIX_LEN (sizeof(NETMAP_PREFIX) - 1)
#define VALE_PREFIX       "vale"
#define VALE_PREFIX_LEN   (sizeof(VALE_PREFIX) - 1)
#define RING_SUFFIXES     "-*^{}"
#define STOP_DRAIN_NS     (200 * ODP_TIME_MSEC_IN_NS)

/* One descriptor: the rings of one direction it binds. */
typedef struct {
	struct nm_desc *d;
	uint16_t first;
	uint16_t last;
	int dirty;                   /* TX: slots queued since the last sync */
} nm_port_t;

/* The descriptors of one queue; used by the queue's thread only. */
typedef struct ODP_ALIGNED_CACHE {
	uint32_t num;
	uint32_t cur;                /* port to look at first */
	nm_port_t *port;
} nm_queue_t;

typedef struct {
	_odp_netdev_t dev;           /* first; VALE ports: mac and promisc only */
	char nm_name[_ODP_PKTIO_NAME_LEN]; /* the name without a ring suffix */
	char suffix[32];             /* ring suffix given, "" for none */
	int is_vale;
	int promisc_was;             /* IFF_PROMISC before open */
	uint32_t buf_size;           /* netmap buffer (slot) size */
	uint32_t data_room;          /* largest packet of the pool */
	uint32_t rx_rings;           /* rings the port has */
	uint32_t tx_rings;
	struct nm_desc *mem_owner;   /* the descriptor that mapped the memory */
	nm_queue_t rx[ODP_PKTIN_MAX_QUEUES];
	nm_queue_t tx[ODP_PKTOUT_MAX_QUEUES];
} nm_priv_t;

static int nm_match(const char *devname)
{
	return strncmp(devname, NETMAP_PREFIX, NETMAP_PREFIX_LEN) == 0 ||
	       (strncmp(devname, VALE_PREFIX, VALE_PREFIX_LEN) == 0 && strchr(devname, ':'));
}

/* Why nm_open() failed, from errno (netmap_user.h keeps its message). */
static void open_error(const char *name, const char *what, int err)
{
	if (access(NETMAP_DEVICE_NAME, F_OK) != 0)
		_ODP_ERR("netmap: %s: cannot %s: no " NETMAP_DEVICE_NAME
			 " (load the netmap kernel module)\n", name, what);
	else
		_ODP_ERR("netmap: %s: cannot %s: %s%s\n", name, what, strerror(err),
			 err == EACCES || err == EPERM ? " (needs access to " NETMAP_DEVICE_NAME ")" :
			 err == ENXIO || err == ENOENT || err == EINVAL ?
			 " (no such interface, or no netmap support for it)" : "");
}

/* "", "^", "*", or one of "-{}" and a ring or pipe number. */
static int ring_suffix_ok(const char *suffix)
{
	if (suffix[0] == '\0' || ((suffix[0] == '^' || suffix[0] == '*') && suffix[1] == '\0'))
		return 1;
	if (!strchr("-{}", suffix[0]) || suffix[1] == '\0')
		return 0;
	for (const char *c = suffix + 1; *c; c++)
		if (*c < '0' || *c > '9')
			return 0;
	return 1;
}

/* Split the name into the port and a ring suffix; check its syntax. */
static int parse_name(nm_priv_t *priv, const char *devname)
{
	const char *port;
	const char *end;
	size_t len;

	priv->is_vale = strncmp(devname, NETMAP_PREFIX, NETMAP_PREFIX_LEN) != 0;
	if (priv->is_vale) {
		const char *colon = strchr(devname, ':');

		port = colon + 1;
		for (const char *c = devname + VALE_PREFIX_LEN; c < colon; c++)
			if (!(*c == '_' || (*c >= '0' && *c <= '9') || (*c >= 'a' && *c <= 'z') ||
			      (*c >= 'A' && *c <= 'Z')))
				goto bad;
	} else {
		port = devname + NETMAP_PREFIX_LEN;
	}
	end = port + strcspn(port, RING_SUFFIXES "/@");
	if (end == port || *end == '/' || *end == '@')
		goto bad;
	len = (size_t)(end - devname);
	if (!priv->is_vale && (size_t)(end - port) >= sizeof(priv->dev.ifname))
		goto bad;
	if (strlen(end) >= sizeof(priv->suffix) || !ring_suffix_ok(end))
		goto bad;
	memcpy(priv->nm_name, devname, len);
	priv->nm_name[len] = '\0';
	snprintf(priv->suffix, sizeof(priv->suffix), "%s", end);
	return 0;
bad:
	_ODP_ERR("netmap: '%s': expected netmap:IFNAME or valeX:Y, optionally followed by "
		 "^, *, -N, {N or }N (no /flags or @memid)\n", devname);
	return -EINVAL;
}

/* The interface's IFF_PROMISC flag (netmap has no packet socket). */
static int set_promisc(nm_priv_t *priv, int enable)
{
	short flags;
	int ret = _odp_netdev_flags(&priv->dev, &flags);

	if (ret == 0)
		ret = _odp_netdev_set_flags(&priv->dev, (short)(enable ? flags | IFF_PROMISC :
								 flags & ~IFF_PROMISC));
	if (ret) {
		_ODP_ERR("netmap: %s: cannot %s promiscuous mode: %s\n", priv->dev.ifname,
			 enable ? "enter" : "leave", strerror(-ret));
		return ret;
	}
	priv->dev.promisc = enable;
	return 0;
}

static int nm_close_pktio(_odp_pktio_entry_t *e)
{
	nm_priv_t *priv = e->priv;

	if (!priv)
		return 0;
	if (priv->dev.fd >= 0 && priv->dev.promisc != priv->promisc_was)
		(void)set_promisc(priv, priv->promisc_was);
	return _odp_netdev_close(e);
}

/* VALE ports have no MAC address: a locally administered one, unique in
 * this process. */
static void vale_mac(_odp_pktio_entry_t *e, uint8_t mac[6])
{
	uint32_t pid = (uint32_t)getpid();

	mac[0] = 0x02;
	mac[1] = (uint8_t)(pid >> 24);
	mac[2] = (uint8_t)(pid >> 16);
	mac[3] = (uint8_t)(pid >> 8);
	mac[4] = (uint8_t)pid;
	mac[5] = (uint8_t)e->index;
}

static int nm_open_pktio(_odp_pktio_entry_t *e, const char *devname)
{
	nm_priv_t *priv;
	struct nm_desc *probe;
	short flags = 0;

	priv = calloc(1, sizeof(*priv));
	if (!priv) {
		_ODP_ERR("netmap: out of memory\n");
		return -ENOMEM;
	}
	e->priv = priv;
	priv->dev.fd = -1;
	if (parse_name(priv, devname))
		goto fail;

	/* Bind the port once, for its rings and buffer size. */
	probe = nm_open(devname, NULL, 0, NULL);
	if (!probe) {
		open_error(devname, "open the port", errno);
		goto fail;
	}
	priv->rx_rings = probe->req.nr_rx_rings;
	priv->tx_rings = probe->req.nr_tx_rings;
	priv->buf_size = probe->some_ring->nr_buf_size;
	nm_close(probe);

	priv->data_room = e->pool != ODP_POOL_INVALID ? _odp_pool_data_room(e->pool) : 0;
	if (priv->is_vale) {
		vale_mac(e, priv->dev.mac);
		priv->dev.promisc = 1;   /* a VALE port gets all frames sent to it */
		e->promisc = 1;
		return 0;
	}
	if (_odp_netdev_open(e, priv->nm_name + NETMAP_PREFIX_LEN, 0))
		goto fail;
	if (_odp_netdev_flags(&priv->dev, &flags) == 0)
		priv->promisc_was = !!(flags & IFF_PROMISC);
	priv->dev.promisc = priv->promisc_was;
	e->promisc = priv->dev.promisc;
	return 0;
fail:
	nm_close_pktio(e);
	return -1;
}

/* Without a ring suffix: as many queues as rings, else one. */
static void nm_queues(_odp_pktio_entry_t *e, uint32_t *max_in, uint32_t *max_out)
{
	nm_priv_t *priv = e->priv;
	uint32_t rx = priv->suffix[0] ? 1 : priv->rx_rings;
	uint32_t tx = priv->suffix[0] ? 1 : priv->tx_rings;

	if (*max_in > rx)
		*max_in = rx ? rx : 1;
	if (*max_out > tx)
		*max_out = tx ? tx : 1;
}

static int tx_pending(const nm_port_t *p)
{
	for (uint32_t r = p->first; r <= p->last; r++)
		if (nm_tx_pending(NETMAP_TXRING(p->d->nifp, r)))
			return 1;
	return 0;
}

static void queues_close(nm_priv_t *priv, nm_queue_t qs[], uint32_t num, int tx)
{
	for (uint32_t i = 0; i < num; i++) {
		nm_queue_t *q = &qs[i];

		for (uint32_t j = 0; q->port && j < q->num; j++) {
			nm_port_t *p = &q->port[j];

			if (!p->d)
				continue;
			if (tx) {
				/* Let the NIC send what is queued, for a while. */
				uint64_t end = odp_time_local_ns() + STOP_DRAIN_NS;

				while (tx_pending(p) && odp_time_local_ns() < end) {
					struct timespec ts = { 0, 100000 };

					(void)ioctl(p->d->fd, NIOCTXSYNC, NULL);
					nanosleep(&ts, NULL);
				}
			}
			if (p->d != priv->mem_owner)
				nm_close(p->d);
		}
		free(q->port);
		memset(q, 0, sizeof(*q));
	}
}

static int nm_stop(_odp_pktio_entry_t *e)
{
	nm_priv_t *priv = e->priv;

	queues_close(priv, priv->tx, ODP_PKTOUT_MAX_QUEUES, 1);
	queues_close(priv, priv->rx, ODP_PKTIN_MAX_QUEUES, 0);
	/* Last: the others used its mapping. */
	if (priv->mem_owner)
		nm_close(priv->mem_owner);
	priv->mem_owner = NULL;
	return 0;
}

/* Open one descriptor: ring -1 binds the rings of the name, else ring pair
 * `ring`; tx selects the TX or RX rings only. */
static int port_open(nm_priv_t *priv, nm_port_t *p, int ring, int tx)
{
	char name[_ODP_PKTIO_NAME_LEN + 48];
	uint64_t flags = tx ? 0 : NETMAP_NO_TX_POLL;

	if (ring >= 0)
		snprintf(name, sizeof(name), "%s-%d/%c", priv->nm_name, ring, tx ? 'T' : 'R');
	else
		snprintf(name, sizeof(name), "%s%s/%c", priv->nm_name, priv->suffix, tx ? 'T' : 'R');
	if (priv->mem_owner)
		flags |= NM_OPEN_NO_MMAP;
	p->d = nm_open(name, NULL, flags, priv->mem_owner);
	if (!p->d) {
		open_error(name, "bind the rings", errno);
		return -1;
	}
	if (!priv->mem_owner)
		priv->mem_owner = p->d;
	p->first = tx ? p->d->first_tx_ring : p->d->first_rx_ring;
	p->last = tx ? p->d->last_tx_ring : p->d->last_rx_ring;
	p->dirty = 0;
	return 0;
}

/* Queue i of num gets rings [i * rings / num, (i + 1) * rings / num). */
static int queues_open(nm_priv_t *priv, nm_queue_t qs[], uint32_t num, uint32_t rings, int tx)
{
	for (uint32_t i = 0; i < num; i++) {
		nm_queue_t *q = &qs[i];
		int single = num == 1 || priv->suffix[0];
		uint32_t first = single ? 0 : i * rings / num;
		uint32_t last = single ? 0 : (i + 1) * rings / num;

		q->num = single ? 1 : last - first;
		q->cur = 0;
		q->port = calloc(q->num, sizeof(*q->port));
		if (!q->port) {
			_ODP_ERR("netmap: out of memory\n");
			return -1;
		}
		for (uint32_t j = 0; j < q->num; j++)
			if (port_open(priv, &q->port[j], single ? -1 : (int)(first + j), tx))
				return -1;
	}
	return 0;
}

static int nm_start(_odp_pktio_entry_t *e)
{
	nm_priv_t *priv = e->priv;

	if (queues_open(priv, priv->rx, e->num_in, priv->rx_rings, 0) ||
	    queues_open(priv, priv->tx, e->num_out, priv->tx_rings, 1)) {
		nm_stop(e);
		return -1;
	}
	return 0;
}

/* The MTU's frame, at most a netmap buffer (frames are one slot long). */
static uint32_t nm_maxlen(_odp_pktio_entry_t *e)
{
	nm_priv_t *priv = e->priv;
	uint32_t len = priv->is_vale ? priv->buf_size : priv->dev.mtu + _ODP_ETH_HDR_LEN;

	return len < priv->buf_size ? len : priv->buf_size;
}

/* Take the packets of one RX ring; stops early when the pool is empty. */
static int ring_recv(_odp_pktio_entry_t *e, int q, struct netmap_ring *ring,
		     odp_packet_t pkts[], int num, int *pool_empty)
{
	nm_priv_t *priv = e->priv;
	int n = 0;

	while (n < num && !nm_ring_empty(ring)) {
		uint32_t cur = ring->cur;
		struct netmap_slot *slot = &ring->slot[cur];
		uint32_t len = slot->len;

		if (odp_unlikely(slot->flags & NS_MOREFRAG)) {
			/* A frame longer than a slot: drop all of its slots. */
			while (!nm_ring_empty(ring) && (ring->slot[ring->cur].flags & NS_MOREFRAG))
				ring->head = ring->cur = nm_ring_next(ring, ring->cur);
			if (!nm_ring_empty(ring))
				ring->head = ring->cur = nm_ring_next(ring, ring->cur);
			_odp_stat_add(&e->in[q].discards, 1);
			continue;
		}
		if (odp_unlikely(len < _ODP_ETH_HDR_LEN || len > priv->data_room ||
				 len > ring->nr_buf_size)) {
			_odp_stat_add(&e->in[q].discards, 1);
		} else {
			odp_packet_t pkt = odp_packet_alloc(e->pool, len);

			if (odp_unlikely(pkt == ODP_PACKET_INVALID)) {
				*pool_empty = 1;   /* keep the slot for the next call */
				break;
			}
			memcpy(odp_packet_data(pkt), NETMAP_BUF(ring, slot->buf_idx), len);
			pkts[n++] = pkt;
		}
		ring->head = ring->cur = nm_ring_next(ring, cur);
	}
	return n;
}

static int nm_recv(_odp_pktio_entry_t *e, int q, odp_packet_t pkts[], int num)
{
	nm_priv_t *priv = e->priv;
	nm_queue_t *nq = &priv->rx[q];
	int pool_empty = 0;
	int n = 0;

	for (uint32_t k = 0; k < nq->num && n < num && !pool_empty; k++) {
		nm_port_t *p = &nq->port[nq->cur];

		/* Give the slots taken last time back, and see what came. */
		if (odp_unlikely(ioctl(p->d->fd, NIOCRXSYNC, NULL) != 0))
			_odp_stat_add(&e->in[q].errors, 1);
		for (uint32_t r = p->first; r <= p->last && n < num && !pool_empty; r++)
			n += ring_recv(e, q, NETMAP_RXRING(p->d->nifp, r), pkts + n, num - n,
				       &pool_empty);
		nq->cur = nq->cur + 1 == nq->num ? 0 : nq->cur + 1;
	}
	return n;
}

/* A TX ring of the queue with a free slot, syncing once when all are full. */
static struct netmap_ring *tx_ring(nm_queue_t *nq, nm_port_t **port, int *synced)
{
	for (;;) {
		for (uint32_t k = 0; k < nq->num; k++) {
			nm_port_t *p = &nq->port[nq->cur];

			for (uint32_t r = p->first; r <= p->last; r++) {
				struct netmap_ring *ring = NETMAP_TXRING(p->d->nifp, r);

				if (!nm_ring_empty(ring)) {
					*port = p;
					return ring;
				}
			}
			nq->cur = nq->cur + 1 == nq->num ? 0 : nq->cur + 1;
		}
		if (*synced)
			return NULL;
		/* All full: let the kernel take what it has sent. */
		for (uint32_t k = 0; k < nq->num; k++) {
			(void)ioctl(nq->port[k].d->fd, NIOCTXSYNC, NULL);
			nq->port[k].dirty = 0;
		}
		*synced = 1;
	}
}

static int nm_send(_odp_pktio_entry_t *e, int q, const odp_packet_t pkts[], int num)
{
	nm_priv_t *priv = e->priv;
	nm_queue_t *nq = &priv->tx[q];
	uint32_t maxlen = nm_maxlen(e);
	uint64_t octets = 0;
	int queued = 0;
	int synced = 0;
	int n;

	for (n = 0; n < num; n++) {
		uint32_t len = odp_packet_len(pkts[n]);
		struct netmap_ring *ring;
		struct netmap_slot *slot;
		nm_port_t *p;

		if (odp_unlikely(len < _ODP_ETH_HDR_LEN || len > maxlen)) {
			_odp_stat_add(&e->out[q].discards, 1);
			continue;
		}
		ring = tx_ring(nq, &p, &synced);
		if (odp_unlikely(!ring))
			break;
		slot = &ring->slot[ring->cur];
		memcpy(NETMAP_BUF(ring, slot->buf_idx), odp_packet_data(pkts[n]), len);
		slot->len = (uint16_t)len;
		slot->flags = 0;
		ring->head = ring->cur = nm_ring_next(ring, ring->cur);
		p->dirty = 1;
		octets += len;
		queued++;
	}
	for (uint32_t k = 0; k < nq->num; k++) {
		if (nq->port[k].dirty) {
			if (odp_unlikely(ioctl(nq->port[k].d->fd, NIOCTXSYNC, NULL) != 0))
				_odp_stat_add(&e->out[q].errors, 1);
			nq->port[k].dirty = 0;
		}
	}
	odp_packet_free_multi(pkts, n);
	_odp_pktio_tx_count(e, q, (uint64_t)queued, octets);
	return n;
}

static void nm_wait(_odp_pktio_entry_t *e, int q, uint64_t ns)
{
	nm_priv_t *priv = e->priv;
	nm_queue_t *nq = &priv->rx[q];
	int fd[ODP_PKTIN_MAX_QUEUES];
	uint32_t num = 0;

	for (; num < nq->num && num < ODP_PKTIN_MAX_QUEUES; num++)
		fd[num] = nq->port[num].d->fd;
	_odp_netdev_wait(fd, num, ns);
}

static int nm_promisc_set(_odp_pktio_entry_t *e, int enable)
{
	nm_priv_t *priv = e->priv;

	if (priv->is_vale)
		return enable ? 0 : -ENOTSUP;
	if (priv->dev.promisc == enable)
		return 0;
	return set_promisc(priv, enable);
}

static odp_pktio_link_status_t nm_link_status(_odp_pktio_entry_t *e)
{
	if (((nm_priv_t *)e->priv)->is_vale)
		return ODP_PKTIO_LINK_STATUS_UP;
	return _odp_netdev_link_status(e);
}

const _odp_pktio_ops_t _odp_pktio_netmap_ops = {
	.name = "netmap",
	.match = nm_match,
	.max_in_queues = ODP_PKTIN_MAX_QUEUES,
	.max_out_queues = ODP_PKTOUT_MAX_QUEUES,
	.queues = nm_queues,
	.open = nm_open_pktio,
	.close = nm_close_pktio,
	.start = nm_start,
	.stop = nm_stop,
	.recv = nm_recv,
	.send = nm_send,
	.wait = nm_wait,
	.mac_addr = _odp_netdev_mac_addr,
	.maxlen = nm_maxlen,
	.promisc_set = nm_promisc_set,
	.link_status = nm_link_status,
};
