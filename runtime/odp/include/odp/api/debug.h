/* Bundled ODP: debug helpers (odp/api/debug.h). */
#ifndef ODP_BUNDLED_API_DEBUG_H_
#define ODP_BUNDLED_API_DEBUG_H_

/** Compile time assertion: fails the build with 'msg' when 'cond' is false. */
#if defined(__cplusplus)
#define ODP_STATIC_ASSERT(cond, msg) static_assert(cond, msg)
#else
#define ODP_STATIC_ASSERT(cond, msg) _Static_assert(cond, msg)
#endif

#endif
