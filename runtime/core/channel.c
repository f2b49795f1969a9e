/*
 * The control channel: simple_switch_CLI command lines over a unix or TCP
 * socket, served by the switch's main thread while the workers forward.
 *
 * Protocol, version 2, text until the client asks for binary frames:
 *   on connect, the switch sends  "p4odp-control 2 PROGRAM\n"
 *   the client sends a command    one line, at most P4ODP_CONTROL_LINE bytes with its newline
 *   the switch answers            "ok N\n" and the N bytes the command printed,
 *                                 or "error N\n" and an N-byte message
 * then the next line.  A line too long or holding a NUL byte, or a command
 * that fails, is answered with an error and changes nothing; the connection
 * stays open.  After `digest_listen` (until `digest_unlisten`) the client also
 * gets events, between answers: "event N\n" and an N-byte line, a digest
 * message (digests.c); after `packet_listen` (until `packet_unlisten`), the
 * packets sent to the CPU port (cpu_port.c); after `idle_listen`, the
 * entries idle past their TTL (idle_timeouts.c); after `swap_listen`, the
 * line "program_swapped" where swap_configs put another program in: the
 * events before it are the old program's, those after it the new one's.  Events a client is too far behind to take are counted and said in
 * the next one that goes ("events_missed N"); program_swapped is never left
 * out so.  `load_new_config_file PATH` loads another program
 * (a datapath.so) beside the one forwarding: that client's commands then
 * change the loaded one, until `swap_configs` makes it forward (BMv2's
 * commands); `discard_new_config`, or the client's leaving, drops it.
 * Clients are served in turn, each for the lines it has sent
 * and whose answers it has read: a command sees the effect of every command
 * answered before it.  An answer the client does not read is kept and sent
 * as it reads; a client that reads nothing of it for SEND_TIMEOUT_S is
 * dropped, so a stalled client never stalls the switch.  The line "binary"
 * turns a connection (one not listening to events) into one of frames, each
 * a call of the control-plane API (p4odp_wire.h, channel_binary.c), served in
 * turn with the lines of the others.
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
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "p4odp_wire.h"
#include "switch.h"

#define PROTOCOL_VERSION P4ODP_WIRE_VERSION
#define SEND_TIMEOUT_S 2	/* a client that reads nothing of an answer for this long is dropped */
#define ACCEPT_PAUSE_NS 100000000	/* after a failed accept (no file descriptors left) */
#define EVENT_BACKLOG (4u << 20)	/* bytes of output waiting for a client beyond which it misses events */

static uint64_t now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static void set_error(char *err, size_t err_len, const char *what, const char *addr)
{
	snprintf(err, err_len, "--control %s: %s: %s", addr, what, strerror(errno));
}

/* A non-blocking socket of `family` listening at `sa`, as the channel's; -1 after saying why. */
static int bind_and_listen(struct p4odp_channel *ch, int family, const struct sockaddr *sa, socklen_t len,
			   const char *addr, char *err, size_t err_len)
{
	int fd = socket(family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0), one = 1;
	const char *failed = fd < 0 ? "socket" :
			     family == AF_INET && setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) ?
			     "setsockopt" : bind(fd, sa, len) ? "bind" : listen(fd, 8) ? "listen" : NULL;
	if (failed) {
		set_error(err, err_len, failed, addr);
		if (fd >= 0)
			close(fd);
		return -1;
	}
	ch->listen_fd = fd;
	return 0;
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
	struct stat st;
	if (lstat(path, &st) == 0 && !S_ISSOCK(st.st_mode)) {
		snprintf(err, err_len, "--control %s: the path exists and is not a socket", addr);
		close(fd);
		return -1;
	}
	if (connect(fd, (struct sockaddr *)&sa, sizeof sa) == 0) {
		snprintf(err, err_len, "--control %s: another switch serves it", addr);
		close(fd);
		return -1;
	}
	if (errno == ECONNREFUSED)	/* a socket no one listens on: left by a switch that is gone */
		unlink(path);
	close(fd);
	if (bind_and_listen(ch, AF_UNIX, (struct sockaddr *)&sa, sizeof sa, addr, err, err_len))
		return -1;
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
	return bind_and_listen(ch, AF_INET, (struct sockaddr *)&sa, sizeof sa, addr, err, err_len);
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
	free(c->pending);
	free(c->frames);
	*c = (struct p4odp_control_client){ .fd = -1 };
}

