/* The loader's attribute table against what it reads: every attribute an element's check
 * accepts as used must be read when it is present (an attribute accepted and never read
 * would be silently without effect), over every scene, good test file and oracle scene,
 * and every accepted attribute must appear in one of them so that the walk covers it. */
#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conesim.h"
#include "sim/mjcf/mjcf_ir.h"

#define MAXPAIR 2048

typedef struct {
    char elem[48], attr[48];
    int accepted, read, ignored, unread;
    char where[700]; /* a file where it was left unread */
} pair_t;

typedef struct {
    pair_t p[MAXPAIR];
    int n;
    const char *file;
} audit_t;

static pair_t *find(audit_t *a, const char *elem, const char *attr)
{
    for (int i = 0; i < a->n; i++)
        if (strcmp(a->p[i].elem, elem) == 0 && strcmp(a->p[i].attr, attr) == 0) return &a->p[i];
    ck_assert_int_lt(a->n, MAXPAIR);
    pair_t *p = &a->p[a->n++];
    memset(p, 0, sizeof *p);
    snprintf(p->elem, sizeof p->elem, "%s", elem);
    snprintf(p->attr, sizeof p->attr, "%s", attr);
    return p;
}

static void on_audit(void *ctx, const char *elem, const char *attr, int what)
{
    audit_t *a = ctx;
    pair_t *p = find(a, elem, attr);
    switch (what) {
    case CS_AUDIT_ACCEPTED: p->accepted = 1; break;
    case CS_AUDIT_READ: p->read++; break;
    case CS_AUDIT_IGNORED: p->ignored++; break;
    default:
        p->unread++;
        snprintf(p->where, sizeof p->where, "%.600s", a->file);
    }
}

/* the files of the walk */
static char files[128][512];
static int nfiles;

static void list_dir(const char *dir)
{
    DIR *d = opendir(dir);
    ck_assert_msg(d != NULL, "cannot open %s", dir);
    struct dirent *e;
    while ((e = readdir(d)) && nfiles < 128) {
        size_t l = strlen(e->d_name);
        if (l > 4 && strcmp(e->d_name + l - 4, ".xml") == 0)
            snprintf(files[nfiles++], sizeof files[0], "%s/%s", dir, e->d_name);
    }
    closedir(d);
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    ck_assert_ptr_nonnull(f);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = malloc((size_t)n + 1);
    ck_assert_ptr_nonnull(b);
    ck_assert_int_eq(fread(b, 1, (size_t)n, f), n);
    b[n] = 0;
    fclose(f);
    return b;
}

/* the k-th start tag <elem ...> outside comments: the offset just past its name, -1 if none */
static long nth_tag(const char *t, const char *elem, int k)
{
    size_t l = strlen(elem);
    for (const char *p = t; (p = strchr(p, '<')); p++) {
        if (strncmp(p, "<!--", 4) == 0) {
            const char *e = strstr(p, "-->");
            if (!e) return -1;
            p = e;
            continue;
        }
        if (strncmp(p + 1, elem, l) == 0 && strchr(" \t\r\n/>", p[1 + l]) && k-- == 0)
            return (long)(p + 1 + l - t);
    }
    return -1;
}

/* An accepted attribute no file of the walk has: put it on each <elem> of each file in turn
 * with a few values until one loads; a load must have read it (an attribute left unread
 * takes any value). 1: loaded and read, 0: no value loads (the loader looks at it), -1:
 * loaded and unread, -2: no file has the element. */
static int probe(audit_t *a, const char *elem, const char *attr, char *where, size_t wn)
{
    static const char *const VALUES[] = {"0", "1", "true", "0 0 1", "1 0 0 0", "2", NULL};
    int seen = 0;
    for (int f = 0; f < nfiles; f++) {
        char *text = slurp(files[f]);
        for (int k = 0; k < 4; k++) {
            long at = nth_tag(text, elem, k);
            if (at < 0) break;
            seen = 1;
            for (int v = 0; VALUES[v]; v++) {
                size_t n = strlen(text) + strlen(attr) + strlen(VALUES[v]) + 8;
                char *x = malloc(n);
                ck_assert_ptr_nonnull(x);
                snprintf(x, n, "%.*s %s=\"%s\"%s", (int)at, text, attr, VALUES[v], text + at);
                pair_t before = *find(a, elem, attr);
                char err[1024];
                a->file = files[f];
                cs_mjcf_set_audit(on_audit, a);
                cs_model *m = cs_load_xml_string(x, files[f], NULL, err, sizeof err);
                cs_mjcf_set_audit(NULL, NULL);
                free(x);
                if (!m) continue;
                cs_free_model(m);
                const pair_t *p = find(a, elem, attr);
                free(text);
                snprintf(where, wn, "%.500s, value \"%s\"", files[f], VALUES[v]);
                return p->unread > before.unread ? -1 : 1;
            }
        }
        free(text);
    }
    return seen ? 0 : -2;
}

START_TEST(test_every_accepted_attribute_is_read)
{
    static audit_t a;
    list_dir(CS_TEST_DATA "/good");
    list_dir(CS_SCENES);
    list_dir(CS_TEST_DATA "/../oracle/scenes");
    ck_assert_int_gt(nfiles, 20);
    cs_mjcf_set_audit(on_audit, &a);
    for (int f = 0; f < nfiles; f++) {
        char err[1024];
        a.file = files[f];
        cs_model *m = cs_load_xml(files[f], NULL, err, sizeof err);
        ck_assert_msg(m != NULL, "%s", err);
        cs_free_model(m);
    }
    cs_mjcf_set_audit(NULL, NULL);
    int unread = 0, unprobed = 0, n0 = a.n;
    for (int i = 0; i < n0; i++) {
        pair_t *p = &a.p[i];
        if (p->unread) {
            printf("accepted and never read: <%s %s> (%s)\n", p->elem, p->attr, p->where);
            unread++;
        } else if (p->accepted && !p->read && !p->ignored) {
            char where[700] = "";
            int r = probe(&a, p->elem, p->attr, where, sizeof where);
            if (r == -1) {
                printf("accepted and never read: <%s %s> (%s)\n", p->elem, p->attr, where);
                unread++;
            } else if (r == -2) {
                printf("accepted, no file of the walk has <%s>: %s\n", p->elem, p->attr);
                unprobed++;
            }
        }
    }
    printf("%d element/attribute pairs, %d accepted and never read, %d not probed\n", n0,
           unread, unprobed);
    fflush(stdout);
    ck_assert_int_eq(unread, 0);
    ck_assert_int_eq(unprobed, 0);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("mjcf-audit");
    TCase *t = tcase_create("audit");
    tcase_set_timeout(t, 120);
    tcase_add_test(t, test_every_accepted_attribute_is_read);
    suite_add_tcase(s, t);
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int f = srunner_ntests_failed(r);
    srunner_free(r);
    return f ? EXIT_FAILURE : EXIT_SUCCESS;
}
