/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * `boostlab segment`: the CRF segmentation pipeline around the crf task
 * (StructBoost spec §4.6, §5.5):
 *   make NAME OUTDIR      constructed images with exact masks (segscene.h)
 *   prepare SETDIR OUTDIR super-pixels, features, unary classifiers, the
 *                         crf task's files and the unary-only baselines
 *                         (segprep.h)
 *   figure PREPDIR SETDIR ID OUT.png [NAME=LABELDIR ...]
 *                         the image, its truth and each method's labels
 * StructBoost and the structural SVM then run through `boostlab run`.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exec/pool.h"
#include "util/fsutil.h"
#include "../vision/segprep.h"
#include "../vision/segscene.h"
#include "cli.h"

static const char *const segment_help =
    "Usage: boostlab segment make NAME OUTDIR [--seed S] [--images N] [--width W]\n"
    "                            [--height H] [--sources DIR]\n"
    "       boostlab segment prepare SETDIR OUTDIR [--iterations T] [--region R]\n"
    "                            [--regularizer X] [--seed S] [--svm-c C] [-j N] [-q]\n"
    "       boostlab segment figure PREPDIR SETDIR ID OUT.png [NAME=LABELDIR ...]\n"
    "\n"
    "CRF segmentation (StructBoost, spec sections 4.6 and 5.5) on constructed data.\n"
    "\n"
    "make writes N images of category NAME (horse, vehicle or person: analogues of\n"
    "Graz-02's bike, car and person) into OUTDIR: img/NNNN.png, their exact masks\n"
    "mask/NNNN.png (255 = foreground), images.csv (id,part,image,mask: even ids,\n"
    "the paper's odd-numbered images, train; odd ids test) and README.txt saying\n"
    "how they were constructed.  A foreground shape of known mask is filled with\n"
    "texture cut from a real photograph and pasted over a real textured background\n"
    "with clutter; the photographs are python3-skimage's data images (--sources).\n"
    "The same NAME, seed and sizes give the same bytes.\n"
    "  -s, --seed S        random seed (default 1)\n"
    "  -n, --images N      images, 2..100000 (default 120: 60 train + 60 test)\n"
    "      --width W       image width, 16..4096 (default 160)\n"
    "      --height H      image height, 16..4096 (default 120)\n"
    "      --sources DIR   source photographs (default " BL_SEGSCENE_SRCDIR ")\n"
    "\n"
    "prepare reads SETDIR (as make writes it) and writes into OUTDIR what the crf\n"
    "task reads: SLIC super-pixels (VLFeat) and their graph, 9 feature groups\n"
    "(colour; LBP and HOG on 4 patch sizes), one AdaBoost classifier per group\n"
    "(2-fold cross-fitted on the training images) giving the unary potentials,\n"
    "NNNN.crf per image, NNNN.spm (label maps), train.csv and test.csv (image ids),\n"
    "and the unary-only baselines (AdaBoost and a liblinear SVM on all features):\n"
    "baselines.tsv (test pixel metrics) and pred-adaboost/, pred-svm/ (labels).\n"
    "  -i, --iterations T  AdaBoost iterations per unary classifier (default 100)\n"
    "  -B, --base-iterations T  iterations of the AdaBoost baseline (default 200)\n"
    "  -r, --region R      SLIC region size in pixels (default 10)\n"
    "  -x, --regularizer X SLIC regularizer (default 10)\n"
    "  -c, --svm-c C       C of the linear SVM baseline (default 1)\n"
    "  -s, --seed S        seed of the unary classifiers (default 1)\n"
    "  -t, --threads N     threads (default: OMP_NUM_THREADS, else all cores;\n"
    "                      -j N, its old spelling, is deprecated)\n"
    "  -q, --quiet         no progress\n"
    "\n"
    "figure writes a PNG strip: image ID, its true mask, and for each NAME=LABELDIR\n"
    "the labels LABELDIR/NNNN.lab (as the crf task's pred_out or prepare writes\n"
    "them) painted on the super-pixels of PREPDIR/NNNN.spm; foreground is tinted\n"
    "red.  Labels appear in the order given.\n";

static long num_arg(const char *s, long lo, long hi, int *bad)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (end == s || *end || errno || v < lo || v > hi)
        *bad = 1;
    return v;
}

static int parse_seed(const char *s, uint64_t *seed)
{
    unsigned long long v;
    if (cli_parse_count(s, 10, UINT64_MAX, &v) < 0)
        return -1;
    *seed = v;
    return 0;
}