/* Queue `len` bytes for the client; false when out of memory. */
static bool queue(struct p4odp_control_client *c, const char *data, size_t len)
{
	char *grown = realloc(c->pending, c->pending_len + len);
	if (!grown && c->pending_len + len)
		return false;
	memcpy(grown + c->pending_len, data, len);
	if (!c->pending_len)
		c->stalled_since_ns = now_ns();
	c->pending = grown;
	c->pending_len += len;
	return true;
}

/* Queue a frame: an answer ("ok" or "error"), or an event, which does not hold back the next line. */
static bool answer(struct p4odp_control_client *c, const char *status, const char *body, size_t len)
{
	char head[64];
	int n = snprintf(head, sizeof head, "%s %zu\n", status, len);
	size_t before = c->pending_len;
	if (!queue(c, head, (size_t)n) || !queue(c, body, len)) {
		c->pending_len = before;	/* no half frame */
		return false;
	}
	if (strcmp(status, "event"))
		c->answer_left = c->pending_len;
	return true;
}

static bool answer_error(struct p4odp_control_client *c, const char *message)
{
	return answer(c, "error", message, strlen(message));
}

/* Send what the client can take now; false when it is gone or read nothing for too long. */
static bool flush(struct p4odp_control_client *c)
{
	size_t sent = 0;
	while (sent < c->pending_len) {
		ssize_t n = send(c->fd, c->pending + sent, c->pending_len - sent, MSG_NOSIGNAL);
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			break;
		if (n <= 0)
			return false;
		sent += (size_t)n;
	}
	if (sent) {
		memmove(c->pending, c->pending + sent, c->pending_len - sent);
		c->pending_len -= sent;
		c->answer_left = c->answer_left > sent ? c->answer_left - sent : 0;
		c->stalled_since_ns = now_ns();
	}
	return !c->pending_len || now_ns() - c->stalled_since_ns < (uint64_t)SEND_TIMEOUT_S * 1000000000u;
}

/* What follows `command` in `line`, blanks around it skipped, when `command` is the line's first
 * word; NULL when it is another. */
static const char *arguments_of(const char *line, const char *command)
{
	size_t n = strlen(command);
	line += strspn(line, " \t\r");
	if (strncmp(line, command, n) || (line[n] && !strchr(" \t\r", line[n])))
		return NULL;
	return line + n + strspn(line + n, " \t\r");
}

/* Whether `line` is `command` alone, between blanks. */
static bool is_command(const char *line, const char *command)
{
	const char *arguments = arguments_of(line, command);
	return arguments && !*arguments;
}

void p4odp_channel_event(struct p4odp_channel *ch, uint8_t kind, const char *text, size_t len)
{
	for (int i = 0; i < P4ODP_CONTROL_CLIENTS; i++) {
		struct p4odp_control_client *c = &ch->clients[i];
		if (c->fd < 0 || !(c->listens & kind))
			continue;
		if (c->pending_len > EVENT_BACKLOG && kind != P4ODP_EVENT_SWAPS) {
			c->events_missed++;
			continue;
		}
		if (c->events_missed) {
			char missed[64];
			int n = snprintf(missed, sizeof missed, "events_missed %llu\n", (unsigned long long)c->events_missed);
			c->events_missed = 0;
			if (!answer(c, "event", missed, (size_t)n))
				c->listens = 0;	/* out of memory: it gets no more */
		}
		if (!answer(c, "event", text, len))
			c->listens = 0;
	}
}

/* The commands that start and stop a client's events. */
static const struct {
	const char *command;
	uint8_t kind;
	bool listen;
} listen_commands[] = {
	{ "digest_listen", P4ODP_EVENT_DIGESTS, true },
	{ "digest_unlisten", P4ODP_EVENT_DIGESTS, false },
	{ "packet_listen", P4ODP_EVENT_PACKETS, true },
	{ "packet_unlisten", P4ODP_EVENT_PACKETS, false },
	{ "swap_listen", P4ODP_EVENT_SWAPS, true },
	{ "swap_unlisten", P4ODP_EVENT_SWAPS, false },
	{ "idle_listen", P4ODP_EVENT_IDLE, true },
	{ "idle_unlisten", P4ODP_EVENT_IDLE, false },
};

/* How many clients listen to each kind of event, for the workers: before a client is told that
 * it listens, so that every packet after the answer is seen. */
static void count_listeners(struct p4odp_switch *sw, const struct p4odp_channel *ch)
{
	uint32_t digest_listeners = 0, packet_listeners = 0, idle_listeners = 0;

	for (int i = 0; i < P4ODP_CONTROL_CLIENTS; i++)
		if (ch->clients[i].fd >= 0) {
			digest_listeners += !!(ch->clients[i].listens & P4ODP_EVENT_DIGESTS);
			packet_listeners += !!(ch->clients[i].listens & P4ODP_EVENT_PACKETS);
			idle_listeners += !!(ch->clients[i].listens & P4ODP_EVENT_IDLE);
		}
	__atomic_store_n(&sw->digest_listeners, digest_listeners, __ATOMIC_RELAXED);
	__atomic_store_n(&sw->packet_listeners, packet_listeners, __ATOMIC_RELAXED);
	sw->idle_listeners = idle_listeners;
}

