/* Bundled ODP: init, threads, pools, packets, shm, atomics, locks, time, CPUs. */
#include <pthread.h>
#include <string.h>

#include "odp_test.h"

#define NUM_PKTS    64
#define MAX_WORKERS 4
#define ROUNDS      20000
/* Lock rounds are fewer: spinning on a lock whose holder is not running
 * (more threads than CPUs) costs a time slice. */
#define LOCK_EVERY  10

static odp_instance_t instance;
static odp_pool_t shared_pool;
static odp_barrier_t barrier;
static odp_atomic_u32_t a32;
static odp_atomic_u64_t a64;
static odp_spinlock_t spin;
static odp_ticketlock_t ticket;
static uint64_t spin_count;
static uint64_t ticket_count;
static int thread_ids[MAX_WORKERS];
static int num_workers;

static void test_packet_basics(odp_pool_t pool)
{
	odp_packet_t pkt = odp_packet_alloc(pool, 100);
	uint8_t *data;
	uint8_t buf[200];
	uint32_t tailroom;

	CHECK(pkt != ODP_PACKET_INVALID);
	CHECK(odp_packet_is_valid(pkt));
	CHECK(odp_packet_len(pkt) == 100);
	CHECK(odp_packet_seg_len(pkt) == 100);
	CHECK(odp_packet_headroom(pkt) == 128);
	CHECK(odp_packet_num_segs(pkt) == 1);
	CHECK(!odp_packet_is_segmented(pkt));
	CHECK(odp_packet_pool(pkt) == pool);
	CHECK(odp_packet_input(pkt) == ODP_PKTIO_INVALID);
	CHECK(odp_packet_input_index(pkt) < 0);
	CHECK(odp_packet_user_area(pkt) != NULL);
	CHECK(odp_packet_user_area_size(pkt) == 32);
	CHECK(odp_packet_user_ptr(pkt) == NULL);
	CHECK(odp_packet_to_u64(pkt) != 0);
	data = odp_packet_data(pkt);
	CHECK((uint8_t *)odp_packet_head(pkt) + 128 == data);
	CHECK((uint8_t *)odp_packet_tail(pkt) == data + 100);
	tailroom = odp_packet_tailroom(pkt);
	CHECK(tailroom >= 1500 - 100);
	CHECK(odp_packet_buf_len(pkt) == 128 + 100 + tailroom);
	for (int i = 0; i < 100; i++)
		data[i] = (uint8_t)i;

	/* Head: push into the headroom, pull back. */
	CHECK(odp_packet_push_head(pkt, 14) == data - 14);
	CHECK(odp_packet_len(pkt) == 114);
	CHECK(odp_packet_headroom(pkt) == 114);
	CHECK(odp_packet_push_head(pkt, 115) == NULL);
	CHECK(odp_packet_len(pkt) == 114);
	CHECK(odp_packet_push_head(pkt, 114) == odp_packet_head(pkt));
	CHECK(odp_packet_headroom(pkt) == 0);
	CHECK(odp_packet_pull_head(pkt, 228) == NULL);
	CHECK(odp_packet_pull_head(pkt, 128) == data);
	CHECK(odp_packet_len(pkt) == 100);
	CHECK(odp_packet_pull_head(pkt, 100) == NULL);
	CHECK(odp_packet_pull_head(pkt, 10) == data + 10);
	CHECK(((uint8_t *)odp_packet_data(pkt))[0] == 10);
	CHECK(odp_packet_push_head(pkt, 10) == data);
	CHECK(((uint8_t *)odp_packet_data(pkt))[0] == 0);

	/* Tail: push into the tailroom, pull back. */
	CHECK(odp_packet_push_tail(pkt, 20) == data + 100);
	CHECK(odp_packet_len(pkt) == 120);
	CHECK(odp_packet_tailroom(pkt) == tailroom - 20);
	CHECK(odp_packet_push_tail(pkt, tailroom - 19) == NULL);
	CHECK(odp_packet_push_tail(pkt, tailroom - 20) == data + 120);
	CHECK(odp_packet_tailroom(pkt) == 0);
	CHECK(odp_packet_pull_tail(pkt, odp_packet_len(pkt)) == NULL);
	CHECK(odp_packet_pull_tail(pkt, tailroom) == data + 100);
	CHECK(odp_packet_len(pkt) == 100);
	CHECK(odp_packet_tailroom(pkt) == tailroom);

	/* Extend and truncate wrappers. */
	{
		void *ptr;
		uint32_t seg_len;

		CHECK(odp_packet_extend_head(&pkt, 4, &ptr, &seg_len) == 0);
		CHECK(ptr == data - 4 && seg_len == 104);
		CHECK(odp_packet_trunc_head(&pkt, 4, &ptr, &seg_len) == 0);
		CHECK(ptr == data && seg_len == 100);
		CHECK(odp_packet_extend_tail(&pkt, 6, &ptr, &seg_len) == 0);
		CHECK(ptr == data + 100 && seg_len == 6);
		CHECK(odp_packet_trunc_tail(&pkt, 6, &ptr, &seg_len) == 0);
		CHECK(ptr == data + 100 && seg_len == tailroom);
		CHECK(odp_packet_extend_head(&pkt, 129, NULL, NULL) < 0);
		CHECK(odp_packet_len(pkt) == 100);
	}

	/* Offsets and copies to and from memory. */
	{
		uint32_t left;
		odp_packet_seg_t seg;

		CHECK(odp_packet_offset(pkt, 40, &left, &seg) == data + 40);
		CHECK(left == 60 && seg == odp_packet_first_seg(pkt));
		CHECK(odp_packet_offset(pkt, 100, NULL, NULL) == NULL);
		CHECK(odp_packet_seg_data(pkt, seg) == data);
		CHECK(odp_packet_seg_data_len(pkt, seg) == 100);
		CHECK(odp_packet_next_seg(pkt, seg) == ODP_PACKET_SEG_INVALID);
	}
	CHECK(odp_packet_copy_to_mem(pkt, 90, 10, buf) == 0);
	CHECK(buf[0] == 90 && buf[9] == 99);
	CHECK(odp_packet_copy_to_mem(pkt, 91, 10, buf) < 0);
	memset(buf, 0xee, 4);
	CHECK(odp_packet_copy_from_mem(pkt, 2, 4, buf) == 0);
	CHECK(data[1] == 1 && data[2] == 0xee && data[5] == 0xee && data[6] == 6);
	CHECK(odp_packet_copy_from_mem(pkt, 98, 4, buf) < 0);

	/* Insert and remove bytes in the middle. */
	for (int i = 0; i < 100; i++)
		data[i] = (uint8_t)i;
	CHECK(odp_packet_add_data(&pkt, 10, 4) >= 0);
	CHECK(odp_packet_len(pkt) == 104);
	CHECK(odp_packet_copy_to_mem(pkt, 0, 104, buf) == 0);
	CHECK(buf[9] == 9 && buf[14] == 10 && buf[103] == 99);
	CHECK(odp_packet_rem_data(&pkt, 10, 4) >= 0);
	CHECK(odp_packet_len(pkt) == 100);
	CHECK(odp_packet_copy_to_mem(pkt, 0, 100, buf) == 0);
	for (int i = 0; i < 100; i++)
		CHECK(buf[i] == i);
	CHECK(odp_packet_add_data(&pkt, 90, 8) >= 0);
	CHECK(odp_packet_copy_to_mem(pkt, 0, 108, buf) == 0);
	CHECK(buf[89] == 89 && buf[98] == 90 && buf[107] == 99);
	CHECK(odp_packet_rem_data(&pkt, 90, 8) >= 0);
	CHECK(odp_packet_copy_to_mem(pkt, 0, 100, buf) == 0);
	for (int i = 0; i < 100; i++)
		CHECK(buf[i] == i);
	CHECK(odp_packet_rem_data(&pkt, 0, 100) < 0);
	CHECK(odp_packet_add_data(&pkt, 101, 1) < 0);

	/* Full and partial copies, with metadata. */
	{
		odp_packet_t copy;
		odp_packet_t part;
		uint8_t *uarea = odp_packet_user_area(pkt);

		memset(uarea, 0x5a, 32);
		odp_packet_user_ptr_set(pkt, buf);
		odp_packet_user_flag_set(pkt, 1);
		copy = odp_packet_copy(pkt, pool);
		CHECK(copy != ODP_PACKET_INVALID && copy != pkt);
		CHECK(odp_packet_len(copy) == 100);
		CHECK(odp_packet_data(copy) != odp_packet_data(pkt));
		CHECK(memcmp(odp_packet_data(copy), data, 100) == 0);
		CHECK(odp_packet_user_ptr(copy) == buf);
		CHECK(odp_packet_user_flag(copy) == 1);
		CHECK(((uint8_t *)odp_packet_user_area(copy))[31] == 0x5a);
		part = odp_packet_copy_part(pkt, 50, 20, pool);
		CHECK(part != ODP_PACKET_INVALID && odp_packet_len(part) == 20);
		CHECK(((uint8_t *)odp_packet_data(part))[0] == 50);
		CHECK(odp_packet_copy_from_pkt(part, 0, copy, 0, 20) == 0);
		CHECK(((uint8_t *)odp_packet_data(part))[19] == 19);
		CHECK(odp_packet_copy_from_pkt(part, 1, copy, 0, 20) < 0);
		odp_packet_free(part);
		odp_packet_free(copy);
	}

	/* Reset gives a fresh packet back. */
	CHECK(odp_packet_reset(pkt, 60) == 0);
	CHECK(odp_packet_len(pkt) == 60 && odp_packet_headroom(pkt) == 128);
	CHECK(odp_packet_user_ptr(pkt) == NULL && odp_packet_user_flag(pkt) == 0);
	CHECK(odp_packet_reset(pkt, 0) < 0);
	odp_packet_free(pkt);
}

