/*
 * A switch's program: its tables and state set up and freed; and another
 * program, a datapath.so (p4odp compile --datapath), loaded into a running
 * switch and swapped in without a lost packet.
 *
 * A loaded program is a second struct p4odp_switch on the same ports,
 * workers, RCU domain and replication, with tables and state of its own,
 * which the control plane fills before the swap.  The swap moves each worker
 * to it between two bursts (at the top of its loop, where it holds no table
 * entry and no packet): while a worker moves, what it receives waits in its
 * input queues, so no packet is dropped and each is processed whole by one
 * program or the other (worker 0 first runs what controllers sent in before
 * the swap through the old program, whose controller header it carries).  Once every worker has moved, the old program's
 * digests are delivered and it is freed.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "switch.h"

int p4odp_program_init(struct p4odp_switch *sw)
{
	sw->program = sw->datapath->program;
	sw->state = calloc(1, sw->program->state_size ? sw->program->state_size : 1);
	sw->per_worker = calloc(sw->n_workers ? sw->n_workers : 1, sizeof *sw->per_worker);
	if (!sw->state || !sw->per_worker || p4odp_tables_init(sw) || p4odp_crcs_init(sw))
		return -1;
	for (uint32_t k = 0; k < sw->n_workers; k++)
		if (sw->datapath->worker_init(&sw->per_worker[k]))
			return -1;
	return 0;
}

void p4odp_program_destroy(struct p4odp_switch *sw)
{
	for (uint32_t k = 0; sw->per_worker && k < sw->n_workers; k++) {
		free(sw->per_worker[k].state);
		free(sw->per_worker[k].pass_states);
		free(sw->per_worker[k].digests);
	}
	free(sw->per_worker);
	sw->per_worker = NULL;
	p4odp_crcs_destroy(sw);
	sw->crcs = NULL;
	p4odp_tables_destroy(sw);
	free(sw->state);
	sw->state = NULL;
}

/* dlopen() of a private copy of the file at `path`: glibc hands back an object already loaded
 * from the same name instead of reading the file again, so a datapath.so rebuilt in place would
 * load as the program it replaces.  The copy is a memfd, open as long as the library is loaded
 * (its /proc/self/fd name is then unique); *fd is it, or -1.  NULL after saying why in `err`. */
static void *load_copy(const char *path, int *fd, char *err, size_t err_len)
{
	char buf[65536], name[64];
	int in = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n = 0;

	*fd = -1;
	if (in < 0) {
		snprintf(err, err_len, "cannot load %s: %s", path, strerror(errno));
		return NULL;
	}
	*fd = memfd_create("datapath.so", MFD_CLOEXEC);
	while (*fd >= 0 && (n = read(in, buf, sizeof buf)) > 0)
		if (write(*fd, buf, (size_t)n) != n)
			n = -1;
	int saved_errno = errno;
	close(in);
	if (*fd < 0 || n < 0) {
		snprintf(err, err_len, "cannot load %s: %s", path, strerror(saved_errno));
		if (*fd >= 0)
			close(*fd);
		*fd = -1;
		return NULL;
	}
	snprintf(name, sizeof name, "/proc/self/fd/%d", *fd);
	void *library = dlopen(name, RTLD_NOW | RTLD_LOCAL);
	if (!library) {
		snprintf(err, err_len, "cannot load %s: %s", path, dlerror());
		close(*fd);
		*fd = -1;
	}
	return library;
}

struct p4odp_switch *p4odp_program_load(struct p4odp_switch *live, const char *path, char *err, size_t err_len)
{
	int fd;
	void *library = load_copy(path, &fd, err, err_len);
	if (!library)
		return NULL;
	const struct p4odp_datapath *datapath = dlsym(library, "p4odp_datapath");
	const char *refusal = !datapath ? "is not a p4odp datapath (p4odp compile --datapath builds one)" :
			      strcmp(datapath->runtime, live->datapath->runtime) ?
			      "was built against another runtime than this switch's: build it with the p4odp, --target "
			      "and C compiler that built the switch" : NULL;
	struct p4odp_switch *sw = refusal ? NULL : malloc(sizeof *sw);
	if (!sw) {
		snprintf(err, err_len, "%s %s", path, refusal ? refusal : "cannot be loaded: out of memory");
		dlclose(library);
		close(fd);
		return NULL;
	}
	*sw = *live;	/* its ports, workers, RCU domain, replication and options */
	sw->datapath = datapath;
	sw->library = library;
	sw->library_fd = fd;
	sw->tables = NULL;
	sw->profiles = NULL;
	sw->crcs = NULL;
	sw->state = NULL;
	sw->per_worker = NULL;
	sw->replaced = NULL;
	if (p4odp_program_init(sw)) {
		snprintf(err, err_len, "cannot set up %s: out of memory, or a table or const entry the runtime refuses "
			 "(the switch's standard error says which)", datapath->program->name);
		p4odp_program_discard(sw);
		return NULL;
	}
	return sw;
}

void p4odp_program_discard(struct p4odp_switch *sw)
{
	if (sw->replaced)
		p4odp_program_discard(sw->replaced);
	p4odp_program_destroy(sw);
	if (sw->library) {
		dlclose(sw->library);
		close(sw->library_fd);
	}
	free(sw);
}

struct p4odp_switch *p4odp_program_swap(struct p4odp_switch *live, struct p4odp_switch *loaded,
					struct p4odp_channel *ch)
{
	bool all_moved = true;

	loaded->digest_listeners = live->digest_listeners;
	loaded->packet_listeners = live->packet_listeners;
	loaded->idle_listeners = live->idle_listeners;
	for (uint32_t k = 0; k < live->n_workers; k++)
		__atomic_store_n(&live->workers[k].next, loaded, __ATOMIC_RELEASE);
	/* A worker moves within a burst's time, an idle one within its nap. */
	for (uint32_t k = 0; k < live->n_workers; k++)
		while (__atomic_load_n(&live->workers[k].next, __ATOMIC_ACQUIRE)) {
			if (live->stop) {	/* a worker failed: the switch stops, some workers on either program */
				all_moved = false;
				break;
			}
			nanosleep(&(struct timespec){ .tv_nsec = 10 * 1000 }, NULL);
		}
	if (!all_moved) {
		loaded->stop = 1;
		loaded->replaced = live;
		return loaded;
	}
	p4odp_digests_deliver(live, ch);
	p4odp_packets_deliver(live, ch, true);
	/* The old program's last events are out: a client that decodes them by the program's P4Info
	 * changes P4Info here. */
	static const char swapped[] = "program_swapped\n";
	p4odp_channel_event(ch, P4ODP_EVENT_SWAPS, swapped, sizeof swapped - 1);
	p4odp_program_discard(live);
	return loaded;
}

void p4odp_workers_hold(struct p4odp_switch *sw)
{
	__atomic_store_n(&sw->hold, 1, __ATOMIC_RELEASE);
	/* A worker comes within a burst's time, an idle one within its nap. */
	for (uint32_t k = 0; k < sw->n_workers; k++)
		while (!__atomic_load_n(&sw->workers[k].holding, __ATOMIC_ACQUIRE) && !sw->stop)
			nanosleep(&(struct timespec){ .tv_nsec = 1000 }, NULL);
}

void p4odp_workers_release(struct p4odp_switch *sw)
{
	__atomic_store_n(&sw->hold, 0, __ATOMIC_RELEASE);
}