/* Drop the loaded program, if any. */
static void drop_loaded(struct p4odp_channel *ch)
{
	if (ch->loaded)
		p4odp_program_discard(ch->loaded);
	ch->loaded = NULL;
	ch->loader = NULL;
}

/* The commands that replace the switch's program (BMv2's): load_new_config_file
 * PATH loads a datapath.so (p4odp compile --datapath) whose tables the commands
 * of the client that loaded it then fill, swap_configs makes it forward;
 * p4odp's discard_new_config drops it, as does the client's leaving.  One
 * program is loaded at a time; other clients change the running one.  Each is
 * given what follows its name on the line. */
static bool load_program(struct p4odp_switch **live, struct p4odp_channel *ch, struct p4odp_control_client *c,
			 const char *args)
{
	char path[4096], err[512];
	size_t n = strlen(args);

	while (n && strchr(" \t\r", args[n - 1]))
		n--;
	if (!n || n >= sizeof path)
		return answer_error(c, "usage: load_new_config_file PATH, PATH a datapath.so (p4odp compile --datapath)");
	if (ch->loaded)
		return answer_error(c, c == ch->loader ? "this connection has a program loaded: swap_configs swaps it in, "
						       "discard_new_config drops it" :
						       "another connection has a program loaded (one at a time)");
	memcpy(path, args, n);
	path[n] = '\0';
	ch->loaded = p4odp_program_load(*live, path, err, sizeof err);
	if (!ch->loaded)
		return answer_error(c, err);
	ch->loader = c;
	char text[300];
	int len = snprintf(text, sizeof text, "program %s\n", ch->loaded->program->name);
	return answer(c, "ok", text, len > 0 && (size_t)len < sizeof text ? (size_t)len : 0);
}

static bool swap_program(struct p4odp_switch **live, struct p4odp_channel *ch, struct p4odp_control_client *c,
			 const char *args)
{
	if (*args)
		return answer_error(c, "usage: swap_configs");
	if (c != ch->loader)
		return answer_error(c, "this connection has no program loaded: load_new_config_file PATH first");
	*live = p4odp_program_swap(*live, ch->loaded, ch);
	ch->loaded = NULL;
	ch->loader = NULL;
	count_listeners(*live, ch);
	if ((*live)->stop)
		return answer_error(c, "the switch stopped before every worker had moved to the new program");
	return answer(c, "ok", "", 0);
}

static bool discard_program(struct p4odp_switch **live, struct p4odp_channel *ch, struct p4odp_control_client *c,
			    const char *args)
{
	(void)live;	/* every program command's form */
	if (*args)
		return answer_error(c, "usage: discard_new_config");
	if (c != ch->loader)
		return answer_error(c, "this connection has no program loaded: load_new_config_file PATH first");
	drop_loaded(ch);
	return answer(c, "ok", "", 0);
}

static const struct {
	const char *command;
	bool (*run)(struct p4odp_switch **live, struct p4odp_channel *ch, struct p4odp_control_client *c,
		    const char *args);
} program_commands[] = {
	{ "load_new_config_file", load_program },
	{ "swap_configs", swap_program },
	{ "discard_new_config", discard_program },
};