static int seg_make(int argc, char **argv)
{
    static const struct option opts[] = {
        {"seed", required_argument, 0, 's'},   {"images", required_argument, 0, 'n'},
        {"width", required_argument, 0, 'W'},  {"height", required_argument, 0, 'H'},
        {"sources", required_argument, 0, 'S'}, {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0}};
    uint64_t seed = 1;
    long n = 120, w = 160, h = 120;
    const char *src = BL_SEGSCENE_SRCDIR;
    int o, bad = 0;
    optind = 1;
    opterr = 0;
    while ((o = getopt_long(argc, argv, ":s:n:h", opts, NULL)) != -1) {
        switch (o) {
        case 's': bad |= parse_seed(optarg, &seed) < 0; break;
        case 'n': n = num_arg(optarg, 2, 100000, &bad); break;
        case 'W': w = num_arg(optarg, 16, 4096, &bad); break;
        case 'H': h = num_arg(optarg, 16, 4096, &bad); break;
        case 'S': src = optarg; break;
        case 'h': fputs(segment_help, stdout); return BL_EXIT_OK;
        case ':': return cli_usage("segment make", "an option is missing its value");
        default: return cli_usage("segment make", "unknown option");
        }
        if (bad)
            return cli_usage("segment make", "--seed takes 0..2^64-1, --images 2..100000, "
                                             "--width and --height 16..4096");
    }
    if (argc - optind != 2)
        return cli_usage("segment make", "needs NAME and OUTDIR");
    const char *name = argv[optind], *out = argv[optind + 1];
    int cat = bl_segscene_category(name);
    if (cat < 0)
        return cli_usage("segment make", "NAME is horse, vehicle or person");
    bl_error err;
    bl_segscene_src S;
    if (bl_segscene_load(src, &S, &err) < 0)
        return cli_fail(err.msg);
    char *di = bl_path_join(out, "img"), *dm = bl_path_join(out, "mask");
    int rc = bl_mkdirs(di, &err);
    if (rc == 0)
        rc = bl_mkdirs(dm, &err);
    char *list = bl_path_join(out, "images.csv");
    bl_atomic a;
    if (rc == 0)
        rc = bl_atomic_open(&a, list, &err);
    if (rc == 0)
        fprintf(a.f, "id,part,image,mask\n");
    for (long i = 0; i < n && rc == 0; i++) {
        bl_image img, mask;
        rc = bl_segscene_render(&S, cat, seed, (uint64_t)i, (int)w, (int)h, &img, &mask, NULL,
                                &err);
        if (rc < 0)
            break;
        char f[64];
        snprintf(f, sizeof f, "img/%04ld.png", i);
        char *p = bl_path_join(out, f);
        rc = bl_image_write_png(p, &img, &err);
        free(p);
        char g[64];
        snprintf(g, sizeof g, "mask/%04ld.png", i);
        p = bl_path_join(out, g);
        if (rc == 0)
            rc = bl_image_write_png(p, &mask, &err);
        free(p);
        bl_image_free(&img);
        bl_image_free(&mask);
        if (rc == 0)
            fprintf(a.f, "%ld,%s,%s,%s\n", i, i % 2 == 0 ? "train" : "test", f, g);
    }
    if (rc == 0)
        rc = bl_atomic_commit(&a, &err);
    else if (a.f)
        bl_atomic_abort(&a);
    char *readme = bl_path_join(out, "README.txt");
    if (rc == 0 && (rc = bl_atomic_open(&a, readme, &err)) == 0) {
        fprintf(a.f,
                "CONSTRUCTED DATA (not Graz-02): boostlab segment make %s --seed %llu "
                "--images %ld --width %ld --height %ld\n"
                "Category %s: a foreground shape of exact mask (horse: skimage's horse.png "
                "silhouette; vehicle: body, cabin and two wheels; person: head, torso, arms and "
                "legs) filled with texture from %s, over a tinted crop of grass, gravel, "
                "brick, camera, coffee or rocket, with 2-5 clutter blobs (about a third cut from "
                "the foreground's own photograph) and uniform noise of +-%d per channel.\n"
                "Source photographs: %s (python3-skimage).  Masks: 255 foreground, 0 "
                "background, exact by construction.  Even ids train, odd ids test.\n",
                name, (unsigned long long)seed, n, w, h, name,
                cat == 0 ? "chelsea.png" : cat == 1 ? "motorcycle_left.png" : "astronaut.png",
                BL_SEGSCENE_NOISE, src);
        rc = bl_atomic_commit(&a, &err);
    }
    free(readme);
    free(list);
    free(di);
    free(dm);
    bl_segscene_free(&S);
    if (rc < 0)
        return cli_fail(err.msg);
    return BL_EXIT_OK;
}

