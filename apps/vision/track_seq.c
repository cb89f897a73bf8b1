/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Tracking sequences on disk (track.h): frame files and groundtruth.txt,
 * read strictly: every problem names FILE:LINE and the field. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/fsutil.h"
#include "track.h"

static int is_frame(const char *name)
{
    const char *dot = strrchr(name, '.');
    return dot && dot != name &&
           (!strcasecmp(dot, ".png") || !strcasecmp(dot, ".jpg") || !strcasecmp(dot, ".jpeg"));
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

void bl_seq_free(bl_seq *s)
{
    for (size_t i = 0; i < s->n; i++)
        free(s->frame[i]);
    free(s->frame);
    free(s->gt);
    free(s->dir);
    memset(s, 0, sizeof *s);
}

static const char *const field_names[4] = {"x", "y", "w", "h"};

/* One "x y w h" line (blanks or commas between the fields). */
static int parse_box(const char *path, int line, char *text, bl_box *b, bl_error *err)
{
    double v[4];
    char *p = text;
    for (int j = 0; j < 4; j++) {
        p += strspn(p, " \t,");
        char *tok = p;
        p += strcspn(p, " \t,\r\n");
        char save = *p;
        *p = 0;
        char *end;
        errno = 0;
        v[j] = tok[0] ? strtod(tok, &end) : 0;
        if (!tok[0])
            return bl_errf(err, "%s:%d: field %d (%s): missing (expected 'x y w h')", path, line,
                           j + 1, field_names[j]);
        if (*end || errno == ERANGE || v[j] != v[j] || v[j] > 1e6 || v[j] < -1e6 ||
            (j >= 2 && !(v[j] >= 1)))
            return bl_errf(err, "%s:%d: field %d (%s): expected %s, got '%s'", path, line, j + 1,
                           field_names[j], j >= 2 ? "a size >= 1" : "a number", tok);
        *p = save;
    }
    p += strspn(p, " \t,\r\n");
    if (*p)
        return bl_errf(err, "%s:%d: unexpected text after 'x y w h': '%.40s'", path, line, p);
    *b = (bl_box){v[0], v[1], v[2], v[3]};
    return 0;
}

int bl_seq_load(const char *dir, bl_seq *s, bl_error *err)
{
    memset(s, 0, sizeof *s);
    DIR *d = opendir(dir);
    if (!d)
        return bl_errf(err, "%s: not a readable sequence directory (%s)", dir, strerror(errno));
    s->dir = bl_strdup(dir);
    size_t cap = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.' || !is_frame(e->d_name))
            continue;
        if (s->n == cap) {
            cap = cap ? 2 * cap : 256;
            s->frame = bl_xrealloc(s->frame, cap * sizeof *s->frame);
        }
        s->frame[s->n++] = bl_path_join(dir, e->d_name);
    }
    closedir(d);
    if (!s->n) {
        bl_seq_free(s);
        return bl_errf(err, "%s: no frame images (*.png, *.jpg) in the sequence directory", dir);
    }
    qsort(s->frame, s->n, sizeof *s->frame, cmp_str);
    char *gp = bl_path_join(dir, "groundtruth.txt");
    FILE *f = fopen(gp, "r");
    if (!f) {
        bl_errf(err, "%s: cannot read the ground truth (%s)", gp, strerror(errno));
        free(gp);
        bl_seq_free(s);
        return -1;
    }
    s->gt = bl_xmalloc(s->n * sizeof *s->gt);
    char buf[1024];
    size_t got = 0;
    int line = 0, rc = 0;
    while (rc == 0 && fgets(buf, sizeof buf, f)) {
        line++;
        if (buf[strspn(buf, " \t\r\n")] == 0)
            continue;
        if (got == s->n) {
            rc = bl_errf(err, "%s:%d: more boxes than the %zu frames", gp, line, s->n);
            break;
        }
        rc = parse_box(gp, line, buf, &s->gt[got], err);
        got++;
    }
    fclose(f);
    if (rc == 0 && got < s->n)
        rc = bl_errf(err, "%s:%d: %zu boxes for %zu frames (one 'x y w h' line per frame)", gp,
                     line, got, s->n);
    free(gp);
    if (rc < 0)
        bl_seq_free(s);
    return rc;
}