/* Run one line of a client and queue its answer: on the program it loaded, when it did. */
static bool serve_line(struct p4odp_switch **live, struct p4odp_channel *ch, struct p4odp_control_client *c,
		       const char *line, size_t len)
{
	char err[512];
	if (memchr(line, '\0', len))
		return answer_error(c, "a NUL byte in the line");
	/* The commands about the connection and the channel. */
	for (size_t i = 0; i < sizeof listen_commands / sizeof listen_commands[0]; i++)
		if (is_command(line, listen_commands[i].command)) {
			c->listens = (uint8_t)(listen_commands[i].listen ? c->listens | listen_commands[i].kind
									 : c->listens & ~listen_commands[i].kind);
			count_listeners(*live, ch);
			return answer(c, "ok", "", 0);
		}
	for (size_t i = 0; i < sizeof program_commands / sizeof program_commands[0]; i++) {
		const char *args = arguments_of(line, program_commands[i].command);
		if (args)
			return program_commands[i].run(live, ch, c, args);
	}
	if (is_command(line, "binary")) {	/* frames from here on (p4odp_wire.h) */
		if (c->listens)
			return answer_error(c, "a connection listening to events stays text");
		c->binary = true;
		return answer(c, "ok", "", 0);
	}
	char *output = NULL;
	size_t output_len = 0;
	FILE *out = open_memstream(&output, &output_len);
	if (!out)
		return answer_error(c, "out of memory");
	int status = p4odp_cli_command(c == ch->loader ? ch->loaded : *live, line, out, err, sizeof err);
	if (!status && is_command(line, "help")) {	/* the control commands, then the channel's own */
		for (size_t i = 0; i < sizeof listen_commands / sizeof listen_commands[0]; i++)
			fprintf(out, "%s\n", listen_commands[i].command);
		for (size_t i = 0; i < sizeof program_commands / sizeof program_commands[0]; i++)
			fprintf(out, "%s\n", program_commands[i].command);
	}
	fclose(out);
	bool queued = status ? answer_error(c, err) : answer(c, "ok", output, output_len);
	free(output);
	return queued;
}

/* Keep `len` more bytes of frames from the client; false when out of memory or beyond a frame's
 * largest size. */
static bool keep_frames(struct p4odp_control_client *c, const void *bytes, size_t len)
{
	if (c->frames_len + len > c->frames_cap) {
		size_t cap = c->frames_cap ? c->frames_cap : 65536;
		while (cap < c->frames_len + len)
			cap *= 2;
		uint8_t *grown = cap <= 2 * (4 + (size_t)P4ODP_WIRE_MAX_FRAME) ? realloc(c->frames, cap) : NULL;
		if (!grown)
			return false;
		c->frames = grown;
		c->frames_cap = cap;
	}
	memcpy(c->frames + c->frames_len, bytes, len);
	c->frames_len += len;
	return true;
}

/* Serve the whole frames the client has sent, while it has read every answer. */
static void serve_frames(struct p4odp_switch **live, struct p4odp_channel *ch, struct p4odp_control_client *c)
{
	while (c->fd >= 0 && !c->answer_left && c->frames_len >= 4) {
		size_t len = (size_t)c->frames[0] << 24 | (size_t)c->frames[1] << 16 | (size_t)c->frames[2] << 8 |
			     c->frames[3];
		if (len > P4ODP_WIRE_MAX_FRAME) {
			drop_client(c);
			return;
		}
		if (c->frames_len < 4 + len)
			return;
		if (len == 2 && (c->frames[4] << 8 | c->frames[5]) == P4ODP_OP_TEXT) {	/* lines again */
			static const char ok[] = { 0, 0, 0, 4, 0, 0, 0, 0 };
			size_t rest = c->frames_len - 6;
			if (rest > sizeof c->buf || !queue(c, ok, sizeof ok)) {
				drop_client(c);
				return;
			}
			c->answer_left = c->pending_len;
			memcpy(c->buf, c->frames + 6, rest);
			c->len = rest;
			c->frames_len = 0;
			c->binary = false;
			if (!flush(c))
				drop_client(c);
			return;
		}
		bool loaded = c == ch->loader;
		uint8_t *body = NULL, head[4];
		size_t body_len = 0;
		bool queued = p4odp_binary_request(loaded ? ch->loaded : *live, !loaded, c->frames + 4, len, &body,
						   &body_len) == 0;
		for (int i = 0; i < 4; i++)
			head[i] = (uint8_t)(body_len >> 8 * (3 - i));
		size_t before = c->pending_len;
		if (queued && !(queue(c, (const char *)head, 4) && queue(c, (const char *)body, body_len)))
			c->pending_len = before, queued = false;	/* no half frame */
		free(body);
		c->answer_left = c->pending_len;
		memmove(c->frames, c->frames + 4 + len, c->frames_len - 4 - len);
		c->frames_len -= 4 + len;
		if (!queued || !flush(c))
			drop_client(c);
	}
}

/* Serve the whole lines the client has sent, while it has read every answer. */
static void serve_lines(struct p4odp_switch **live, struct p4odp_channel *ch, struct p4odp_control_client *c)
{
	char *newline;
	if (c->binary) {
		serve_frames(live, ch, c);
		if (c->fd < 0 || c->binary)
			return;
	}
	while (c->fd >= 0 && !c->answer_left && (newline = memchr(c->buf, '\n', c->len))) {
		size_t line_len = (size_t)(newline - c->buf);
		*newline = '\0';
		bool queued = c->overlong ? answer_error(c, "line too long") : serve_line(live, ch, c, c->buf, line_len);
		c->overlong = false;
		memmove(c->buf, newline + 1, c->len - line_len - 1);
		c->len -= line_len + 1;
		if (!queued || !flush(c)) {
			drop_client(c);
			return;
		}
		if (c->binary) {	/* what followed the line "binary" is frames */
			if (!keep_frames(c, c->buf, c->len)) {
				drop_client(c);
				return;
			}
			c->len = 0;
			serve_frames(live, ch, c);
			return;
		}
	}
}

