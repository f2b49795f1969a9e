/*
 * The control channel: simple_switch_CLI command lines over a unix or TCP
 * socket, served by the switch's main thread while the workers forward.
 *
 * Protocol, version 1, all text:
 *   on connect, the switch sends  "p4odp-control 1 PROGRAM\n"
 *   the client sends a command    one line, at most P4ODP_CONTROL_LINE bytes
 *   the switch answers            "ok N\n" and the N bytes the command printed,
 *                                 or "error N\n" and an N-byte message
 * then the next line.  A line too long or holding a NUL byte, or a command
 * that fails, is answered with an error and changes nothing; the connection
 * stays open.  Clients are served one line at a time, in turn: a command
 * sees the effect of every command answered before it.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/un.h>
#include <unistd.h>

#include "switch.h"

#define PROTOCOL_VERSION 1
#define SEND_TIMEOUT_S 2	/* a client that reads nothing for this long is dropped */

static void set_error(char *err, size_t err_len, const char *what, const char *addr)
{
	snprintf(err, err_len, "--control %s: %s: %s", addr, what, strerror(errno));
}

/* A unix socket at `path`; one left by a switch that is gone is replaced, one a
 * live switch serves is an error. */
static int listen_unix(struct p4odp_channel *ch, const char *path, const char *addr, char *err, size_t err_len)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	if (strlen(path) >= sizeof sa.sun_path) {
		snprintf(err, err_len, "--control %s: the path is longer than %zu bytes", addr, sizeof sa.sun_path - 1);
		return -1;
	}
	strcpy(sa.sun_path, path);
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		set_error(err, err_len, "socket", addr);
		return -1;
	}
	if (connect(fd, (struct sockaddr *)&sa, sizeof sa) == 0) {
		snprintf(err, err_len, "--control %s: another switch serves it", addr);
		close(fd);
		return -1;
	}
	if (errno == ECONNREFUSED)
		unlink(path);
	close(fd);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof sa) || listen(fd, 8)) {
		set_error(err, err_len, fd < 0 ? "socket" : "bind", addr);
		if (fd >= 0)
			close(fd);
		return -1;
	}
	ch->listen_fd = fd;
	snprintf(ch->unix_path, sizeof ch->unix_path, "%s", path);
	return 0;
}

static int listen_tcp(struct p4odp_channel *ch, const char *host_port, const char *addr, char *err, size_t err_len)
{
	char host[64];
	const char *colon = strrchr(host_port, ':');
	char *end;
	unsigned long port = colon ? strtoul(colon + 1, &end, 10) : 0;
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };

	if (!colon || colon == host_port || (size_t)(colon - host_port) >= sizeof host || !colon[1] || *end ||
	    port == 0 || port > 65535) {
		snprintf(err, err_len, "--control %s: expected tcp:HOST:PORT", addr);
		return -1;
	}
	memcpy(host, host_port, (size_t)(colon - host_port));
	host[colon - host_port] = '\0';
	if (inet_pton(AF_INET, host, &sa.sin_addr) != 1) {
		snprintf(err, err_len, "--control %s: %s is not an IPv4 address", addr, host);
		return -1;
	}
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0), one = 1;
	if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) ||
	    bind(fd, (struct sockaddr *)&sa, sizeof sa) || listen(fd, 8)) {
		set_error(err, err_len, fd < 0 ? "socket" : "bind", addr);
		if (fd >= 0)
			close(fd);
		return -1;
	}
	ch->listen_fd = fd;
	return 0;
}

int p4odp_channel_open(struct p4odp_channel *ch, const char *addr, char *err, size_t err_len)
{
	memset(ch, 0, sizeof *ch);
	ch->listen_fd = -1;
	for (int i = 0; i < P4ODP_CONTROL_CLIENTS; i++)
		ch->clients[i].fd = -1;
	if (!strncmp(addr, "unix:", 5) && addr[5])
		return listen_unix(ch, addr + 5, addr, err, err_len);
	if (!strncmp(addr, "tcp:", 4))
		return listen_tcp(ch, addr + 4, addr, err, err_len);
	snprintf(err, err_len, "--control %s: expected unix:PATH, tcp:HOST:PORT or none", addr);
	return -1;
}

static void drop_client(struct p4odp_control_client *c)
{
	close(c->fd);
	c->fd = -1;
	c->len = 0;
	c->overlong = false;
}

/* Send all of `data`; false when the client is gone or stopped reading. */
static bool send_all(int fd, const char *data, size_t len)
{
	while (len) {
		ssize_t n = send(fd, data, len, MSG_NOSIGNAL);
		if (n <= 0)
			return false;
		data += n;
		len -= (size_t)n;
	}
	return true;
}

