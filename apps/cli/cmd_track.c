/* SPDX-License-Identifier: GPL-3.0-or-later */
/* `boostlab track`: make constructed tracking sequences (list, make) and
 * run the StructBoost or AdaBoost tracker on a sequence (run), writing
 * per-frame boxes and a summary (mean +- std overlap and centre error,
 * frames per second). */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/fsutil.h"
#include "../vision/track.h"
#include "../vision/track_scenes.h"
#include "cli.h"

static const char *const track_help =
    "Usage: boostlab track list\n"
    "       boostlab track make NAME OUTDIR [--seed S] [--frames N] [--images DIR]\n"
    "       boostlab track run SEQDIR --out DIR [--config FILE.ini] [--method M]\n"
    "                          [--set KEY=VALUE]... [--quiet]\n"
    "\n"
    "Visual tracking with StructBoost (spec 4.5): a label is a bounding box, the\n"
    "loss is 1 - Pascal overlap, inference scores sampled candidate boxes.\n"
    "\n"
    "list   the constructed scenes 'make' can render.\n"
    "make   render scene NAME into OUTDIR: frames 00001.png ..., groundtruth.txt\n"
    "       ('x y w h' per frame, 0-based top-left corner: exactly where the object\n"
    "       was pasted) and README.txt.  These are CONSTRUCTED sequences built from\n"
    "       the images of Debian's python3-skimage, not benchmark videos; the same\n"
    "       NAME, seed and frames give the same bytes.\n"
    "run    track SEQDIR (frame images sorted by name, and groundtruth.txt, of which\n"
    "       the first init_frames boxes label the start) and write DIR/frames.csv\n"
    "       (frame, box, ground truth, overlap, centre error), DIR/summary.csv and\n"
    "       DIR/tracker.ini (the parameters used); the summary line goes to stdout.\n"
    "       fps counts the tracked frames (after the labelled ones) over their wall\n"
    "       time, retraining included.\n"
    "\n"
    "Options:\n"
    "  -s, --seed S        make: random seed, 0..2^64-1 (default 1)\n"
    "  -n, --frames N      make: frames, 1..100000 (default 150)\n"
    "  -i, --images DIR    make: where the skimage images are\n"
    "                      (default " BL_SKIMAGE_DATA ")\n"
    "  -c, --config FILE   run: an INI file with a [tracker] section\n"
    "                      (e.g. experiments/structboost/tracking-structboost.conf)\n"
    "  -m, --method M      run: structboost or adaboost (same as --set method=M)\n"
    "  -S, --set K=V       run: override one tracker key (after --config)\n"
    "  -o, --out DIR       run: output directory (created)\n"
    "  -q, --quiet         run: no progress on stderr\n"
    "  -h, --help          this text\n"
    "\n"
    "Tracker keys (defaults: spec 4.5's counts): method, C, init_iterations,\n"
    "update_iterations, warm_start, ada_iterations, pos_overlap, neg_overlap,\n"
    "eps_cp, polish, init_frames, candidates, radius, train_boxes, train_radius,\n"
    "scale_step, scale_levels, buffer, update_every, max_bins, patch, small,\n"
    "hog_cell, seed, threads.\n";

static int track_list(void)
{
    for (const bl_scene_def *d = bl_scenes; d->name; d++)
        printf("%-14s %s\n", d->name, d->doc);
    return BL_EXIT_OK;
}

static void progress(void *user, size_t done, size_t total)
{
    (void)user;
    if (done % 10 == 0 || done == total)
        fprintf(stderr, "\rboostlab track: frame %zu/%zu", done, total);
    if (done == total)
        fputc('\n', stderr);
}