static void test_pool_limits(odp_pool_t pool)
{
	odp_packet_t pkts[NUM_PKTS + 8];
	odp_pool_info_t info;
	odp_pool_capability_t capa;
	odp_pool_param_t param;
	int n;

	CHECK(odp_pool_capability(&capa) == 0);
	CHECK(capa.pkt.max_pools > 0 && capa.pkt.max_len >= 9000);
	CHECK(capa.pkt.max_headroom >= 128);
	CHECK(odp_pool_lookup("test_pool") == pool);
	CHECK(odp_pool_lookup("no such pool") == ODP_POOL_INVALID);
	CHECK(odp_pool_info(pool, &info) == 0);
	CHECK(strcmp(info.name, "test_pool") == 0);
	CHECK(info.params.pkt.num == NUM_PKTS);
	CHECK(odp_pool_index(pool) >= 0 && (unsigned int)odp_pool_index(pool) <= odp_pool_max_index());

	CHECK(odp_packet_alloc(pool, 0) == ODP_PACKET_INVALID);
	CHECK(odp_packet_alloc(pool, 100000) == ODP_PACKET_INVALID);

	/* Exactly NUM_PKTS packets, singly and in bursts. */
	for (int round = 0; round < 3; round++) {
		n = 0;
		pkts[n++] = odp_packet_alloc(pool, 64);
		CHECK(pkts[0] != ODP_PACKET_INVALID);
		while (n < NUM_PKTS + 8) {
			int got = odp_packet_alloc_multi(pool, 1500, &pkts[n], 7);

			CHECK(got >= 0);
			if (got == 0)
				break;
			n += got;
		}
		CHECK(n == NUM_PKTS);
		CHECK(odp_packet_alloc(pool, 64) == ODP_PACKET_INVALID);
		for (int i = 0; i < n; i++)
			for (int j = i + 1; j < n; j++)
				CHECK(odp_packet_data(pkts[i]) != odp_packet_data(pkts[j]));
		CHECK(odp_pool_destroy(pool) < 0);
		if (round == 0) {
			for (int i = 0; i < n; i++)
				odp_packet_free(pkts[i]);
		} else if (round == 1) {
			odp_packet_free_multi(pkts, n);
		} else {
			odp_packet_free_sp(pkts, n);
		}
	}

	/* Bad parameters. */
	odp_pool_param_init(&param);
	param.type = ODP_POOL_BUFFER;
	param.buf.num = 10;
	CHECK(odp_pool_create("buffers", &param) == ODP_POOL_INVALID);
	odp_pool_param_init(&param);
	param.type = ODP_POOL_PACKET;
	param.pkt.num = 0;
	CHECK(odp_pool_create("empty", &param) == ODP_POOL_INVALID);
	/* Sub-parameter counts whose sum wraps a uint32_t: 2 + (2^32 - 1) once
	 * made a pool of 1 packet. */
	odp_pool_param_init(&param);
	param.type = ODP_POOL_PACKET;
	param.pkt.num = 2;
	param.pkt.num_subparam = 1;
	param.pkt.sub[0].num = UINT32_MAX;
	param.pkt.sub[0].len = 64;
	CHECK(odp_pool_create("wrapped", &param) == ODP_POOL_INVALID);
	if (sizeof(size_t) < sizeof(uint64_t)) {
		/* The most packets of the largest size: more bytes than a 32-bit
		 * size_t holds, which once wrapped to a short pool. */
		odp_pool_param_init(&param);
		param.type = ODP_POOL_PACKET;
		param.pkt.num = capa.pkt.max_num;
		param.pkt.len = capa.pkt.max_len;
		CHECK(odp_pool_create("past", &param) == ODP_POOL_INVALID);
	}
}

