/* Bundled ODP: compiler hints (odp/api/hints.h). */
#ifndef ODP_BUNDLED_API_HINTS_H_
#define ODP_BUNDLED_API_HINTS_H_

#if defined(__GNUC__) || defined(__clang__)

#define ODP_NORETURN            __attribute__((__noreturn__))
#define ODP_WEAK_SYMBOL         __attribute__((__weak__))
#define ODP_HOT_CODE            __attribute__((__hot__))
#define ODP_COLD_CODE           __attribute__((__cold__))
#define ODP_PRINTF_FORMAT(x, y) __attribute__((format(printf, (x), (y))))
#define ODP_UNUSED              __attribute__((__unused__))

/** Branch prediction: the condition is most likely true. */
#define odp_likely(x)   __builtin_expect(!!(x), 1)
/** Branch prediction: the condition is most likely false. */
#define odp_unlikely(x) __builtin_expect(!!(x), 0)

#else

#define ODP_NORETURN
#define ODP_WEAK_SYMBOL
#define ODP_HOT_CODE
#define ODP_COLD_CODE
#define ODP_PRINTF_FORMAT(x, y)
#define ODP_UNUSED
#define odp_likely(x)   (x)
#define odp_unlikely(x) (x)

#endif

#endif
