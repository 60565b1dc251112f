/* cs_fmt_shortest (sim/output/fmt.c): the summary CSVs' numbers read back exactly, in as few digits
 * as %g gives from 15 up; cs_numlist (util/numlist.c): lists of numbers as MJCF and --set
 * read them. */
#include <check.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "numlist.h"

static const char *f(double v)
{
    static char buf[64];
    return cs_fmt_shortest(buf, sizeof buf, v);
}

START_TEST(test_short_decimals)
{
    ck_assert_str_eq(f(0.3), "0.3");
    ck_assert_str_eq(f(0.1), "0.1");
    ck_assert_str_eq(f(0.1 + 0.2), "0.30000000000000004"); /* not 0.3: needs 17 digits */
    ck_assert_str_eq(f(1.152), "1.152");
    ck_assert_str_eq(f(0.95), "0.95");
    ck_assert_str_eq(f(4), "4");
    ck_assert_str_eq(f(0), "0");
    ck_assert_str_eq(f(-0.0), "-0");
    ck_assert_str_eq(f(1e-300), "1e-300");
    ck_assert_str_eq(f(DBL_MAX), "1.7976931348623157e+308");
    ck_assert_str_eq(f(5e-324), "4.94065645841247e-324"); /* the smallest subnormal */
    ck_assert_str_eq(f(INFINITY), "inf");
    ck_assert_str_eq(f(-INFINITY), "-inf");
    ck_assert_str_eq(f(NAN), "nan");
}
END_TEST

/* Every value reads back bit for bit, and no shorter %g would */
START_TEST(test_round_trip_and_shortest)
{
    unsigned long long s = 88172645463325252ULL;
    for (int i = 0; i < 200000; i++) {
        s ^= s << 13, s ^= s >> 7, s ^= s << 17;
        double v;
        if (i % 2) {
            memcpy(&v, &s, sizeof v);
            if (!isfinite(v)) continue;
        } else {
            v = (double)(s >> 11) / 9007199254740992.0 * pow(10, (int)(s % 21) - 10);
        }
        const char *t = f(v);
        double back = strtod(t, NULL);
        ck_assert_msg(memcmp(&back, &v, sizeof v) == 0, "%s does not read back as %.17g", t, v);
        char shorter[64];
        for (int p = 15; p <= 16; p++) {
            snprintf(shorter, sizeof shorter, "%.*g", p, v);
            if (strtod(shorter, NULL) == v) {
                ck_assert_msg(strlen(t) <= strlen(shorter), "%s longer than %s", t, shorter);
                break;
            }
        }
    }
}
END_TEST

START_TEST(test_numlist)
{
    double v[3];
    ck_assert_int_eq(cs_numlist("1 -2.5e1\t3\n", v, 3), 3);
    ck_assert(v[0] == 1 && v[1] == -25 && v[2] == 3);
    ck_assert_int_eq(cs_numlist("", v, 3), 0);
    ck_assert_int_eq(cs_numlist("  \t", v, 3), 0);
    ck_assert_int_eq(cs_numlist("1,2", v, 3), CS_NUMLIST_BAD);   /* white space only */
    ck_assert_int_eq(cs_numlist("1-2", v, 3), CS_NUMLIST_BAD);
    ck_assert_int_eq(cs_numlist("abc", v, 3), CS_NUMLIST_BAD);
    ck_assert_int_eq(cs_numlist("1 nan", v, 3), CS_NUMLIST_INF);
    ck_assert_int_eq(cs_numlist("1e999", v, 3), CS_NUMLIST_INF);
    ck_assert_int_eq(cs_numlist("1 2 3 4", v, 3), CS_NUMLIST_MORE);
    /* what the CSVs write reads back exactly */
    const double xs[] = {0.1, -1e-300, 123456789.123, 2.0 / 3, DBL_MAX};
    for (size_t i = 0; i < sizeof xs / sizeof xs[0]; i++) {
        ck_assert_int_eq(cs_numlist(f(xs[i]), v, 1), 1);
        ck_assert(v[0] == xs[i]);
    }
}
END_TEST

int main(void)
{
    Suite *su = suite_create("fmt");
    TCase *t = tcase_create("shortest");
    tcase_set_timeout(t, 60); /* 200000 round trips: seconds on a loaded machine */
    tcase_add_test(t, test_short_decimals);
    tcase_add_test(t, test_round_trip_and_shortest);
    tcase_add_test(t, test_numlist);
    suite_add_tcase(su, t);
    SRunner *r = srunner_create(su);
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? 1 : 0;
}