static int write_outputs(const char *out, const bl_track_params *p, const bl_seq *seq,
                         const bl_track_result *r, bl_error *err)
{
    if (bl_mkdirs(out, err) < 0)
        return -1;
    char *fp = bl_path_join(out, "frames.csv");
    bl_atomic a = {0};
    int rc = bl_atomic_open(&a, fp, err);
    if (rc == 0) {
        fputs("frame,x,y,w,h,gt_x,gt_y,gt_w,gt_h,overlap,centre_error,labelled\n", a.f);
        for (size_t t = 0; t < r->n; t++)
            fprintf(a.f, "%zu,%.2f,%.2f,%.2f,%.2f,%g,%g,%g,%g,%.6f,%.4f,%d\n", t + 1,
                    r->box[t].x, r->box[t].y, r->box[t].w, r->box[t].h, seq->gt[t].x,
                    seq->gt[t].y, seq->gt[t].w, seq->gt[t].h, r->overlap[t], r->cerr[t],
                    t < r->first);
        rc = bl_atomic_commit(&a, err);
    }
    free(fp);
    double mo, so, mc, sc;
    bl_track_summary(r, &mo, &so, &mc, &sc);
    size_t k = r->n - r->first;
    if (rc == 0) {
        fp = bl_path_join(out, "summary.csv");
        rc = bl_atomic_open(&a, fp, err);
        if (rc == 0) {
            fprintf(a.f, "sequence,method,frames,tracked,mean_overlap,std_overlap,"
                    "mean_centre_error,std_centre_error,seconds,fps,train_seconds,cpu_seconds,updates,"
                    "columns\n");
            const char *base = strrchr(seq->dir, '/');
            base = base && base[1] ? base + 1 : seq->dir;
            fprintf(a.f, "%s,%s,%zu,%zu,%.4f,%.4f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%zu,%zu\n", base,
                    p->method == BL_TRACK_STRUCTBOOST ? "structboost" : "adaboost", r->n, k, mo,
                    so, mc, sc, r->seconds, (double)k / r->seconds, r->train_seconds, r->cpu_seconds, r->updates,
                    r->columns);
            rc = bl_atomic_commit(&a, err);
        }
        free(fp);
    }
    if (rc == 0) {
        fp = bl_path_join(out, "tracker.ini");
        rc = bl_atomic_open(&a, fp, err);
        if (rc == 0) {
            bl_track_write(p, a.f);
            rc = bl_atomic_commit(&a, err);
        }
        free(fp);
    }
    if (rc == 0)
        printf("%s: %s overlap %.3f +- %.3f, centre error %.2f +- %.2f px over %zu frames, "
               "%.2f fps (%.1f s of %.1f s retraining; CPU %.1f s)\n", seq->dir,
               p->method == BL_TRACK_STRUCTBOOST ? "structboost" : "adaboost", mo, so, mc, sc,
               k, (double)k / r->seconds, r->train_seconds, r->seconds, r->cpu_seconds);
    return rc;
}

