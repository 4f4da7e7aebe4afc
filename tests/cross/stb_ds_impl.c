/* tests/cross/stb_ds_impl.c: stb_ds's functions for the cross-architecture build of the
 * determinism test (the native builds link Debian's libstb; there is no arm64 one to link). */
#define STB_DS_IMPLEMENTATION
#include <stb_ds.h>
