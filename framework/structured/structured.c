/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Task metrics of class predictions (structured.h). */
#include "structured.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../util/fsutil.h"
#include "sinst.h"

int bl_task_metrics_of_classes(const bl_paramset *task, const bl_dataset *ds, const int *pred,
                               double **values, char ***names, size_t *n, bl_error *err)
{
    bl_sinst s;
    if (bl_sinst_open(&s, task, ds, 0, err) < 0)
        return -1;
    if (!s.ops->label_is_class || s.lbytes != sizeof(int32_t) || s.m != ds->m) {
        bl_sinst_close(&s);
        return bl_errf(err, "task %s does not label examples by class, so it cannot score a "
                       "multi-class algorithm's predictions", task->plugin->name);
    }
    int32_t *p = bl_xmalloc((ds->m ? ds->m : 1) * sizeof *p);
    for (size_t i = 0; i < ds->m; i++)
        p[i] = pred[i];
    *values = bl_xmalloc(s.nmetrics * sizeof **values);
    s.ops->evaluate(s.inst, NULL, p, *values);
    free(p);
    *n = s.nmetrics;
    *names = s.metric;
    s.metric = NULL;
    s.nmetrics = 0;
    bl_sinst_close(&s);
    return 0;
}
