/* Lists of numbers as MJCF writes them (and `--set` values): decimal numbers separated by white
 * space. One reader, so that a value reads the same in a file, on the command line and
 * through the setter. */
#ifndef CS_NUMLIST_H
#define CS_NUMLIST_H

enum {
    CS_NUMLIST_BAD = -1,  /* a token that is not a number ("1,2", "1x", "abc") */
    CS_NUMLIST_INF = -2,  /* a number that is not finite (inf, nan, 1e999) */
    CS_NUMLIST_MORE = -3  /* more than max numbers */
};

/* the numbers of s into out (at most max): their count (0 for an empty or blank s), or one
 * of the codes above (the first problem from the left) */
int cs_numlist(const char *s, double *out, int max);

#endif
