/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Regression tests for inputs that once crashed or misbehaved a reader
 * (found by the fuzzers in fuzz/, see fuzz/README.md): each input is
 * written to a temporary file from the bytes below and must now be refused
 * cleanly, with a message naming the file (or, where the bug was dropping
 * data silently, be read in full).  Tests of allocations sized by a
 * header run with at most 1 GiB of address space to spare, so that the old
 * behaviour (asking for gigabytes, which Linux may grant lazily) aborts the
 * test instead of passing unnoticed. */
#include <stdint.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config/experiment.h"
#include "config/ini.h"
#include "data/dataset.h"
#include "engine/model.h"
#include "plugin/loader.h"
#include "testutil.h"

/* ---- helpers ----------------------------------------------------------- */

static char dir[64];

static void make_dir(void)
{
    snprintf(dir, sizeof dir, "/tmp/bl-regress-XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
}

static void remove_dir(void)
{
    static const char *names[] = {"in.csv", "in.svm", "images", "labels", "exp.ini",
                                  "in.model"};
    char p[128];
    for (size_t j = 0; j < sizeof names / sizeof *names; j++) {
        snprintf(p, sizeof p, "%s/%s", dir, names[j]);
        unlink(p);
    }
    rmdir(dir);
}

TestSuite(regress, .init = make_dir, .fini = remove_dir);

/* Write n bytes to DIR/name; the path goes to a static buffer per slot. */
static const char *put(int slot, const char *name, const void *data, size_t n)
{
    static char paths[2][128];
    snprintf(paths[slot], sizeof paths[slot], "%s/%s", dir, name);
    FILE *f = fopen(paths[slot], "wb");
    cr_assert_not_null(f);
    cr_assert_eq(fwrite(data, 1, n, f), n);
    fclose(f);
    return paths[slot];
}

#define PUT(slot, name, bytes) put(slot, name, bytes, sizeof bytes - 1)

/* A reader that allocates what a header announces without checking would
 * need gigabytes here: make that fail (bl_xmalloc then aborts the test).
 * The limit is 1 GiB above what the process has mapped already, which is
 * a lot under a sanitizer's shadow memory or valgrind. */
static void limit_memory(void)
{
#if defined(__SANITIZE_ADDRESS__)
    /* ASan reserves terabytes of address space for its shadow memory, so
     * under RLIMIT_AS every later mmap fails; scripts/test.sh caps single
     * allocations with ASAN_OPTIONS=max_allocation_size_mb=1024 instead. */
    return;
#endif
    unsigned long pages = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    cr_assert_not_null(f);
    cr_assert_eq(fscanf(f, "%lu", &pages), 1);
    fclose(f);
    struct rlimit rl;
    cr_assert_eq(getrlimit(RLIMIT_AS, &rl), 0);
    rlim_t want = (rlim_t)pages * (rlim_t)sysconf(_SC_PAGESIZE) + ((rlim_t)1 << 30);
    if (rl.rlim_max == RLIM_INFINITY || want < rl.rlim_max)
        rl.rlim_max = want;
    rl.rlim_cur = rl.rlim_max;
    cr_assert_eq(setrlimit(RLIMIT_AS, &rl), 0);
}

#define ASSERT_ERR_NAMES(err, path, text)                                                  \
    do {                                                                                   \
        cr_assert_not_null(strstr((err).msg, path), "message does not name %s: %s", path, \
                           (err).msg);                                                     \
        cr_assert_not_null(strstr((err).msg, text), "expected '%s' in: %s", text,          \
                           (err).msg);                                                     \
    } while (0)

/* CRC-32 (zlib's polynomial), for model files with a valid checksum. */
static uint32_t crc32_of(const char *s, size_t n)
{
    uint32_t c = 0xFFFFFFFFu;
    for (size_t i = 0; i < n; i++) {
        c ^= (unsigned char)s[i];
        for (int b = 0; b < 8; b++)
            c = c & 1 ? (c >> 1) ^ 0xEDB88320u : c >> 1;
    }
    return c ^ 0xFFFFFFFFu;
}

/* body plus its "crc32" line, written as in.model. */
static const char *put_model(const char *body)
{
    char buf[8192];
    size_t n = strlen(body);
    cr_assert_lt(n + 32, sizeof buf);
    memcpy(buf, body, n);
    n += (size_t)snprintf(buf + n, sizeof buf - n, "crc32 %08x\n", crc32_of(body, n));
    return put(0, "in.model", buf, n);
}

/* ---- IDX --------------------------------------------------------------- */

static const char small_labels[] = "\x00\x00\x08\x01\x00\x00\x00\x05\x00\x02\x01\x02\x00";

/* fuzz_idx, LeakSanitizer: the class table built from the labels was
 * handed to the caller before the pixels were read, so a truncated image
 * file returned -1 with a table the caller does not free (a leak), and a
 * half-filled result. */
Test(regress, idx_truncated_images_leave_class_table_empty)
{
    const char *lab = PUT(0, "labels", small_labels);
    /* 5 images of 2x3 announced, 2 bytes of pixels present */
    const char *img = PUT(1, "images", "\x00\x00\x08\x03\x00\x00\x00\x05\x00\x00\x00\x02"
                                       "\x00\x00\x00\x03\x07\x08");
    bl_classes built = {0};
    bl_dataset ds;
    bl_error err;
    cr_assert_eq(bl_read_idx(img, lab, &built, &ds, &err), -1);
    ASSERT_ERR_NAMES(err, img, "truncated at byte offset 18");
    cr_assert_eq(built.k, 0, "a class table was handed out with the error");
    cr_assert_null(built.names);
    cr_assert_null(ds.x);
}

/* fuzz_idx (with ASan's allocation cap): a 60-byte input whose image
 * header announces 5 images of 2 x 67108864 pixels made the reader
 * allocate 2.5 GiB for the matrix before finding the data missing. */
Test(regress, idx_huge_image_header_allocates_nothing_big)
{
    limit_memory();
    const char *lab = PUT(0, "labels", small_labels);
    const char *img = PUT(1, "images", "\x00\x00\x08\x03\x00\x00\x00\x05\x00\x00\x00\x02"
                                       "\x04\x00\x00\x00\x00\x01\xff\xff\xff\xff\xff\xff"
                                       "\xff\x08\x02\x03\x04\x05\x0a\x0b\x0c\x0d\x0e\x0f"
                                       "\x14\x15\x16\x17\x18\x19\x1e\x1f\x20\x21");
    bl_dataset ds;
    bl_error err;
    cr_assert_eq(bl_read_idx(img, lab, NULL, &ds, &err), -1);
    ASSERT_ERR_NAMES(err, img, "truncated at byte offset 46");
    cr_assert(strstr(err.msg, "inside image 0"), "%s", err.msg);
}

/* Same bug for the labels: an 8-byte header announcing 4e9 labels made the
 * reader allocate 4 GiB; a gzip-compressed one too (the bound is then
 * what deflate can expand the file to). */
Test(regress, idx_huge_label_count_allocates_nothing_big)
{
    limit_memory();
    const char *img = PUT(1, "images", "\x00\x00\x08\x03\x00\x00\x00\x05\x00\x00\x00\x01"
                                       "\x00\x00\x00\x01\x01\x02\x03\x04\x05");
    const char *lab = PUT(0, "labels", "\x00\x00\x08\x01\xff\xff\xff\xff");
    bl_dataset ds;
    bl_error err;
    cr_assert_eq(bl_read_idx(img, lab, NULL, &ds, &err), -1);
    ASSERT_ERR_NAMES(err, lab, "announces 4294967295 labels, the data ends at item 0");

    static const unsigned char gz[] = {
        0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x03, 0x63, 0x60, 0xe0, 0x60,
        0xfc, 0xc0, 0xc0, 0xc0, 0x00, 0x00, 0x13, 0x62, 0x77, 0x32, 0x08, 0x00, 0x00, 0x00};
    lab = put(0, "labels", gz, sizeof gz); /* 00 00 08 01 f0 00 00 00, gzip'd */
    cr_assert_eq(bl_read_idx(img, lab, NULL, &ds, &err), -1);
    ASSERT_ERR_NAMES(err, lab, "announces 4026531840 labels, the data ends at item 0");
}

/* ---- model files -------------------------------------------------------- */

static bl_registry reg;

static void load_plugins(void)
{
    bl_error err;
    cr_assert_eq(bl_registry_load_dir(&reg, BL_BUILD_DIR "/plugins", 1, &err), 0, "%s",
                 err.msg);
}

/* fuzz_model (correct-CRC mode): "features 268435456" in a 100-byte file
 * made the loader allocate 2 GiB for feature names that are not there. */
Test(regress, model_feature_count_beyond_the_file)
{
    load_plugins();
    limit_memory();
    const char *path = put_model("boostlab-model 1\nsdk 1.1\nweak stump\nclasses 2\nclass a\n"
                                 "class b\nfeatures 268435456\nfeature x\nterms 0\n");
    bl_model mo;
    bl_error err;
    cr_assert_eq(bl_model_load(path, &reg, &mo, &err), -1);
    ASSERT_ERR_NAMES(err, path, ":7: features 268435456: file ends early");
    cr_assert_null(mo.feature_names);
    bl_registry_free(&reg);
}

/* The same for the class count (up to 2^20 names were allocated, one by
 * one, before the first missing line was noticed). */
Test(regress, model_class_count_beyond_the_file)
{
    load_plugins();
    const char *path = put_model("boostlab-model 1\nsdk 1.1\nweak stump\nclasses 1000000\n"
                                 "class a\nclass b\nfeatures 0\nterms 0\n");
    bl_model mo;
    bl_error err;
    cr_assert_eq(bl_model_load(path, &reg, &mo, &err), -1);
    ASSERT_ERR_NAMES(err, path, ":4: classes 1000000: file ends early");
    bl_registry_free(&reg);
}

/* Found while fixing the above: "code HDIM" in a term line sized an array
 * of K x HDIM numbers (up to 2^40) before reading them. */
Test(regress, model_code_size_beyond_the_line)
{
    load_plugins();
    limit_memory();
    char body[8192];
    int n = snprintf(body, sizeof body, "boostlab-model 1\nsdk 1.1\nweak stump\nclasses 200\n");
    for (int c = 0; c < 200; c++)
        n += snprintf(body + n, sizeof body - (size_t)n, "class c%d\n", c);
    n += snprintf(body + n, sizeof body - (size_t)n, "features 1\nfeature x\nterms 1\nterm 200");
    for (int c = 0; c < 200; c++)
        n += snprintf(body + n, sizeof body - (size_t)n, " 1");
    snprintf(body + n, sizeof body - (size_t)n, " code 1048576 0 | f=0 t=0 pol=1\n");
    const char *path = put_model(body);
    bl_model mo;
    bl_error err;
    cr_assert_eq(bl_model_load(path, &reg, &mo, &err), -1);
    ASSERT_ERR_NAMES(err, path, ":208: term 1: expected 'code HDIM'");
    bl_registry_free(&reg);
}

/* ---- INI files ---------------------------------------------------------- */

/* Read an INI text; returns bl_ini_read's result. */
static int read_ini(const char *text, size_t n, bl_ini *ini, bl_error *err, const char **path)
{
    *path = put(0, "exp.ini", text, n);
    return bl_ini_read(*path, ini, err);
}

#define READ_INI(text, ini, err, path) read_ini(text, sizeof text - 1, ini, err, path)

/* fuzz_ini: inih cuts section names at 49 characters, so the keys of a
 * section with a longer name reached us under another name and were
 * dropped without a word. */
Test(regress, ini_long_section_name_refused)
{
    bl_ini ini;
    bl_error err;
    const char *path;
    cr_assert_eq(READ_INI("[data iris]\nfile = a.csv\n\n"
                          "[algorithm a-name-that-is-much-longer-than-inih-can-hold-x]\n"
                          "recipe = mcboost-exp\n", &ini, &err, &path), -1);
    ASSERT_ERR_NAMES(err, path, ":4: section name longer than 49 characters");
}

/* The header line was copied into 512 bytes to be recorded: a longer one
 * was not recorded at all, and the file read without error with its keys
 * gone. */
Test(regress, ini_section_header_over_511_bytes_refused)
{
    char text[1024];
    int n = snprintf(text, sizeof text, "[experiment]\nseed = 2\n[%0600d]\nseed = 3\n", 0);
    bl_ini ini;
    bl_error err;
    const char *path;
    cr_assert_eq(read_ini(text, (size_t)n, &ini, &err, &path), -1);
    ASSERT_ERR_NAMES(err, path, ":3: section name longer than 49 characters");
}

/* inih passes "[ experiment ]" as " experiment " and skips a byte order
 * mark and any isspace() before '[': the keys of such sections were
 * dropped because the name we recorded differed. */
Test(regress, ini_section_spelled_loosely_keeps_its_keys)
{
    static const char *const texts[] = {
        "[ experiment ]\nseed = 7\n",
        "\xEF\xBB\xBF[experiment]\nseed = 7\n",
        "\v[experiment]\nseed = 7\n",
        "[\texperiment\t]\nseed = 7\n",
    };
    for (size_t j = 0; j < sizeof texts / sizeof *texts; j++) {
        bl_ini ini;
        bl_error err;
        const char *path;
        cr_assert_eq(read_ini(texts[j], strlen(texts[j]), &ini, &err, &path), 0, "%s",
                     err.msg);
        cr_assert_eq(ini.nsec, 1, "text %zu", j);
        cr_assert_str_eq(ini.sec[0].name, "experiment");
        cr_assert_eq(ini.sec[0].n, 1, "text %zu: the key was dropped", j);
        cr_assert_str_eq(ini.sec[0].e[0].value, "7");
        cr_assert_eq(ini.sec[0].e[0].line, 2);
        bl_ini_free(&ini);
    }
}

/* fuzz_ini: a NUL byte hid the rest of a line from the long-line check, and
 * the rest was then parsed as a line of its own, making up a key. */
Test(regress, ini_nul_byte_refused)
{
    char text[600];
    int n = snprintf(text, sizeof text, "[experiment]\nname = a");
    text[n++] = '\0';
    n += snprintf(text + n, sizeof text - (size_t)n, "%0300d seed = 3\nrepeats = 2\n", 0);
    bl_ini ini;
    bl_error err;
    const char *path;
    cr_assert_eq(read_ini(text, (size_t)n, &ini, &err, &path), -1);
    ASSERT_ERR_NAMES(err, path, ":2: NUL byte in line");
}

/* Found while reading the above: inih's heap buffer is ini_initial_alloc
 * bytes (200), not ini_max_line, so lines over 198 characters were refused
 * though 8190 were meant to be allowed. */
Test(regress, ini_lines_up_to_8190_characters)
{
    char text[9000];
    int n = snprintf(text, sizeof text, "[experiment]\ndoc = %0300d\n", 0);
    bl_ini ini;
    bl_error err;
    const char *path;
    cr_assert_eq(read_ini(text, (size_t)n, &ini, &err, &path), 0, "%s", err.msg);
    cr_assert_eq(strlen(ini.sec[0].e[0].value), 300);
    bl_ini_free(&ini);
    n = snprintf(text, sizeof text, "[experiment]\ndoc = %08200d\n", 0);
    cr_assert_eq(read_ini(text, (size_t)n, &ini, &err, &path), -1);
    ASSERT_ERR_NAMES(err, path, ":2: line is longer than 8190 characters");
}

/* Found while writing fuzz_ini's unique-names check: "[data a]" and
 * "[data  a]" are two sections to inih but loaded as two data sets named
 * 'a' (results mixed up), and "[algorithm x extra]" was read as 'x'. */
Test(regress, experiment_duplicate_or_extra_names_refused)
{
    bl_registry none = {0}; /* refused before any plugin is looked up */
    bl_experiment ex;
    bl_error err;
    PUT(1, "in.csv", "label,a\n0,1\n");
    const char *path = PUT(0, "exp.ini", "[data a]\nfile = in.csv\n\n[data  a]\nfile = in.csv\n");
    cr_assert_eq(bl_experiment_load(path, &none, &ex, &err), -1);
    ASSERT_ERR_NAMES(err, path, ":4: [data  a]: a data set named 'a' is already defined at ");
    path = PUT(0, "exp.ini", "[data a]\nfile = in.csv\n[algorithm x extra]\nrecipe = samme\n");
    cr_assert_eq(bl_experiment_load(path, &none, &ex, &err), -1);
    ASSERT_ERR_NAMES(err, path, ":3: [algorithm x extra]: 'x extra' is not a valid name");
}
