/* SPDX-License-Identifier: GPL-3.0-or-later */
/* IDX reader (the MNIST / Fashion-MNIST format): a big-endian header
 * 00 00 TYPE NDIM, NDIM 32-bit sizes, then the items.  Only unsigned bytes
 * (TYPE 0x08) are read.  zlib reads gzip and plain files alike.  Images are
 * read a block at a time and transposed straight into the feature-major
 * matrix, so no row-major copy of the whole set is ever held. */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>

#include "../util/fsutil.h"
#include "../util/textio.h"
#include "dataset.h"

#define BL_DENSE_MAX ((size_t)1 << 31)
#define IDX_MAX_DIMS 8

typedef struct idx_file {
    gzFile gz;
    const char *path;
    unsigned ndim;
    uint32_t dims[IDX_MAX_DIMS];
    size_t offset;  /* bytes of decompressed data consumed */
    size_t limit;   /* most data bytes the file can hold (see idx_open) */
} idx_file;

/* Read up to n bytes; returns how many were read (short at end of data), or
 * (size_t)-1 with err set on corrupt or truncated gzip data. */
static size_t read_some(idx_file *f, void *buf, size_t n, bl_error *err)
{
    size_t got = 0;
    while (got < n) {
        size_t want = n - got > INT_MAX ? INT_MAX : n - got;
        int r = gzread(f->gz, (char *)buf + got, (unsigned)want);
        int zerr = Z_OK;
        const char *zmsg = gzerror(f->gz, &zerr);
        if (r < 0 || (zerr != Z_OK && zerr != Z_BUF_ERROR)) {
            bl_errf(err, "%s: %s at or after byte offset %zu: %s", f->path,
                    zerr == Z_ERRNO ? "read error" : "corrupt gzip data", f->offset + got,
                    bl_zlib_msg(f->path, zmsg, zerr));
            return (size_t)-1;
        }
        if (r == 0) {
            if (zerr == Z_BUF_ERROR) {
                bl_errf(err, "%s: truncated gzip stream (unexpected end of file after %zu "
                        "bytes of data)", f->path, f->offset + got);
                return (size_t)-1;
            }
            break;
        }
        got += (size_t)r;
    }
    f->offset += got;
    return got;
}

static const char *type_name(unsigned t)
{
    switch (t) {
    case 0x08: return "unsigned byte";
    case 0x09: return "signed byte";
    case 0x0B: return "short";
    case 0x0C: return "int";
    case 0x0D: return "float";
    case 0x0E: return "double";
    default: return "unknown type";
    }
}

/* Open an IDX file and read its header; labels: want one dimension,
 * images: at least two (count + item shape). */
