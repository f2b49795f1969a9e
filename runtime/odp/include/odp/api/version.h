/* Bundled ODP: API version (odp/api/version.h). */
#ifndef ODP_BUNDLED_API_VERSION_H_
#define ODP_BUNDLED_API_VERSION_H_

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The API version whose subset this implementation follows. Code that needs
 * a newer call than the bundled ODP offers should test ODP_VERSION_API.
 */
#define ODP_VERSION_API_GENERATION 1
#define ODP_VERSION_API_MAJOR      45
#define ODP_VERSION_API_MINOR      0

#define ODP_VERSION_API_NUM(gen, ma, mi) ((gen) << 24 | (ma) << 16 | (mi) << 8)
#define ODP_VERSION_API ODP_VERSION_API_NUM(ODP_VERSION_API_GENERATION, \
					    ODP_VERSION_API_MAJOR, \
					    ODP_VERSION_API_MINOR)

/** API version as a string, "generation.major.minor". */
const char *odp_version_api_str(void);
/** Implementation name ("odp-bundled"). */
const char *odp_version_impl_name(void);
/** Implementation version string. */
const char *odp_version_impl_str(void);

#ifdef __cplusplus
}
#endif

#endif