static void *worker(void *arg)
{
	int idx = (int)(intptr_t)arg;
	odp_packet_t pkts[8];

	CHECK(odp_init_local(instance, ODP_THREAD_WORKER) == 0);
	thread_ids[idx] = odp_thread_id();
	CHECK(odp_thread_type() == ODP_THREAD_WORKER);
	odp_barrier_wait(&barrier);
	for (int r = 0; r < ROUNDS; r++) {
		int n = odp_packet_alloc_multi(shared_pool, 256, pkts, 1 + r % 8);

		CHECK(n >= 0);
		for (int i = 0; i < n; i++) {
			uint8_t *d = odp_packet_data(pkts[i]);

			d[0] = (uint8_t)idx;
			d[255] = (uint8_t)idx;
		}
		for (int i = 0; i < n; i++)
			CHECK(((uint8_t *)odp_packet_data(pkts[i]))[255] == idx);
		odp_packet_free_multi(pkts, n);
		odp_atomic_inc_u32(&a32);
		odp_atomic_add_u64(&a64, 3);
		if (r % LOCK_EVERY)
			continue;
		odp_spinlock_lock(&spin);
		spin_count++;
		odp_spinlock_unlock(&spin);
		odp_ticketlock_lock(&ticket);
		ticket_count++;
		odp_ticketlock_unlock(&ticket);
	}
	/* Several rounds of the same barrier. */
	for (int r = 0; r < 100; r++)
		odp_barrier_wait(&barrier);
	CHECK(odp_term_local() == 1);
	return NULL;
}

