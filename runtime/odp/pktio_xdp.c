/* Bundled ODP: Linux network interfaces through AF_XDP sockets (libxdp).
 *
 * Names are xdp:IFNAME. Each device queue i has an AF_XDP socket bound to
 * it, with a UMEM of its own: the first frames of the UMEM cycle through the
 * fill and RX rings, the others through the TX and completion rings, so the
 * input and the output of a queue never share state. Output queue i sends
 * through the socket of device queue i. With input, every device queue has
 * a socket (the XDP program passes the frames of a queue without one to the
 * kernel, not to us) and input queue i polls those of device queues i,
 * i + num_in, i + 2 * num_in ..., so fewer input queues than the device has
 * still get all frames. libxdp attaches its default XDP program (which redirects the
 * queues that have a socket) when the first socket is made, in native mode
 * when the driver has it and else in generic (SKB) mode, and detaches it
 * when the last socket goes. Sockets exist between odp_pktio_start() and
 * odp_pktio_stop().
 *
 * Packets are copied: received frames into packets of the pktio's pool,
 * sent packets into UMEM frames (the pool is not the UMEM). The interface
 * is promiscuous from open to close, as with socket_mmap. Needs root
 * (CAP_NET_ADMIN, CAP_NET_RAW, CAP_BPF or CAP_SYS_ADMIN, and CAP_IPC_LOCK or
 * enough RLIMIT_MEMLOCK for the UMEM).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/ethtool.h>
#include <linux/if_link.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <xdp/libxdp.h>
#include <xdp/xsk.h>

#include "odp_internal.h"

#define PREFIX            "xdp:"
#define PREFIX_LEN        (sizeof(PREFIX) - 1)
#define RX_DEFAULT_QSIZE  1024
#define TX_DEFAULT_QSIZE  1024
#define MIN_QSIZE         64
#define MAX_QSIZE         (64 * 1024)
/* Frames sent by one sendto() in copy mode (the kernel's TX_BATCH_SIZE). */
#define KERNEL_TX_BATCH   32
#define BUSY_WAIT_MS      500
#define BUSY_WAIT_STEP_MS 10

/* Kernel counters of a socket (XDP_STATISTICS), as pktio counters. */
typedef struct {
	uint64_t in_discards;
	uint64_t in_errors;
	uint64_t out_errors;
} kstats_t;

typedef struct ODP_ALIGNED_CACHE {
	struct xsk_socket *xsk;
	struct xsk_umem *umem;
	struct xsk_ring_cons rx;
	struct xsk_ring_prod fill;
	struct xsk_ring_prod tx;
	struct xsk_ring_cons comp;
	uint8_t *area;               /* the UMEM */
	size_t area_len;
	int fd;
	int has_rx;
	int has_tx;
	uint32_t rx_frames;          /* frames 0 .. rx_frames-1 are for input */
	uint32_t tx_frames;          /* the next tx_frames are for output */
	uint32_t tx_free_num;
	uint64_t *tx_free;           /* UMEM addresses of free output frames */
	kstats_t base;               /* kernel counters at the last reset */
} xsk_queue_t;

typedef struct {
	_odp_netdev_t dev;           /* first: fd holds the promiscuous membership */
	uint32_t data_room;          /* largest packet of the pool */
	uint32_t frame_size;
	uint32_t max_queues;         /* device queues a socket can bind to */
	uint32_t xdp_flags;          /* XDP mode that worked, 0: not known yet */
	uint32_t num_xsk;
	uint32_t rx_next[ODP_PKTIN_MAX_QUEUES]; /* input queue: socket to poll first */
	kstats_t folded;             /* counters of sockets gone since the reset */
	xsk_queue_t q[ODP_PKTIN_MAX_QUEUES];
} xdp_priv_t;

static int xdp_match(const char *devname)
{
	return strncmp(devname, PREFIX, PREFIX_LEN) == 0;
}

/* The last message of libxdp or libbpf, shown when setting up a socket fails
 * (they also warn about what they recover from, e.g. no bpffs in a netns). */