static int seg_prepare(int argc, char **argv)
{
    static const struct option opts[] = {
        {"iterations", required_argument, 0, 'i'}, {"base-iterations", required_argument, 0, 'B'},
        {"region", required_argument, 0, 'r'},     {"regularizer", required_argument, 0, 'x'},
        {"svm-c", required_argument, 0, 'c'},      {"seed", required_argument, 0, 's'},
        {"threads", required_argument, 0, 't'},    {"quiet", no_argument, 0, 'q'},
        {"help", no_argument, 0, 'h'},             {0, 0, 0, 0}};
    bl_segprep_opts po;
    bl_segprep_defaults(&po);
    int o, bad = 0, threads = 0;
    char *end;
    optind = 1;
    opterr = 0;
    while ((o = getopt_long(argc, argv, ":i:B:r:x:c:s:t:j:qh", opts, NULL)) != -1) {
        switch (o) {
        case 'i': po.iterations = (int)num_arg(optarg, 1, 100000, &bad); break;
        case 'B': po.base_iterations = (int)num_arg(optarg, 1, 100000, &bad); break;
        case 'r': po.region = (int)num_arg(optarg, 2, 1000, &bad); break;
        case 'x':
            po.regularizer = strtod(optarg, &end);
            bad |= end == optarg || *end || !(po.regularizer > 0 && po.regularizer < 1e6);
            break;
        case 'c':
            po.svm_C = strtod(optarg, &end);
            bad |= end == optarg || *end || !(po.svm_C > 0 && po.svm_C < 1e12);
            break;
        case 's': bad |= parse_seed(optarg, &po.seed) < 0; break;
        case 'j':
            fputs("boostlab segment prepare: warning: -j is deprecated here; use -t/--threads "
                  "N (-j means parallel jobs in 'boostlab run')\n", stderr);
            /* fall through */
        case 't': threads = (int)num_arg(optarg, 1, 1024, &bad); break;
        case 'q': po.quiet = 1; break;
        case 'h': fputs(segment_help, stdout); return BL_EXIT_OK;
        case ':': return cli_usage("segment prepare", "an option is missing its value");
        default: return cli_usage("segment prepare", "unknown option");
        }
        if (bad)
            return cli_usage("segment prepare", "a numeric option is out of range (see "
                                                "boostlab segment --help)");
    }
    if (argc - optind != 2)
        return cli_usage("segment prepare", "needs SETDIR and OUTDIR");
    po.min_region = po.region;
    bl_registry reg;
    if (cli_registry(&reg))
        return BL_EXIT_FAIL;
    bl_set_threads(threads ? threads : cli_env_threads());
    bl_error err;
    int rc = bl_segprep_run(argv[optind], argv[optind + 1], &po, &reg, &err);
    bl_registry_free(&reg);
    if (rc < 0)
        return cli_fail(err.msg);
    if (!po.quiet)
        fprintf(stderr, "boostlab: prepared %s from %s\n", argv[optind + 1], argv[optind]);
    return BL_EXIT_OK;
}

/* Labels of one image from LABELDIR/NNNN.lab: n characters 0/1. */
static int read_lab(const char *dir, unsigned id, size_t n, unsigned char *y, bl_error *err)
{
    char name[32];
    snprintf(name, sizeof name, "%04u.lab", id);
    char *p = bl_path_join(dir, name);
    FILE *f = fopen(p, "r");
    int rc = 0;
    if (!f)
        rc = bl_errf(err, "cannot open %s: %s", p, strerror(errno));
    for (size_t q = 0; q < n && rc == 0; q++) {
        int c = fgetc(f);
        if (c != '0' && c != '1')
            rc = bl_errf(err, "%s:1: character %zu: expected 0 or 1 for each of %zu super-pixels",
                         p, q + 1, n);
        else
            y[q] = (unsigned char)(c == '1');
    }
    if (f)
        fclose(f);
    free(p);
    return rc;
}

/* Foreground (fg[p] != 0) tinted red, its boundary yellow, into panel k. */
static void paint(const bl_image *img, const unsigned char *fg, bl_image *out, int k)
{
    int w = img->w, h = img->h;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            size_t p = (size_t)y * w + x;
            unsigned char *o = out->px + ((size_t)y * out->w + (size_t)k * (w + 4) + x) * 3;
            const unsigned char *s = img->px + p * 3;
            int edge = fg[p] && ((x > 0 && !fg[p - 1]) || (x + 1 < w && !fg[p + 1]) ||
                                 (y > 0 && !fg[p - w]) || (y + 1 < h && !fg[p + w]));
            for (int c = 0; c < 3; c++) {
                int v = s[c];
                if (edge)
                    v = c < 2 ? 255 : 0;
                else if (fg[p])
                    v = c == 0 ? (v + 255) / 2 : v / 2;
                o[c] = (unsigned char)v;
            }
        }
}