static int idx_open(idx_file *f, const char *path, int labels, bl_error *err)
{
    memset(f, 0, sizeof *f);
    f->path = path;
    struct stat st;
    if (stat(path, &st) != 0)
        return bl_errf(err, "%s: %s", path, strerror(errno));
    if (S_ISDIR(st.st_mode))
        return bl_errf(err, "%s: is a directory, not an IDX file", path);
    f->gz = gzopen(path, "rb");
    if (!f->gz)
        return bl_errf(err, "%s: %s", path, errno ? strerror(errno) : "cannot open");
    gzbuffer(f->gz, 256 * 1024);
    unsigned char h[4 * (IDX_MAX_DIMS + 1)];
    size_t got = read_some(f, h, 4, err);
    if (got == (size_t)-1)
        return -1;
    if (got < 4)
        return bl_errf(err, "%s: truncated: expected a 4-byte IDX header, the file holds %zu "
                       "bytes", path, got);
    uint32_t magic = (uint32_t)h[0] << 24 | (uint32_t)h[1] << 16 | (uint32_t)h[2] << 8 | h[3];
    const char *what = labels ? "an IDX label file (magic 0x00000801)"
                              : "an IDX image file (magic 0x00000803, or 0x000008NN with NN >= 2)";
    if (h[0] || h[1])
        return bl_errf(err, "%s: not an IDX file: expected %s, got magic 0x%08x", path, what,
                       (unsigned)magic);
    if (h[2] != 0x08)
        return bl_errf(err, "%s: IDX data type 0x%02x (%s) is not supported: expected %s of "
                       "unsigned bytes (type 0x08)", path, h[2], type_name(h[2]), what);
    f->ndim = h[3];
    if (labels ? f->ndim != 1 : f->ndim < 2 || f->ndim > IDX_MAX_DIMS)
        return bl_errf(err, "%s: expected %s, got magic 0x%08x (%u dimension%s)", path, what,
                       (unsigned)magic, f->ndim, f->ndim == 1 ? "" : "s");
    got = read_some(f, h, 4 * f->ndim, err);
    if (got == (size_t)-1)
        return -1;
    if (got < 4 * f->ndim)
        return bl_errf(err, "%s: truncated at byte offset %zu: expected %u dimension sizes in "
                       "the header", path, f->offset, f->ndim);
    for (unsigned j = 0; j < f->ndim; j++) {
        const unsigned char *b = h + 4 * j;
        f->dims[j] = (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
    }
    /* Fuzzing found that a 12-byte header announcing 4e9 items made the
     * reader allocate gigabytes before noticing the data is missing.  So
     * bound what the file can hold: its own size when plain, 1032 times
     * that when gzip (deflate's largest ratio); pipes are not bounded. */
    f->limit = SIZE_MAX;
    if (S_ISREG(st.st_mode)) {
        size_t size = (size_t)st.st_size;
        if (gzdirect(f->gz))
            f->limit = size > f->offset ? size - f->offset : 0;
        else
            f->limit = size > SIZE_MAX / 1032 ? SIZE_MAX : size * 1032;
    }
    return 0;
}

static void idx_close(idx_file *f)
{
    if (f->gz)
        gzclose(f->gz);
    f->gz = NULL;
}

/* After the last item: more data is an error, and so is a gzip stream
 * whose end (trailer) is missing. */
static int idx_check_end(idx_file *f, const char *items, size_t n, bl_error *err)
{
    unsigned char c;
    size_t got = read_some(f, &c, 1, err);
    if (got == (size_t)-1)
        return -1;
    if (got)
        return bl_errf(err, "%s: unexpected data at byte offset %zu, after the %zu %s the "
                       "header announces", f->path, f->offset - 1, n, items);
    return 0;
}

int bl_read_idx(const char *images, const char *labels, bl_classes *classes, bl_dataset *out,
                bl_error *err)
{
    memset(out, 0, sizeof *out);
    idx_file fi = {0}, fl = {0};
    unsigned char *lab = NULL, *chunk = NULL;
    bl_labels *L = NULL;
    size_t m = 0, d = 1;
    /* The table built from the labels goes to *classes only on success:
     * the pixels are read after it is built and can still fail (fuzzing
     * found it leaked then, and the caller got a table with an error). */
    bl_classes built = {0};

    /* Labels first: small, and their count is checked against the images. */
    if (idx_open(&fl, labels, 1, err) < 0)
        goto fail;
    m = fl.dims[0];
    /* No more than the file can hold: a shorter read then reports where
     * the data really ends, as for any truncated file. */
    size_t room = m < fl.limit ? m : fl.limit;
    lab = bl_xmalloc(room);
    size_t got = read_some(&fl, lab, room, err);
    if (got == (size_t)-1)
        goto fail;
    if (got < m) {
        bl_errf(err, "%s: truncated at byte offset %zu: the header announces %zu labels, the "
                "data ends at item %zu", labels, fl.offset, m, got);
        goto fail;
    }
    if (idx_check_end(&fl, "labels", m, err) < 0)
        goto fail;
    idx_close(&fl);

    if (idx_open(&fi, images, 0, err) < 0)
        goto fail;
    if (fi.dims[0] != m) {
        bl_errf(err, "%s: %u images, but %s has %zu labels (the counts must agree)", images,
                (unsigned)fi.dims[0], labels, m);
        goto fail;
    }
    for (unsigned j = 1; j < fi.ndim; j++) {
        d *= fi.dims[j];
        if (d == 0 || d > BL_DENSE_MAX) {
            bl_errf(err, "%s: image size %zu (product of the dimensions after the count) "
                    "must be between 1 and %zu", images, d, BL_DENSE_MAX);
            goto fail;
        }
    }
    if (m == 0) {
        bl_errf(err, "%s: no items (the header announces 0 images)", images);
        goto fail;
    }
    if (m > BL_DENSE_MAX / d) {
        bl_errf(err, "%s: %zu images of %zu pixels is too large to hold in memory", images, m,
                d);
        goto fail;
    }

    /* Map labels: each byte value once, in ascending order, then per item. */
    L = bl_labels_new(classes);
    int id_of[256];
    size_t first[256];
    for (int v = 0; v < 256; v++)
        first[v] = SIZE_MAX;
    for (size_t i = 0; i < m; i++)
        if (first[lab[i]] == SIZE_MAX)
            first[lab[i]] = i;
    for (int v = 0; v < 256; v++) {
        if (first[v] == SIZE_MAX)
            continue;
        char s[16];
        snprintf(s, sizeof s, "%d", v);
        if (bl_labels_add(L, s, first[v], &id_of[v], err) < 0) {
            bl_errprefix(err, "%s: item %zu (counting from 0)", labels, first[v]);
            goto fail;
        }
    }
    out->y = bl_xmalloc(m * sizeof *out->y);
    for (size_t i = 0; i < m; i++)
        out->y[i] = id_of[lab[i]];
    free(lab);
    lab = NULL;
    size_t bad = 0;
    if (bl_labels_finish(L, out->y, m, classes ? &built : NULL, out, &bad, err) < 0) {
        bl_errprefix(err, "%s: item %zu (counting from 0)", labels, bad);
        goto fail;
    }

    /* A file that cannot hold the images (see idx_open) is truncated: find
     * where its data ends without allocating the matrix. */
    if (m * d > fi.limit) {
        size_t start = fi.offset, total = 0;
        unsigned char buf[4096];
        while ((got = read_some(&fi, buf, sizeof buf, err)) == sizeof buf)
            total += got;
        if (got == (size_t)-1)
            goto fail;
        total += got;
        bl_errf(err, "%s: truncated at byte offset %zu: the header announces %zu images "
                "of %zu bytes, the data ends inside image %zu", images, start + total, m, d,
                total / d);
        goto fail;
    }

    /* Pixels, a block of images at a time (about 1 MiB). */
    out->x = bl_xmalloc(m * d * sizeof *out->x);
    size_t block = (1u << 20) / d ? (1u << 20) / d : 1;
    chunk = bl_xmalloc(block * d);
    for (size_t i0 = 0; i0 < m; i0 += block) {
        size_t nb = m - i0 < block ? m - i0 : block;
        size_t start = fi.offset;
        got = read_some(&fi, chunk, nb * d, err);
        if (got == (size_t)-1)
            goto fail;
        if (got < nb * d) {
            bl_errf(err, "%s: truncated at byte offset %zu: the header announces %zu images "
                    "of %zu bytes, the data ends inside image %zu", images, start + got, m, d,
                    i0 + got / d);
            goto fail;
        }
        for (size_t f = 0; f < d; f++) {
            float *dst = out->x + f * m + i0;
            const unsigned char *src = chunk + f;
            for (size_t i = 0; i < nb; i++)
                dst[i] = (float)src[i * d];
        }
    }
    if (idx_check_end(&fi, "images", m, err) < 0)
        goto fail;
    idx_close(&fi);
    free(chunk);
    bl_labels_free(L);
    out->m = m;
    out->d = d;
    out->feature_names = bl_xmalloc(d * sizeof *out->feature_names);
    for (size_t f = 0; f < d; f++) {
        char b[32];
        snprintf(b, sizeof b, "px%zu", f);
        out->feature_names[f] = bl_strdup(b);
    }
    if (built.fixed)
        *classes = built;
    return 0;

fail:
    bl_classes_free(&built);
    idx_close(&fl);
    idx_close(&fi);
    free(lab);
    free(chunk);
    bl_labels_free(L);
    bl_dataset_free(out);
    return -1;
}