static void test_threads(void)
{
	pthread_t thr[MAX_WORKERS];
	odp_packet_t extra;

	/* No more workers than CPUs (but at least two), as a switch runs them. */
	num_workers = odp_cpu_count() < 2 ? 2 : odp_cpu_count();
	if (num_workers > MAX_WORKERS)
		num_workers = MAX_WORKERS;

	shared_pool = test_pool("shared", 256, 512);
	odp_barrier_init(&barrier, num_workers);
	odp_atomic_init_u32(&a32, 0);
	odp_atomic_init_u64(&a64, 0);
	odp_spinlock_init(&spin);
	odp_ticketlock_init(&ticket);
	for (int i = 0; i < num_workers; i++)
		CHECK(pthread_create(&thr[i], NULL, worker, (void *)(intptr_t)i) == 0);
	for (int i = 0; i < num_workers; i++)
		CHECK(pthread_join(thr[i], NULL) == 0);
	CHECK(odp_atomic_load_u32(&a32) == (uint32_t)num_workers * ROUNDS);
	CHECK(odp_atomic_load_u64(&a64) == 3ull * (uint64_t)num_workers * ROUNDS);
	CHECK(spin_count == (uint64_t)num_workers * ROUNDS / LOCK_EVERY);
	CHECK(ticket_count == (uint64_t)num_workers * ROUNDS / LOCK_EVERY);
	CHECK(!odp_spinlock_is_locked(&spin) && !odp_ticketlock_is_locked(&ticket));
	for (int i = 0; i < num_workers; i++) {
		CHECK(thread_ids[i] >= 1 && thread_ids[i] <= num_workers);
		for (int j = i + 1; j < num_workers; j++)
			CHECK(thread_ids[i] != thread_ids[j]);
	}
	CHECK(odp_thread_count() == 1);
	/* Every packet came back, also those cached by the exited threads. */
	extra = odp_packet_alloc(shared_pool, 1);
	CHECK(extra != ODP_PACKET_INVALID);
	odp_packet_free(extra);
	CHECK(odp_pool_destroy(shared_pool) == 0);
}