int cmd_track(int argc, char **argv)
{
    static const struct option opts[] = {
        {"seed", required_argument, 0, 's'},   {"frames", required_argument, 0, 'n'},
        {"images", required_argument, 0, 'i'}, {"config", required_argument, 0, 'c'},
        {"method", required_argument, 0, 'm'}, {"set", required_argument, 0, 'S'},
        {"out", required_argument, 0, 'o'},    {"quiet", no_argument, 0, 'q'},
        {"help", no_argument, 0, 'h'},         {0, 0, 0, 0}};
    int images_given = 0;
    const char *seed_arg = NULL, *frames_arg = NULL, *images = BL_SKIMAGE_DATA, *config = NULL,
               *method = NULL, *out = NULL;
    char **sets = bl_xcalloc((size_t)argc + 1, sizeof *sets);
    size_t nsets = 0;
    int quiet = 0, o;
    optind = 1;
    opterr = 0;
    while ((o = getopt_long(argc, argv, ":s:n:i:c:m:S:o:qh", opts, NULL)) != -1) {
        switch (o) {
        case 's': seed_arg = optarg; break;
        case 'n': frames_arg = optarg; break;
        case 'i': images = optarg, images_given = 1; break;
        case 'c': config = optarg; break;
        case 'm': method = optarg; break;
        case 'S': sets[nsets++] = optarg; break;
        case 'o': out = optarg; break;
        case 'q': quiet = 1; break;
        case 'h': fputs(track_help, stdout); free(sets); return BL_EXIT_OK;
        case ':': free(sets); return cli_usage("track", "an option is missing its value");
        default: free(sets); return cli_usage("track", "unknown option");
        }
    }
    int rc = BL_EXIT_OK;
    char msg[600];
    const char *sub = optind < argc ? argv[optind] : NULL;
    bl_error err;
    if (!sub) {
        rc = cli_usage("track", "missing subcommand: list, make or run");
    } else if (!strcmp(sub, "list")) {
        rc = track_list();
    } else if (!strcmp(sub, "make")) {
        unsigned long long seed = 1, frames = 150;
        const bl_scene_def *d = argc - optind >= 2 ? bl_scene_find(argv[optind + 1]) : NULL;
        if (argc - optind != 3) {
            rc = cli_usage("track", "make needs NAME and OUTDIR (see 'boostlab track list')");
        } else if (!d) {
            snprintf(msg, sizeof msg, "unknown scene '%.100s' (see 'boostlab track list')",
                     argv[optind + 1]);
            rc = cli_usage("track", msg);
        } else if (seed_arg && cli_parse_count(seed_arg, 10, UINT64_MAX, &seed) < 0) {
            snprintf(msg, sizeof msg, "--seed '%.100s': expected a whole number in 0..2^64-1",
                     seed_arg);
            rc = cli_usage("track", msg);
        } else if (frames_arg && (cli_parse_count(frames_arg, 10, 100000, &frames) < 0 || !frames)) {
            snprintf(msg, sizeof msg, "--frames '%.100s': expected a whole number in 1..100000",
                     frames_arg);
            rc = cli_usage("track", msg);
        } else if (bl_scene_write(d, images, seed, (int)frames, argv[optind + 2], &err) < 0) {
            rc = cli_fail(err.msg);
        }
    } else if (!strcmp(sub, "run")) {
        bl_track_params p;
        bl_track_defaults(&p);
        if (argc - optind != 2) {
            rc = cli_usage("track", "run needs one SEQDIR");
        } else if (frames_arg || seed_arg || images_given) {
            /* the tracker's seed is the INI key `seed` (--set seed=N) */
            rc = cli_usage("track", "--frames, --seed and --images apply to make, not run");
        } else if (!out) {
            rc = cli_usage("track", "run needs --out DIR");
        } else {
            int bad = config && bl_track_load(config, &p, &err) < 0;
            if (!bad && method && bl_track_set(&p, "method", method, &err) < 0)
                bad = 1, bl_errprefix(&err, "--method");
            for (size_t j = 0; j < nsets && !bad; j++) {
                char *eq = strchr(sets[j], '=');
                if (!eq) {
                    bl_errf(&err, "--set '%s': expected KEY=VALUE", sets[j]);
                    bad = 1;
                    break;
                }
                *eq = 0;
                if (bl_track_set(&p, sets[j], eq + 1, &err) < 0) {
                    bl_errprefix(&err, "--set");
                    bad = 1;
                }
                *eq = '=';
            }
            if (!bad && bl_patch_check(&p.feat, &err) < 0)
                bad = 1;
            bl_seq seq;
            memset(&seq, 0, sizeof seq);
            if (!bad && bl_seq_load(argv[optind + 1], &seq, &err) < 0)
                bad = 1;
            bl_registry reg;
            memset(&reg, 0, sizeof reg);
            if (bad) {
                rc = cli_fail(err.msg);
            } else if ((rc = cli_registry(&reg)) == 0) {
                bl_track_result r;
                if (bl_track_run(&p, &reg, &seq, quiet ? NULL : progress, NULL, &r, &err) < 0 ||
                    write_outputs(out, &p, &seq, &r, &err) < 0)
                    rc = cli_fail(err.msg);
                bl_track_result_free(&r);
            }
            bl_registry_free(&reg);
            bl_seq_free(&seq);
        }
    } else {
        snprintf(msg, sizeof msg, "unknown subcommand '%.100s': list, make or run", sub);
        rc = cli_usage("track", msg);
    }
    free(sets);
    return rc;
}
