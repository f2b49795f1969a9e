/* Bundled ODP: the Linux interface calls of the packet I/O kinds that drive
 * an interface (socket_mmap, xdp, netmap): index, MAC address, MTU, flags,
 * promiscuous mode, link status, waiting for input. */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "odp_internal.h"

_Static_assert(_ODP_IFNAMSIZ == IFNAMSIZ, "_ODP_IFNAMSIZ is IFNAMSIZ");

static _odp_netdev_t *netdev(_odp_pktio_entry_t *e)
{
	return e->priv;
}

static void ifreq_init(struct ifreq *ifr, const _odp_netdev_t *dev)
{
	memset(ifr, 0, sizeof(*ifr));
	snprintf(ifr->ifr_name, sizeof(ifr->ifr_name), "%s", dev->ifname);
}

int _odp_netdev_open(_odp_pktio_entry_t *e, const char *ifname, int packet_socket)
{
	_odp_netdev_t *dev = netdev(e);
	const char *kind = e->ops->name;
	struct ifreq ifr;

	snprintf(dev->ifname, sizeof(dev->ifname), "%s", ifname);
	dev->ifindex = (int)if_nametoindex(ifname);
	if (dev->ifindex == 0) {
		_ODP_ERR("%s: no network interface '%s'\n", kind, ifname);
		return -ENODEV;
	}
	dev->fd = packet_socket ? socket(AF_PACKET, SOCK_RAW, 0) : socket(AF_INET, SOCK_DGRAM, 0);
	if (dev->fd < 0) {
		_ODP_ERR("%s: %s: cannot open a %s socket: %s%s\n", kind, ifname,
			 packet_socket ? "packet" : "control", strerror(errno),
			 errno == EPERM ? " (needs CAP_NET_RAW)" : "");
		return -errno;
	}
	ifreq_init(&ifr, dev);
	if (ioctl(dev->fd, SIOCGIFHWADDR, &ifr) != 0) {
		_ODP_ERR("%s: %s: cannot read MAC address: %s\n", kind, ifname, strerror(errno));
		return -errno;
	}
	memcpy(dev->mac, ifr.ifr_hwaddr.sa_data, 6);
	if (ioctl(dev->fd, SIOCGIFMTU, &ifr) != 0) {
		_ODP_ERR("%s: %s: cannot read MTU: %s\n", kind, ifname, strerror(errno));
		return -errno;
	}
	dev->mtu = (uint32_t)ifr.ifr_mtu;
	return 0;
}

uint32_t _odp_netdev_data_room(_odp_pktio_entry_t *e)
{
	_odp_netdev_t *dev = netdev(e);
	uint32_t room = e->pool != ODP_POOL_INVALID ? _odp_pool_data_room(e->pool) : 0;
	uint32_t frame_max = dev->mtu + _ODP_ETH_HDR_LEN + _ODP_VLAN_HDR_LEN;

	if (room && room < frame_max)
		_ODP_WARN("%s: %s: pool packets (%u bytes) are shorter than the largest frame "
			  "(%u bytes); longer frames are dropped\n", e->ops->name, dev->ifname,
			  room, frame_max);
	return room;
}

int _odp_netdev_flags(const _odp_netdev_t *dev, short *flags)
{
	struct ifreq ifr;

	ifreq_init(&ifr, dev);
	if (ioctl(dev->fd, SIOCGIFFLAGS, &ifr) != 0)
		return -errno;
	*flags = ifr.ifr_flags;
	return 0;
}

int _odp_netdev_set_flags(const _odp_netdev_t *dev, short flags)
{
	struct ifreq ifr;

	ifreq_init(&ifr, dev);
	ifr.ifr_flags = flags;
	return ioctl(dev->fd, SIOCSIFFLAGS, &ifr) != 0 ? -errno : 0;
}

int _odp_netdev_promisc_set(_odp_pktio_entry_t *e, int enable)
{
	_odp_netdev_t *dev = netdev(e);
	struct packet_mreq mr;

	if (dev->promisc == enable)
		return 0;
	memset(&mr, 0, sizeof(mr));
	mr.mr_ifindex = dev->ifindex;
	mr.mr_type = PACKET_MR_PROMISC;
	if (setsockopt(dev->fd, SOL_PACKET,
		       enable ? PACKET_ADD_MEMBERSHIP : PACKET_DROP_MEMBERSHIP,
		       &mr, sizeof(mr)) != 0) {
		_ODP_ERR("%s: %s: cannot %s promiscuous mode: %s\n", e->ops->name, dev->ifname,
			 enable ? "enter" : "leave", strerror(errno));
		return -errno;
	}
	dev->promisc = enable;
	return 0;
}

int _odp_netdev_close(_odp_pktio_entry_t *e)
{
	_odp_netdev_t *dev = netdev(e);

	if (!dev)
		return 0;
	/* Closing the socket also drops a promiscuous membership. */
	if (dev->fd >= 0)
		close(dev->fd);
	free(dev);
	e->priv = NULL;
	return 0;
}

int _odp_netdev_mac_addr(_odp_pktio_entry_t *e, uint8_t mac[6])
{
	memcpy(mac, netdev(e)->mac, 6);
	return 0;
}

odp_pktio_link_status_t _odp_netdev_link_status(_odp_pktio_entry_t *e)
{
	short flags;

	if (_odp_netdev_flags(netdev(e), &flags) != 0)
		return ODP_PKTIO_LINK_STATUS_UNKNOWN;
	return (flags & IFF_RUNNING) ? ODP_PKTIO_LINK_STATUS_UP : ODP_PKTIO_LINK_STATUS_DOWN;
}

void _odp_netdev_wait(const int fd[], uint32_t num, uint64_t ns)
{
	struct pollfd pfd[ODP_PKTIN_MAX_QUEUES];
	struct timespec ts = {
		.tv_sec = (time_t)(ns / ODP_TIME_SEC_IN_NS),
		.tv_nsec = (long)(ns % ODP_TIME_SEC_IN_NS),
	};

	if (num > ODP_PKTIN_MAX_QUEUES)
		num = ODP_PKTIN_MAX_QUEUES;
	for (uint32_t i = 0; i < num; i++)
		pfd[i] = (struct pollfd){ .fd = fd[i], .events = POLLIN };
	(void)ppoll(pfd, num, &ts, NULL);
}
