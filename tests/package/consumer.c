/* A program outside the library, built against an installed or embedded ricochet by
 * tests/package/check_packaging.sh. Exits 0 when the library answers as documented. */
#include <ricochet/ricochet.h>

#include <math.h>
#include <stdio.h>

int main(void) {
    rc_ray_hit hit;
    /* From (-5, 0) along (10, 0) into the unit circle at the origin: enters at x = -1. */
    bool ok = rc_ray_circle(rc_v2(-5.0f, 0.0f), rc_v2(10.0f, 0.0f), rc_v2(0.0f, 0.0f), 1.0f, &hit);
    /* rc_length is inline in <ricochet/math.h> and calls sqrtf: this needs libm linked. */
    float normal_length = ok ? rc_length(hit.normal) : 0.0f;
    printf("ricochet %d.%d.%d: rc_ray_circle hit=%d t=%.4f point=(%.4f, %.4f) normal=(%.4f, %.4f) |normal|=%.4f\n",
           RC_VERSION_MAJOR, RC_VERSION_MINOR, RC_VERSION_PATCH, ok ? 1 : 0, ok ? hit.t : 0.0f,
           ok ? hit.point.x : 0.0f, ok ? hit.point.y : 0.0f, ok ? hit.normal.x : 0.0f, ok ? hit.normal.y : 0.0f,
           normal_length);
    if (!ok || fabsf(hit.t - 0.4f) > 1e-5f || fabsf(hit.point.x + 1.0f) > 1e-5f || fabsf(hit.point.y) > 1e-5f ||
        fabsf(hit.normal.x + 1.0f) > 1e-5f || fabsf(hit.normal.y) > 1e-5f || fabsf(normal_length - 1.0f) > 1e-5f) {
        fprintf(stderr, "consumer: unexpected answer from rc_ray_circle\n");
        return 1;
    }
    return 0;
}