static void test_atomics_and_locks(void)
{
	odp_atomic_u32_t v32;
	odp_atomic_u64_t v64;
	uint32_t old32;
	uint64_t old64;
	odp_spinlock_t s;
	odp_ticketlock_t t;

	odp_atomic_init_u32(&v32, 5);
	CHECK(odp_atomic_fetch_add_u32(&v32, 2) == 5);
	CHECK(odp_atomic_fetch_inc_u32(&v32) == 7);
	CHECK(odp_atomic_fetch_dec_u32(&v32) == 8);
	odp_atomic_sub_u32(&v32, 2);
	CHECK(odp_atomic_load_u32(&v32) == 5);
	old32 = 4;
	CHECK(!odp_atomic_cas_u32(&v32, &old32, 9) && old32 == 5);
	CHECK(odp_atomic_cas_u32(&v32, &old32, 9) && odp_atomic_load_u32(&v32) == 9);
	CHECK(odp_atomic_xchg_u32(&v32, 1) == 9);
	odp_atomic_max_u32(&v32, 10);
	odp_atomic_min_u32(&v32, 3);
	CHECK(odp_atomic_load_acq_u32(&v32) == 3);
	odp_atomic_store_rel_u32(&v32, 0xffffffffu);
	odp_atomic_inc_u32(&v32);
	CHECK(odp_atomic_load_u32(&v32) == 0);

	odp_atomic_init_u64(&v64, 1ull << 40);
	odp_atomic_add_u64(&v64, 1);
	CHECK(odp_atomic_fetch_sub_u64(&v64, 1) == (1ull << 40) + 1);
	old64 = 1ull << 40;
	CHECK(odp_atomic_cas_acq_rel_u64(&v64, &old64, 7));
	odp_atomic_dec_u64(&v64);
	CHECK(odp_atomic_load_u64(&v64) == 6);
	odp_atomic_store_u64(&v64, 0);
	CHECK(odp_atomic_fetch_inc_u64(&v64) == 0);

	odp_spinlock_init(&s);
	CHECK(odp_spinlock_trylock(&s) == 1);
	CHECK(odp_spinlock_is_locked(&s));
	CHECK(odp_spinlock_trylock(&s) == 0);
	odp_spinlock_unlock(&s);
	CHECK(!odp_spinlock_is_locked(&s));
	odp_ticketlock_init(&t);
	CHECK(odp_ticketlock_trylock(&t) == 1);
	CHECK(odp_ticketlock_is_locked(&t));
	CHECK(odp_ticketlock_trylock(&t) == 0);
	odp_ticketlock_unlock(&t);
	CHECK(!odp_ticketlock_is_locked(&t));
	odp_mb_full();
	odp_mb_release();
	odp_mb_acquire();
}

static void test_shm(void)
{
	odp_shm_t shm = odp_shm_reserve("test_shm", 10000, 4096, 0);
	odp_shm_t shm2 = odp_shm_reserve(NULL, 100, 0, 0);
	odp_shm_t huge = odp_shm_reserve("huge", 100, 0, ODP_SHM_HP);
	odp_shm_info_t info;
	uint8_t *addr;

	CHECK(shm != ODP_SHM_INVALID && shm2 != ODP_SHM_INVALID);
	addr = odp_shm_addr(shm);
	CHECK(addr != NULL && (uintptr_t)addr % 4096 == 0);
	CHECK(addr[0] == 0 && addr[9999] == 0);
	memset(addr, 1, 10000);
	CHECK(odp_shm_lookup("test_shm") == shm);
	CHECK(odp_shm_lookup("nothing") == ODP_SHM_INVALID);
	CHECK(odp_shm_info(shm, &info) == 0 && info.size == 10000 && info.addr == addr);
	CHECK((uintptr_t)odp_shm_addr(shm2) % ODP_CACHE_LINE_SIZE == 0);
	CHECK(odp_shm_reserve("zero", 0, 0, 0) == ODP_SHM_INVALID);
	/* Where size_t is 32 bits, 4 GiB + 4 KiB once mapped 4 KiB. */
	if (sizeof(size_t) < sizeof(uint64_t))
		CHECK(odp_shm_reserve("past", (uint64_t)SIZE_MAX + 4097, 0, 0) == ODP_SHM_INVALID);
	CHECK(odp_shm_free(shm) == 0);
	CHECK(odp_shm_free(shm) < 0);
	CHECK(odp_shm_lookup("test_shm") == ODP_SHM_INVALID);
	CHECK(odp_shm_free(shm2) == 0);
	/* Huge pages or nothing. */
	if (huge != ODP_SHM_INVALID) {
		CHECK(odp_shm_info(huge, &info) == 0 && info.page_size > 4096);
		CHECK(odp_shm_free(huge) == 0);
	}
}