static char lib_msg[256];

static int xdp_libxdp_print(enum libxdp_print_level level, const char *fmt, va_list args)
{
	if (level != LIBXDP_DEBUG)
		vsnprintf(lib_msg, sizeof(lib_msg), fmt, args);
	return 0;
}

static int xdp_libbpf_print(enum libbpf_print_level level, const char *fmt, va_list args)
{
	if (level == LIBBPF_WARN)
		vsnprintf(lib_msg, sizeof(lib_msg), fmt, args);
	return 0;
}

static uint32_t pow2_at_least(uint32_t x)
{
	uint32_t p = MIN_QSIZE;

	while (p < x && p < MAX_QSIZE)
		p <<= 1;
	return p;
}

/* Queues both directions of a socket can bind to (AF_XDP binds to one id
 * for RX and TX); 1 when the driver does not say. */
static uint32_t device_queues(xdp_priv_t *priv)
{
	struct ethtool_channels ch = { .cmd = ETHTOOL_GCHANNELS };
	struct ifreq ifr;
	uint32_t rx;
	uint32_t tx;

	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", priv->dev.ifname);
	ifr.ifr_data = (void *)&ch;
	if (ioctl(priv->dev.fd, SIOCETHTOOL, &ifr) != 0)
		return 1;
	rx = ch.combined_count + ch.rx_count;
	tx = ch.combined_count + ch.tx_count;
	rx = rx < tx ? rx : tx;
	if (rx == 0)
		return 1;
	return rx < ODP_PKTIN_MAX_QUEUES ? rx : ODP_PKTIN_MAX_QUEUES;
}

static int xdp_open(_odp_pktio_entry_t *e, const char *devname)
{
	const char *ifname = devname + PREFIX_LEN;
	xdp_priv_t *priv;
	uint32_t frame_max;

	if (ifname[0] == '\0' || strlen(ifname) >= IFNAMSIZ) {
		_ODP_ERR("xdp: '%s': expected xdp:IFNAME\n", devname);
		return -EINVAL;
	}
	priv = calloc(1, sizeof(*priv));
	if (!priv) {
		_ODP_ERR("xdp: out of memory\n");
		return -ENOMEM;
	}
	e->priv = priv;
	priv->dev.fd = -1;
	if (_odp_netdev_open(e, ifname, 1))
		goto fail;
	/* Received frames start XDP_PACKET_HEADROOM into their UMEM frame. */
	frame_max = priv->dev.mtu + _ODP_ETH_HDR_LEN + _ODP_VLAN_HDR_LEN + XDP_PACKET_HEADROOM;
	priv->frame_size = frame_max <= 2048 ? 2048 : 4096;
	if (frame_max > priv->frame_size)
		_ODP_WARN("xdp: %s: MTU %u is larger than AF_XDP frames take; frames longer "
			  "than %u bytes are dropped\n", ifname, priv->dev.mtu,
			  priv->frame_size - XDP_PACKET_HEADROOM);
	priv->data_room = _odp_netdev_data_room(e);
	priv->max_queues = device_queues(priv);
	if (_odp_netdev_promisc_set(e, 1))
		goto fail;
	e->promisc = 1;
	libxdp_set_print(xdp_libxdp_print);
	libbpf_set_print(xdp_libbpf_print);
	return 0;
fail:
	_odp_netdev_close(e);
	return -1;
}

static void xdp_queues(_odp_pktio_entry_t *e, uint32_t *max_in, uint32_t *max_out)
{
	xdp_priv_t *priv = e->priv;

	if (*max_in > priv->max_queues)
		*max_in = priv->max_queues;
	if (*max_out > priv->max_queues)
		*max_out = priv->max_queues;
}

static int kstats_read(const xsk_queue_t *x, kstats_t *k)
{
	struct xdp_statistics st;
	socklen_t len = sizeof(st);

	memset(k, 0, sizeof(*k));
	if (!x->xsk)
		return -EBADF;
	if (getsockopt(x->fd, SOL_XDP, XDP_STATISTICS, &st, &len) != 0)
		return -errno;
	k->in_discards = st.rx_dropped + st.rx_ring_full;
	k->in_errors = st.rx_invalid_descs;
	k->out_errors = st.tx_invalid_descs;
	return 0;
}