/* Take what the client sent. */
static void receive(struct p4odp_control_client *c)
{
	if (c->binary) {
		char bytes[65536];
		ssize_t n = recv(c->fd, bytes, sizeof bytes, 0);
		if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR) || (n > 0 && !keep_frames(c, bytes, (size_t)n)))
			drop_client(c);
		return;
	}
	if (c->len == sizeof c->buf) {	/* no newline in a full buffer: the line is too long, skip it */
		c->overlong = true;
		c->len = 0;
	}
	ssize_t n = recv(c->fd, c->buf + c->len, sizeof c->buf - c->len, 0);
	if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR))
		drop_client(c);
	else if (n > 0)
		c->len += (size_t)n;
}

static void accept_client(struct p4odp_switch *sw, struct p4odp_channel *ch)
{
	int fd = accept4(ch->listen_fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
	if (fd < 0) {
		if (errno != EAGAIN && errno != EINTR && errno != ECONNABORTED)
			ch->accept_paused_until_ns = now_ns() + ACCEPT_PAUSE_NS;
		return;
	}
	struct p4odp_control_client *c = NULL;
	for (int i = 0; i < P4ODP_CONTROL_CLIENTS && !c; i++)
		if (ch->clients[i].fd < 0)
			c = &ch->clients[i];
	if (!c) {
		static const char busy[] = "error 20\ntoo many connections";
		(void)send(fd, busy, sizeof busy - 1, MSG_NOSIGNAL | MSG_DONTWAIT);	/* best effort: closed anyway */
		close(fd);
		return;
	}
	*c = (struct p4odp_control_client){ .fd = fd };
	/* The program's name, on the greeting's line whole whatever its length. */
	char head[64];
	int n = snprintf(head, sizeof head, "p4odp-control %d ", PROTOCOL_VERSION);
	const char *name = sw->program->name;
	if (!queue(c, head, (size_t)n) || !queue(c, name, strcspn(name, "\n")) || !queue(c, "\n", 1) || !flush(c))
		drop_client(c);
}

void p4odp_channel_serve(struct p4odp_switch **live, struct p4odp_channel *ch, int timeout_ms)
{
	struct pollfd fds[1 + P4ODP_CONTROL_CLIENTS];
	struct p4odp_control_client *owners[1 + P4ODP_CONTROL_CLIENTS];
	nfds_t n = 0;

	if (now_ns() >= ch->accept_paused_until_ns)
		fds[n++] = (struct pollfd){ .fd = ch->listen_fd, .events = POLLIN };
	nfds_t first_client = n;
	for (int i = 0; i < P4ODP_CONTROL_CLIENTS; i++)
		if (ch->clients[i].fd >= 0) {
			struct p4odp_control_client *c = &ch->clients[i];
			owners[n] = c;
			/* A client with an answer to read is sent it before it is read again. */
			fds[n++] = (struct pollfd){ .fd = c->fd, .events = (short)((c->pending_len ? POLLOUT : 0) |
										    (c->answer_left ? 0 : POLLIN)) };
		}
	if (poll(fds, n, timeout_ms) < 0)
		return;
	for (nfds_t i = first_client; i < n; i++) {
		struct p4odp_control_client *c = owners[i];
		if (c->pending_len && !flush(c)) {
			drop_client(c);
			continue;
		}
		if (fds[i].revents & (POLLIN | POLLHUP | POLLERR))
			receive(c);
		serve_lines(live, ch, c);
	}
	if (ch->loaded && ch->loader->fd < 0)	/* its client is gone: before its slot is reused */
		drop_loaded(ch);
	if (first_client && (fds[0].revents & POLLIN))
		accept_client(*live, ch);
	count_listeners(*live, ch);	/* clients gone, or out of memory for their events */
}

void p4odp_channel_close(struct p4odp_channel *ch)
{
	drop_loaded(ch);
	for (int i = 0; i < P4ODP_CONTROL_CLIENTS; i++)
		if (ch->clients[i].fd >= 0)
			drop_client(&ch->clients[i]);
	if (ch->listen_fd >= 0)
		close(ch->listen_fd);
	if (ch->unix_path[0])
		unlink(ch->unix_path);
	ch->listen_fd = -1;
}