static bool answer(struct p4odp_control_client *c, const char *status, const char *body, size_t len)
{
	char head[64];
	int n = snprintf(head, sizeof head, "%s %zu\n", status, len);
	return send_all(c->fd, head, (size_t)n) && send_all(c->fd, body, len);
}

/* Run one line of a client and answer it. */
static bool serve_line(struct p4odp_switch *sw, struct p4odp_control_client *c, const char *line, size_t len)
{
	char err[512];
	if (memchr(line, '\0', len))
		return answer(c, "error", "a NUL byte in the line", strlen("a NUL byte in the line"));
	char *output = NULL;
	size_t output_len = 0;
	FILE *out = open_memstream(&output, &output_len);
	if (!out)
		return answer(c, "error", "out of memory", strlen("out of memory"));
	int status = p4odp_control_command(sw, line, out, err, sizeof err);
	fclose(out);
	bool sent = status ? answer(c, "error", err, strlen(err)) : answer(c, "ok", output, output_len);
	free(output);
	return sent;
}

/* Read what a client sent and serve each whole line of it. */
static void serve_client(struct p4odp_switch *sw, struct p4odp_control_client *c)
{
	ssize_t n = recv(c->fd, c->buf + c->len, sizeof c->buf - 1 - c->len, 0);
	if (n <= 0) {
		if (n == 0 || (errno != EAGAIN && errno != EINTR))
			drop_client(c);
		return;
	}
	c->len += (size_t)n;
	char *newline;
	while (c->fd >= 0 && (newline = memchr(c->buf, '\n', c->len))) {
		size_t line_len = (size_t)(newline - c->buf);
		*newline = '\0';
		bool sent;
		if (c->overlong)
			sent = answer(c, "error", "line too long", strlen("line too long"));
		else
			sent = serve_line(sw, c, c->buf, line_len);
		c->overlong = false;
		memmove(c->buf, newline + 1, c->len - line_len - 1);
		c->len -= line_len + 1;
		if (!sent)
			drop_client(c);
	}
	if (c->fd >= 0 && c->len == sizeof c->buf - 1) {	/* no newline in a full buffer: skip to the next one */
		c->overlong = true;
		c->len = 0;
	}
}

static void accept_client(struct p4odp_switch *sw, struct p4odp_channel *ch)
{
	int fd = accept4(ch->listen_fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
	if (fd < 0)
		return;
	struct p4odp_control_client *c = NULL;
	for (int i = 0; i < P4ODP_CONTROL_CLIENTS && !c; i++)
		if (ch->clients[i].fd < 0)
			c = &ch->clients[i];
	char greeting[256];
	int n = snprintf(greeting, sizeof greeting, "p4odp-control %d %s\n", PROTOCOL_VERSION, sw->program->name);
	if (!c) {
		static const char busy[] = "error 20\ntoo many connections";
		send_all(fd, busy, sizeof busy - 1);
		close(fd);
		return;
	}
	struct timeval timeout = { .tv_sec = SEND_TIMEOUT_S };
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof timeout);
	c->fd = fd;
	c->len = 0;
	c->overlong = false;
	if (!send_all(fd, greeting, (size_t)n))
		drop_client(c);
}

void p4odp_channel_serve(struct p4odp_switch *sw, struct p4odp_channel *ch, int timeout_ms)
{
	struct pollfd fds[1 + P4ODP_CONTROL_CLIENTS];
	struct p4odp_control_client *owners[1 + P4ODP_CONTROL_CLIENTS];
	nfds_t n = 0;

	fds[n++] = (struct pollfd){ .fd = ch->listen_fd, .events = POLLIN };
	for (int i = 0; i < P4ODP_CONTROL_CLIENTS; i++)
		if (ch->clients[i].fd >= 0) {
			owners[n] = &ch->clients[i];
			fds[n++] = (struct pollfd){ .fd = ch->clients[i].fd, .events = POLLIN };
		}
	if (poll(fds, n, timeout_ms) <= 0)
		return;
	for (nfds_t i = 1; i < n; i++)
		if (fds[i].revents)
			serve_client(sw, owners[i]);
	if (fds[0].revents & POLLIN)
		accept_client(sw, ch);
}

void p4odp_channel_close(struct p4odp_channel *ch)
{
	for (int i = 0; i < P4ODP_CONTROL_CLIENTS; i++)
		if (ch->clients[i].fd >= 0)
			drop_client(&ch->clients[i]);
	if (ch->listen_fd >= 0)
		close(ch->listen_fd);
	if (ch->unix_path[0])
		unlink(ch->unix_path);
	ch->listen_fd = -1;
}
