/* Helpers of the test programs that drive a Linux interface (socket_mmap,
 * AF_XDP); they define _GNU_SOURCE for the interface flags. */
#ifndef ODP_TEST_IF_H
#define ODP_TEST_IF_H

#include <net/if.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "odp_test.h"

/*
 * Is the interface promiscuous? From the device flags as the kernel keeps
 * them (/sys/class/net/IF/flags): unlike SIOCGIFFLAGS they show promiscuous
 * mode entered by packet sockets.
 */
static inline int test_if_promisc(const char *ifname)
{
	char path[128];
	unsigned int flags = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/class/net/%s/flags", ifname);
	f = fopen(path, "r");
	CHECK(f != NULL);
	CHECK(fscanf(f, "%x", &flags) == 1);
	fclose(f);
	return (flags & IFF_PROMISC) != 0;
}

/* A pktio just opened on an up veth interface with MTU 1500: promiscuous,
 * the interface's MAC address, maxlen and link status. */
static inline void test_check_if(odp_pktio_t pktio, const char *ifname)
{
	struct ifreq ifr;
	uint8_t mac[6];
	int fd = socket(AF_INET, SOCK_DGRAM, 0);

	CHECK(test_if_promisc(ifname));
	CHECK(odp_pktio_promisc_mode(pktio) == 1);
	CHECK(fd >= 0);
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	CHECK(ioctl(fd, SIOCGIFHWADDR, &ifr) == 0);
	close(fd);
	CHECK(odp_pktio_mac_addr(pktio, mac, sizeof(mac)) == 6);
	CHECK(memcmp(mac, ifr.ifr_hwaddr.sa_data, 6) == 0);
	CHECK(odp_pktin_maxlen(pktio) == 1514 && odp_pktout_maxlen(pktio) == 1514);
	CHECK(odp_pktio_link_status(pktio) == ODP_PKTIO_LINK_STATUS_UP);
}

/* Close the stopped pktios of two interfaces: neither is promiscuous then. */
static inline void test_close_if(odp_pktio_t a, const char *if_a, odp_pktio_t b, const char *if_b)
{
	CHECK(odp_pktio_close(a) == 0);
	CHECK(odp_pktio_close(b) == 0);
	CHECK(!test_if_promisc(if_a));
	CHECK(!test_if_promisc(if_b));
}

#endif
