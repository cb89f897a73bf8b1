/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The C shim over libmaxflow's Boykov-Kolmogorov max-flow (graphcut.h). */
#include "graphcut.h"

#include <maxflow.h>
#include <new>

extern "C" int bl_graphcut(size_t n, const double *d, size_t ne, const uint32_t *ep,
                           const uint32_t *eq, const double *theta, uint8_t *y)
{
    for (size_t e = 0; e < ne; e++)
        if (!(theta[e] >= 0.0) || ep[e] >= n || eq[e] >= n)
            return -1;
    try {
        maxflow::Graph_DDD g((int)n, (int)ne);
        g.add_node((int)n);
        for (size_t p = 0; p < n; p++) {
            double d0 = d[2 * p], d1 = d[2 * p + 1], m = d0 < d1 ? d0 : d1;
            /* cap_source is paid when p ends on the sink side (label 1) */
            g.add_tweights((int)p, d1 - m, d0 - m);
        }
        for (size_t e = 0; e < ne; e++)
            if (theta[e] > 0.0)
                g.add_edge((int)ep[e], (int)eq[e], theta[e], theta[e]);
        g.maxflow();
        for (size_t p = 0; p < n; p++)
            y[p] = g.what_segment((int)p) == maxflow::Graph_DDD::SOURCE ? 0 : 1;
    } catch (...) {
        return -1;
    }
    return 0;
}