static void test_time_and_cpu(void)
{
	odp_time_t t1 = odp_time_local();
	odp_time_t t2;
	uint64_t ns1 = odp_time_local_ns();
	odp_cpumask_t mask;
	odp_cpumask_t mask2;
	char str[ODP_CPUMASK_STR_SIZE];
	uint64_t c1;
	int n;

	c1 = odp_cpu_cycles();
	odp_time_wait_ns(2 * ODP_TIME_MSEC_IN_NS);
	t2 = odp_time_local();
	CHECK(odp_time_cmp(t2, t1) > 0 && odp_time_cmp(t1, t2) < 0 && odp_time_cmp(t1, t1) == 0);
	CHECK(odp_time_to_ns(odp_time_diff(t2, t1)) >= 2 * ODP_TIME_MSEC_IN_NS);
	CHECK(odp_time_diff_ns(t2, t1) < ODP_TIME_SEC_IN_NS);
	CHECK(odp_time_local_ns() - ns1 >= 2 * ODP_TIME_MSEC_IN_NS);
	CHECK(odp_time_to_ns(odp_time_sum(t1, odp_time_local_from_ns(5))) == odp_time_to_ns(t1) + 5);
	CHECK(odp_time_local_res() > 0);
	CHECK(odp_cpu_cycles_diff(odp_cpu_cycles(), c1) > 0);
	odp_time_wait_until(odp_time_add_ns(odp_time_local(), 100000));

	CHECK(odp_cpu_count() >= 1);
	n = odp_cpumask_default_worker(&mask, 0);
	CHECK(n >= 1 && n == odp_cpumask_count(&mask));
	CHECK(odp_cpumask_default_worker(NULL, 1) == 1);
	CHECK(odp_cpumask_default_control(&mask, 1) == 1);
	CHECK(odp_cpumask_all_available(&mask) == odp_cpu_count());
	odp_cpumask_zero(&mask);
	odp_cpumask_set(&mask, 0);
	odp_cpumask_set(&mask, 5);
	odp_cpumask_set(&mask, 64);
	CHECK(odp_cpumask_to_str(&mask, str, sizeof(str)) > 0);
	CHECK(strcmp(str, "0x10000000000000021") == 0);
	odp_cpumask_zero(&mask2);
	odp_cpumask_from_str(&mask2, str);
	CHECK(odp_cpumask_equal(&mask, &mask2));
	CHECK(odp_cpumask_first(&mask) == 0 && odp_cpumask_next(&mask, 0) == 5);
	CHECK(odp_cpumask_last(&mask) == 64 && odp_cpumask_count(&mask) == 3);
	CHECK(odp_cpumask_to_str(&mask, str, 4) < 0);
	CHECK(odp_cpu_id() >= 0);
	odp_prefetch(str);
	odp_prefetch_store(str);
	CHECK(odp_be_to_cpu_16(odp_cpu_to_be_16(0x1234)) == 0x1234);
	CHECK(odp_be_to_cpu_32(odp_cpu_to_be_32(0x12345678)) == 0x12345678);
	CHECK(odp_likely(1) && !odp_unlikely(0));
	CHECK(ODP_CACHE_LINE_SIZE >= 64);
	CHECK(odp_version_api_str() != NULL);
}

int main(void)
{
	odp_pool_param_t param;
	odp_pool_t pool;
	odp_instance_t inst;

	instance = test_init(MAX_WORKERS, 1);
	CHECK(odp_thread_id() == 0);
	CHECK(odp_thread_count() == 1);
	CHECK(odp_thread_count_max() == MAX_WORKERS + 1);
	CHECK(odp_thread_type() == ODP_THREAD_CONTROL);
	CHECK(odp_init_global(&inst, NULL, NULL) < 0);

	odp_pool_param_init(&param);
	param.type = ODP_POOL_PACKET;
	param.pkt.num = NUM_PKTS;
	param.pkt.len = 1500;
	param.pkt.uarea_size = 32;
	pool = odp_pool_create("test_pool", &param);
	CHECK(pool != ODP_POOL_INVALID);

	test_packet_basics(pool);
	test_pool_limits(pool);
	CHECK(odp_pool_destroy(pool) == 0);
	CHECK(odp_pool_destroy(pool) < 0);
	test_threads();
	test_atomics_and_locks();
	test_shm();
	test_time_and_cpu();
	test_term(instance);

	/* A second instance; leaked resources make odp_term_global() fail. */
	instance = test_init(0, 0);
	pool = test_pool("leaky", 8, 128);
	CHECK(odp_packet_alloc(pool, 10) != ODP_PACKET_INVALID);
	CHECK(odp_shm_reserve("leaky", 100, 0, 0) != ODP_SHM_INVALID);
	CHECK(odp_term_local() == 0);
	CHECK(odp_term_global(instance) < 0);
	printf("odp_test_pool: OK\n");
	return 0;
}