static int seg_figure(int argc, char **argv)
{
    if (argc >= 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
        fputs(segment_help, stdout);
        return BL_EXIT_OK;
    }
    if (argc < 5)
        return cli_usage("segment figure", "needs PREPDIR SETDIR ID OUT.png [NAME=LABELDIR ...]");
    const char *prep = argv[1], *set = argv[2], *out = argv[4];
    int bad = 0;
    unsigned id = (unsigned)num_arg(argv[3], 0, 999999, &bad);
    if (bad)
        return cli_usage("segment figure", "ID is an image id 0..999999");
    for (int j = 5; j < argc; j++)
        if (!strchr(argv[j], '='))
            return cli_usage("segment figure", "labels are given as NAME=LABELDIR");
    bl_error err;
    char name[64];
    snprintf(name, sizeof name, "img/%04u.png", id);
    char *pi = bl_path_join(set, name);
    snprintf(name, sizeof name, "mask/%04u.png", id);
    char *pm = bl_path_join(set, name);
    snprintf(name, sizeof name, "%04u.spm", id);
    char *ps = bl_path_join(prep, name);
    bl_image raw, img, mraw, mask, strip;
    memset(&img, 0, sizeof img), memset(&mask, 0, sizeof mask), memset(&strip, 0, sizeof strip);
    uint32_t *lab = NULL;
    int w = 0, h = 0;
    size_t n = 0;
    int rc = bl_image_read(pi, &raw, &err);
    if (rc == 0) {
        rc = bl_image_convert(&raw, 3, &img, &err);
        bl_image_free(&raw);
    }
    if (rc == 0 && (rc = bl_image_read(pm, &mraw, &err)) == 0) {
        rc = bl_image_convert(&mraw, 1, &mask, &err);
        bl_image_free(&mraw);
    }
    if (rc == 0)
        rc = bl_spm_read(ps, &w, &h, &n, &lab, &err);
    if (rc == 0 && (w != img.w || h != img.h || mask.w != w || mask.h != h))
        rc = bl_errf(&err, "%s, %s and %s differ in size", pi, pm, ps);
    int panels = 2 + (argc - 5);
    if (rc == 0)
        rc = bl_image_alloc(&strip, panels * (w + 4) - 4, h, 3, &err);
    if (rc == 0) {
        memset(strip.px, 255, (size_t)strip.w * strip.h * 3);
        unsigned char *fg = bl_xcalloc((size_t)w * h, 1), *y = bl_xcalloc(n, 1);
        paint(&img, fg, &strip, 0); /* fg all 0 yet: the plain image */
        for (size_t p = 0; p < (size_t)w * h; p++)
            fg[p] = mask.px[p] >= 128;
        paint(&img, fg, &strip, 1);
        for (int j = 5; j < argc && rc == 0; j++) {
            rc = read_lab(strchr(argv[j], '=') + 1, id, n, y, &err);
            for (size_t p = 0; p < (size_t)w * h && rc == 0; p++)
                fg[p] = y[lab[p]];
            if (rc == 0)
                paint(&img, fg, &strip, j - 3);
        }
        free(fg), free(y);
    }
    if (rc == 0)
        rc = bl_image_write_png(out, &strip, &err);
    if (rc == 0) {
        fprintf(stdout, "%s: image %u | truth", out, id);
        for (int j = 5; j < argc; j++)
            fprintf(stdout, " | %.*s", (int)(strchr(argv[j], '=') - argv[j]), argv[j]);
        fputc('\n', stdout);
    }
    free(lab), free(pi), free(pm), free(ps);
    bl_image_free(&img), bl_image_free(&mask), bl_image_free(&strip);
    if (rc < 0)
        return cli_fail(err.msg);
    return BL_EXIT_OK;
}

int cmd_segment(int argc, char **argv)
{
    if (argc < 2)
        return cli_usage("segment", "needs a subcommand: make, prepare or figure");
    const char *sub = argv[1];
    if (!strcmp(sub, "-h") || !strcmp(sub, "--help")) {
        fputs(segment_help, stdout);
        return BL_EXIT_OK;
    }
    if (!strcmp(sub, "make"))
        return seg_make(argc - 1, argv + 1);
    if (!strcmp(sub, "prepare"))
        return seg_prepare(argc - 1, argv + 1);
    if (!strcmp(sub, "figure"))
        return seg_figure(argc - 1, argv + 1);
    return cli_usage("segment", "unknown subcommand (make, prepare, figure)");
}