/* Add the socket's counters since the last reset to *sum. */
static void kstats_add(const xsk_queue_t *x, kstats_t *sum)
{
	kstats_t k;

	if (kstats_read(x, &k))
		return;
	sum->in_discards += k.in_discards - x->base.in_discards;
	sum->in_errors += k.in_errors - x->base.in_errors;
	sum->out_errors += k.out_errors - x->base.out_errors;
}

static void xsk_destroy(xdp_priv_t *priv, xsk_queue_t *x)
{
	kstats_add(x, &priv->folded);
	if (x->xsk)
		xsk_socket__delete(x->xsk);
	if (x->umem)
		xsk_umem__delete(x->umem);
	if (x->area)
		munmap(x->area, x->area_len);
	free(x->tx_free);
	memset(x, 0, sizeof(*x));
	x->fd = -1;
}

/* Socket for device queue qid with UMEM and rings, in the given XDP mode. */
static int xsk_create(_odp_pktio_entry_t *e, uint32_t qid, uint32_t xdp_flags)
{
	xdp_priv_t *priv = e->priv;
	xsk_queue_t *x = &priv->q[qid];
	struct xsk_umem_config ucfg;
	struct xsk_socket_config scfg;
	/* Device queue qid feeds input queue qid % num_in. */
	uint32_t in_q = e->num_in ? qid % e->num_in : 0;
	uint32_t rx_q = e->num_in && e->in_param.queue_size[in_q] ?
		e->in_param.queue_size[in_q] : RX_DEFAULT_QSIZE;
	uint32_t tx_q = qid < e->num_out && e->out_param.queue_size[qid] ?
		e->out_param.queue_size[qid] : TX_DEFAULT_QSIZE;
	uint32_t idx;
	int ret;

	memset(x, 0, sizeof(*x));
	x->fd = -1;
	x->has_rx = e->num_in > 0;
	x->has_tx = qid < e->num_out;
	x->rx_frames = x->has_rx ? pow2_at_least(rx_q) : 0;
	x->tx_frames = x->has_tx ? pow2_at_least(tx_q) : 0;
	x->area_len = (size_t)(x->rx_frames + x->tx_frames) * priv->frame_size;
	x->area = mmap(NULL, x->area_len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (x->area == MAP_FAILED) {
		x->area = NULL;
		ret = -errno;
		goto fail;
	}
	x->tx_free = calloc(x->tx_frames ? x->tx_frames : 1, sizeof(*x->tx_free));
	if (!x->tx_free) {
		ret = -ENOMEM;
		goto fail;
	}
	for (uint32_t i = 0; i < x->tx_frames; i++)
		x->tx_free[i] = (uint64_t)(x->rx_frames + i) * priv->frame_size;
	x->tx_free_num = x->tx_frames;

	/*
	 * The kernel reports what it took from the fill and TX rings only when
	 * it has used up what it saw, so those rings may look full while we
	 * hold frames to put in. Twice the frames' count is always enough.
	 */
	memset(&ucfg, 0, sizeof(ucfg));
	ucfg.fill_size = x->rx_frames ? 2 * x->rx_frames : MIN_QSIZE;
	ucfg.comp_size = x->tx_frames ? x->tx_frames : MIN_QSIZE;
	ucfg.frame_size = priv->frame_size;
	ucfg.frame_headroom = 0;
	ret = xsk_umem__create(&x->umem, x->area, x->area_len, &x->fill, &x->comp, &ucfg);
	if (ret) {
		x->umem = NULL;
		goto fail;
	}
	memset(&scfg, 0, sizeof(scfg));
	scfg.rx_size = x->rx_frames;
	scfg.tx_size = 2 * x->tx_frames;
	scfg.xdp_flags = xdp_flags;
	scfg.bind_flags = XDP_USE_NEED_WAKEUP;
	ret = xsk_socket__create(&x->xsk, priv->dev.ifname, qid, x->umem,
				 x->has_rx ? &x->rx : NULL, x->has_tx ? &x->tx : NULL, &scfg);
	if (ret) {
		x->xsk = NULL;
		goto fail;
	}
	x->fd = xsk_socket__fd(x->xsk);
	if (x->rx_frames) {
		if (xsk_ring_prod__reserve(&x->fill, x->rx_frames, &idx) != x->rx_frames) {
			ret = -ENOSPC;
			goto fail;
		}
		for (uint32_t i = 0; i < x->rx_frames; i++)
			*xsk_ring_prod__fill_addr(&x->fill, idx + i) =
				(uint64_t)i * priv->frame_size;
		xsk_ring_prod__submit(&x->fill, x->rx_frames);
	}
	return 0;
fail:
	xsk_destroy(priv, x);
	return ret < 0 ? ret : -EINVAL;
}

static int xdp_stop(_odp_pktio_entry_t *e)
{
	xdp_priv_t *priv = e->priv;

	/* libxdp detaches its program with the interface's last socket. */
	while (priv->num_xsk > 0)
		xsk_destroy(priv, &priv->q[--priv->num_xsk]);
	return 0;
}

/* A socket just closed keeps its queue busy for a moment (the kernel frees
 * it from a work queue), so a restart waits for it. */
static int xsk_create_wait(_odp_pktio_entry_t *e, uint32_t qid, uint32_t xdp_flags)
{
	struct timespec ts = { 0, BUSY_WAIT_STEP_MS * 1000000L };
	int ret = xsk_create(e, qid, xdp_flags);

	for (int i = 0; ret == -EBUSY && i < BUSY_WAIT_MS / BUSY_WAIT_STEP_MS; i++) {
		nanosleep(&ts, NULL);
		ret = xsk_create(e, qid, xdp_flags);
	}
	return ret;
}

static int xdp_start(_odp_pktio_entry_t *e)
{
	xdp_priv_t *priv = e->priv;
	/* With input, a socket on every device queue (see the top); xdp_queues()
	 * keeps num_in and num_out within max_queues. */
	uint32_t num = e->num_in ? priv->max_queues : e->num_out;
	int ret = 0;

	lib_msg[0] = '\0';
	priv->num_xsk = 0;
	for (uint32_t i = 0; i < ODP_PKTIN_MAX_QUEUES; i++)
		priv->rx_next[i] = i;
	if (priv->xdp_flags == 0) {
		/* Native mode when the driver has it, else generic (SKB) mode. */
		ret = xsk_create_wait(e, 0, XDP_FLAGS_DRV_MODE);
		if (ret == 0) {
			priv->xdp_flags = XDP_FLAGS_DRV_MODE;
		} else {
			lib_msg[0] = '\0';
			ret = xsk_create_wait(e, 0, XDP_FLAGS_SKB_MODE);
			if (ret == 0)
				priv->xdp_flags = XDP_FLAGS_SKB_MODE;
		}
		if (ret == 0)
			priv->num_xsk = 1;
	}
	while (ret == 0 && priv->num_xsk < num) {
		ret = xsk_create_wait(e, priv->num_xsk, priv->xdp_flags);
		if (ret == 0)
			priv->num_xsk++;
	}
	if (ret) {
		size_t len = strlen(lib_msg);

		if (len && lib_msg[len - 1] == '\n')
			lib_msg[len - 1] = '\0';
		_ODP_ERR("xdp: %s: cannot set up an AF_XDP socket on queue %u: %s%s%s%s%s\n",
			 priv->dev.ifname, priv->num_xsk, strerror(-ret),
			 ret == -EPERM ? " (needs CAP_NET_ADMIN)" : "",
			 lib_msg[0] ? " (" : "", lib_msg, lib_msg[0] ? ")" : "");
		xdp_stop(e);
		return ret;
	}
	return 0;
}

/* Receive from the socket of one device queue for input queue q. */
static int xsk_recv(_odp_pktio_entry_t *e, int q, xsk_queue_t *x, odp_packet_t pkts[], int num)
{
	xdp_priv_t *priv = e->priv;
	uint64_t frame_mask = ~(uint64_t)(priv->frame_size - 1);
	uint32_t idx_rx = 0;
	uint32_t idx_fill = 0;
	uint32_t got;
	uint32_t done;
	int n = 0;

	got = xsk_ring_cons__peek(&x->rx, (uint32_t)num, &idx_rx);
	if (got == 0) {
		/* Zero-copy drivers may wait to be told that fill frames are there. */
		if (xsk_ring_prod__needs_wakeup(&x->fill))
			(void)recvfrom(x->fd, NULL, 0, MSG_DONTWAIT, NULL, NULL);
		return 0;
	}
	for (done = 0; done < got; done++) {
		const struct xdp_desc *d = xsk_ring_cons__rx_desc(&x->rx, idx_rx + done);
		odp_packet_t pkt;

		if (odp_unlikely(d->len < _ODP_ETH_HDR_LEN || d->len > priv->data_room)) {
			_odp_stat_add(&e->in[q].discards, 1);
			continue;
		}
		pkt = odp_packet_alloc(e->pool, d->len);
		if (odp_unlikely(pkt == ODP_PACKET_INVALID))
			break;   /* pool empty: keep the frames for the next call */
		memcpy(odp_packet_data(pkt), xsk_umem__get_data(x->area, d->addr), d->len);
		pkts[n++] = pkt;
	}
	if (done < got)
		xsk_ring_cons__cancel(&x->rx, got - done);
	if (done == 0)
		return 0;
	/* Cannot fail: the fill ring has room for twice the input frames. */
	xsk_ring_prod__reserve(&x->fill, done, &idx_fill);
	for (uint32_t i = 0; i < done; i++)
		*xsk_ring_prod__fill_addr(&x->fill, idx_fill + i) =
			xsk_ring_cons__rx_desc(&x->rx, idx_rx + i)->addr & frame_mask;
	xsk_ring_prod__submit(&x->fill, done);
	xsk_ring_cons__release(&x->rx, done);
	return n;
}

/* Input queue q: the sockets of device queues q, q + num_in, ..., starting
 * after the one that came first last time, so that none starves. */
static int xdp_recv(_odp_pktio_entry_t *e, int q, odp_packet_t pkts[], int num)
{
	xdp_priv_t *priv = e->priv;
	uint32_t first = priv->rx_next[q];
	uint32_t qid = first;
	int n = 0;

	do {
		n += xsk_recv(e, q, &priv->q[qid], pkts + n, num - n);
		qid += e->num_in;
		if (qid >= priv->num_xsk)
			qid = (uint32_t)q;
	} while (n < num && qid != first);
	priv->rx_next[q] = qid;
	return n;
}

/* Take back the output frames the kernel has sent. */
static void tx_reclaim(xsk_queue_t *x)
{
	uint32_t idx = 0;
	uint32_t n = xsk_ring_cons__peek(&x->comp, x->tx_frames, &idx);

	for (uint32_t i = 0; i < n; i++)
		x->tx_free[x->tx_free_num++] = *xsk_ring_cons__comp_addr(&x->comp, idx + i);
	if (n)
		xsk_ring_cons__release(&x->comp, n);
}

static void tx_kick(_odp_pktio_entry_t *e, int q, xsk_queue_t *x)
{
	/* Copy mode sends KERNEL_TX_BATCH frames a call, then says EAGAIN. */
	for (uint32_t i = 0; i <= 2 * x->tx_frames / KERNEL_TX_BATCH; i++) {
		if (!xsk_ring_prod__needs_wakeup(&x->tx) ||
		    sendto(x->fd, NULL, 0, MSG_DONTWAIT, NULL, 0) >= 0)
			return;
		if (errno == EAGAIN || errno == EINTR)
			continue;
		if (errno != EBUSY && errno != ENOBUFS && errno != ENETDOWN)
			_odp_stat_add(&e->out[q].errors, 1);
		return;
	}
}

static int xdp_send(_odp_pktio_entry_t *e, int q, const odp_packet_t pkts[], int num)
{
	xdp_priv_t *priv = e->priv;
	xsk_queue_t *x = &priv->q[q];
	uint32_t max_len = priv->frame_size;
	uint64_t octets = 0;
	uint32_t queued = 0;
	int n;

	tx_reclaim(x);
	if (x->tx_free_num < (uint32_t)num) {
		tx_kick(e, q, x);
		tx_reclaim(x);
	}
	for (n = 0; n < num; n++) {
		const uint8_t *data = odp_packet_data(pkts[n]);
		uint32_t len = odp_packet_len(pkts[n]);
		struct xdp_desc *d;
		uint32_t idx;

		if (odp_unlikely(len > max_len || !_odp_netdev_frame_fits(&priv->dev, data, len))) {
			_odp_stat_add(&e->out[q].discards, 1);
			continue;
		}
		if (x->tx_free_num == 0 || xsk_ring_prod__reserve(&x->tx, 1, &idx) != 1)
			break;
		d = xsk_ring_prod__tx_desc(&x->tx, idx);
		d->addr = x->tx_free[--x->tx_free_num];
		d->len = len;
		d->options = 0;
		memcpy(xsk_umem__get_data(x->area, d->addr), data, len);
		octets += len;
		queued++;
	}
	if (queued) {
		xsk_ring_prod__submit(&x->tx, queued);
		tx_kick(e, q, x);
	}
	odp_packet_free_multi(pkts, n);
	_odp_pktio_tx_count(e, q, queued, octets);
	return n;
}

static void xdp_wait(_odp_pktio_entry_t *e, int q, uint64_t ns)
{
	xdp_priv_t *priv = e->priv;
	int fd[ODP_PKTIN_MAX_QUEUES];
	uint32_t num = 0;

	for (uint32_t qid = (uint32_t)q; qid < priv->num_xsk; qid += e->num_in)
		fd[num++] = priv->q[qid].fd;
	_odp_netdev_wait(fd, num, ns);
}

static uint32_t xdp_maxlen(_odp_pktio_entry_t *e)
{
	xdp_priv_t *priv = e->priv;
	uint32_t frame_len = priv->frame_size - XDP_PACKET_HEADROOM;

	return priv->dev.mtu + _ODP_ETH_HDR_LEN < frame_len ? priv->dev.mtu + _ODP_ETH_HDR_LEN : frame_len;
}

static void xdp_stats(_odp_pktio_entry_t *e, odp_pktio_stats_t *stats)
{
	xdp_priv_t *priv = e->priv;
	kstats_t sum = priv->folded;

	for (uint32_t i = 0; i < priv->num_xsk; i++)
		kstats_add(&priv->q[i], &sum);
	stats->in_discards += sum.in_discards;
	stats->in_errors += sum.in_errors;
	stats->out_errors += sum.out_errors;
}

static void xdp_stats_reset(_odp_pktio_entry_t *e)
{
	xdp_priv_t *priv = e->priv;

	memset(&priv->folded, 0, sizeof(priv->folded));
	for (uint32_t i = 0; i < priv->num_xsk; i++)
		kstats_read(&priv->q[i], &priv->q[i].base);
}

const _odp_pktio_ops_t _odp_pktio_xdp_ops = {
	.name = "xdp",
	.match = xdp_match,
	.max_in_queues = ODP_PKTIN_MAX_QUEUES,
	.max_out_queues = ODP_PKTOUT_MAX_QUEUES,
	.queues = xdp_queues,
	.open = xdp_open,
	.close = _odp_netdev_close,
	.start = xdp_start,
	.stop = xdp_stop,
	.recv = xdp_recv,
	.send = xdp_send,
	.wait = xdp_wait,
	.mac_addr = _odp_netdev_mac_addr,
	.maxlen = xdp_maxlen,
	.promisc_set = _odp_netdev_promisc_set,
	.stats = xdp_stats,
	.stats_reset = xdp_stats_reset,
	.link_status = _odp_netdev_link_status,
};
