/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The unit-test programs' entry point: Criterion's own main, except that
 * every test's and suite's timeout is multiplied by BL_TEST_TIMEOUT_SCALE
 * (a positive number; default 1).  The timeouts are hang guards sized for a
 * normal build; scripts/test.sh raises them for its sanitizer and valgrind
 * stages, where the same tests run many times slower, so that a slow or
 * loaded machine never turns a passing test into a timeout. */
#include <criterion/criterion.h>
#include <criterion/internal/ordered-set.h>
#include <stdio.h>
#include <stdlib.h>

/* The scale from the environment, or 1; exits on a malformed value rather
 * than run with guards the caller did not ask for. */
static double timeout_scale(void)
{
    const char *s = getenv("BL_TEST_TIMEOUT_SCALE");
    if (!s || !*s)
        return 1.0;
    char *end;
    double v = strtod(s, &end);
    if (*end || !(v > 0) || v > 1e6) {
        fprintf(stderr, "BL_TEST_TIMEOUT_SCALE: expected a positive number, not '%s'\n", s);
        exit(2);
    }
    return v;
}

/* (Criterion's runner hangs on a timeout of a millisecond or less: 0.1 s
 * is the least it is given.) */
static void scale(struct criterion_test_extra_data *d, double f)
{
    if (d && d->timeout > 0)
        d->timeout = d->timeout * f < 0.1 ? 0.1 : d->timeout * f;
}

int main(int argc, char *argv[])
{
    double f = timeout_scale();
    struct criterion_test_set *set = criterion_initialize();
    if (f != 1.0)
        for (struct criterion_ordered_set_node *sn = set->suites->first; sn; sn = sn->next) {
            struct criterion_suite_set *suite = (void *)(sn + 1);
            scale(suite->suite.data, f);
            for (struct criterion_ordered_set_node *tn = suite->tests ? suite->tests->first : NULL;
                 tn; tn = tn->next)
                scale(((struct criterion_test *)(void *)(tn + 1))->data, f);
        }
    int rc = 0;
    if (criterion_handle_args(argc, argv, true))
        rc = !criterion_run_all_tests(set);
    criterion_finalize(set);
    return rc;
}
