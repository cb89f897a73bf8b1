/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * libFuzzer harness for the model-file loader (bl_model_load, and through
 * it the stump plugin's hypothesis parser).  Byte 0 picks the mode: odd,
 * the rest of the input gets a correct final "crc32" line (an existing one
 * is replaced), so mutations get past the checksum into the parser; even,
 * the rest is loaded as it is (checksum and framing checks).  A loaded
 * model must be consistent, must save, and must load again to the same
 * shape; a failed load must name the file.
 */
#include <zlib.h>

#include "engine/model.h"
#include "fuzz_common.h"

static char path[300], again[300];

static void check_model(const bl_model *mo)
{
    if (!mo->weak || mo->k < 2 || !mo->class_names || (mo->d && !mo->feature_names))
        abort();
    for (size_t j = 0; j < mo->k; j++)
        if (!mo->class_names[j])
            abort();
    for (size_t j = 0; j < mo->d; j++)
        if (!mo->feature_names[j])
            abort();
    for (size_t j = 0; j < mo->t; j++)
        if (!mo->term[j].hyp || (mo->term[j].outdim != 1 && mo->term[j].outdim != mo->k))
            abort();
}

/* data with its last "crc32 ..." line (if any) replaced by a correct one. */
static uint8_t *with_crc(const uint8_t *data, size_t size, size_t *out_size)
{
    size_t end = size;
    if (end && data[end - 1] == '\n')
        end--;
    size_t start = end; /* of the last line */
    while (start > 0 && data[start - 1] != '\n')
        start--;
    size_t body = end - start >= 6 && !memcmp(data + start, "crc32 ", 6) ? start : size;
    uint8_t *buf = malloc(body + 32);
    memcpy(buf, data, body);
    if (body && buf[body - 1] != '\n')
        buf[body++] = '\n';
    uLong crc = crc32(0L, buf, (uInt)body);
    int n = snprintf((char *)buf + body, 32, "crc32 %08lx\n", (unsigned long)crc);
    *out_size = body + (size_t)n;
    return buf;
}

/* Load the plugins before fuzzing starts, so libFuzzer counts their
 * instrumented code as modules from the first input on. */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fuzz_registry();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const bl_registry *reg = fuzz_registry();
    if (!path[0]) {
        fuzz_path(path, sizeof path, "input.model");
        fuzz_path(again, sizeof again, "again.model");
    }
    if (size < 1)
        return 0;
    if (data[0] & 1) {
        size_t n;
        uint8_t *buf = with_crc(data + 1, size - 1, &n);
        fuzz_write(path, buf, n);
        free(buf);
    } else {
        fuzz_write(path, data + 1, size - 1);
    }

    bl_model mo, mo2;
    bl_error err;
    if (bl_model_load(path, reg, &mo, &err) < 0) {
        fuzz_check_msg(&err, path, NULL);
        if (mo.term || mo.class_names || mo.k)
            abort();
        return 0;
    }
    check_model(&mo);
    if (bl_model_save(&mo, again, &err) < 0) {
        fprintf(stderr, "a loaded model does not save: %s\n", err.msg);
        abort();
    }
    if (bl_model_load(again, reg, &mo2, &err) < 0) {
        fprintf(stderr, "a saved model does not load again: %s\n", err.msg);
        abort();
    }
    if (mo2.k != mo.k || mo2.d != mo.d || mo2.t != mo.t || mo2.weak != mo.weak)
        abort();
    bl_model_free(&mo2);
    bl_model_free(&mo);
    return 0;
}
