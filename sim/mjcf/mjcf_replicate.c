/* <replicate>: copies of the enclosed kinematic tree with a name suffix each, as MuJoCo does,
 * made on the document before anything else reads it. Replica i becomes a <frame> at
 * pos_i, euler i * euler, with pos_0 = 0 and pos_{i+1} = pos_i + R(i * euler) offset (the
 * offset in the previous replica's frame). Every name in replica i gets sep + i (as many
 * digits as count has), innermost replicate first. Elements of <contact>, <equality>,
 * <tendon>, <actuator> and <sensor> that name something inside are replicated with it: the
 * originals leave their place and the copies, replica by replica, go to the end of their
 * section's list, as MuJoCo's attach appends them. An <attach> inside makes its names when
 * it is read: each copy carries its suffix for them (mjcf_ir.h). */
#include <ctype.h>
#include <math.h>
#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/tree.h>

#include "mjcf_read.h"
#include "numlist.h"

/* every element made stays under this, whatever the nesting (a typo's count of 10^9
 * must be an error, not the machine's memory) */
#define MAX_MADE 4000000L

static const char *const REF_ATTRS[] = {
    "objname", "refname", "site", "joint", "tendon", "actuator", "body", "geom", "geom1",
    "geom2", "body1", "body2", "subtree1", "subtree2", "site1", "site2", "joint1", "joint2",
    "tendon1", "tendon2", "jointinparent", "refsite", "cranksite", "slidersite", "sidesite",
    "target", NULL};
static const char *const REF_SECTIONS[] = {"contact", "equality", "tendon", "actuator",
                                           "sensor", NULL};

typedef struct {
    cs_mjcf *c;
    char **names; /* the names inside the replicate being expanded */
    int nnames, capnames;
    long made;
} rep_ctx;


static int listed(const char *s, const char *const *list)
{
    for (; *list; list++)
        if (strcmp(s, *list) == 0) return 1;
    return 0;
}

static void euler_quat(const cs_mjcf *c, const double e[3], double q[4])
{
    q[0] = 1;
    q[1] = q[2] = q[3] = 0;
    for (int i = 0; i < 3; i++) {
        char ax = c->eulerseq[i];
        double axis[3] = {0, 0, 0}, r[4];
        axis[tolower((unsigned char)ax) - 'x'] = 1;
        cs_axisangle2quat(r, axis, c->degree ? e[i] / 180.0 * M_PI : e[i]); /* as MuJoCo rounds */
        if (islower((unsigned char)ax)) cs_mulquat(q, q, r); /* moving axes */
        else cs_mulquat(q, r, q);
    }
}

static int read_vec3(xmlNode *n, const char *name, double v[3])
{
    const char *s = cs_mjcf_prop(n, name);
    return !s || cs_numlist(s, v, 3) == 3;
}

static void add_name(rep_ctx *r, const char *s)
{
    cs_mjcf_grow(r->c, (void **)&r->names, &r->capnames, r->nnames, sizeof(char *));
    r->names[r->nnames++] = cs_mjcf_strdup(r->c, s);
}

static int inside(const rep_ctx *r, const char *s)
{
    for (int i = 0; i < r->nnames; i++)
        if (strcmp(r->names[i], s) == 0) return 1;
    return 0;
}

static void collect_names(rep_ctx *r, xmlNode *n)
{
    for (; n; n = n->next) {
        if (n->type != XML_ELEMENT_NODE) continue;
        const char *s = cs_mjcf_prop(n, "name");
        if (s) add_name(r, s);
        collect_names(r, n->children);
    }
}

static long count_elements(xmlNode *n)
{
    long k = 0;
    for (; n; n = n->next)
        if (n->type == XML_ELEMENT_NODE) k += 1 + count_elements(n->children);
    return k;
}

/* the copy keeps its original's place in the numbering of the model's files */
static void copy_lines(xmlNode *to, xmlNode *from)
{
    for (; to && from; to = to->next, from = from->next) {
        to->_private = from->_private;
        copy_lines(to->children, from->children);
    }
}

static xmlNode *copy_of(rep_ctx *r, xmlNode *n)
{
    xmlNode *k = xmlDocCopyNode(n, n->doc, 1);
    if (!k) cs_mjcf_nomem(r->c);
    k->_private = n->_private;
    copy_lines(k->children, n->children);
    return k;
}

static void suffixed(cs_mjcf *c, xmlNode *n, const char *attr, const char *suffix)
{
    const char *s = cs_mjcf_prop(n, attr);
    if (!s) return;
    size_t len = strlen(s) + strlen(suffix) + 1;
    char *v = malloc(len);
    if (!v) cs_mjcf_nomem(c);
    snprintf(v, len, "%s%s", s, suffix);
    if (!xmlSetProp(n, (const xmlChar *)attr, (const xmlChar *)v)) {
        free(v);
        cs_mjcf_nomem(c);
    }
    free(v);
}

/* an <attach>'s names are made when it is read: it carries the suffix until then */
static void mark_attach(cs_mjcf *c, xmlNode *n, const char *suffix, int later)
{
    if (!cs_mjcf_prop(n, CS_MJCF_REPLICA_SUFFIX)) cs_mjcf_set_prop(c, n, CS_MJCF_REPLICA_SUFFIX, "");
    suffixed(c, n, CS_MJCF_REPLICA_SUFFIX, suffix);
    if (later) cs_mjcf_set_prop(c, n, CS_MJCF_REPLICA_LATER, "1");
}

/* names, and references to names of the replica, with the suffix: within the tree (all=1:
 * every name) or in a referencing element (its own name and its references inside); later:
 * not the replicate's first copy */
static void rename_tree(rep_ctx *r, xmlNode *n, const char *suffix, int later, int siblings)
{
    for (; n; n = siblings ? n->next : NULL) {
        if (n->type == XML_ELEMENT_NODE && cs_mjcf_is_elem(n, "attach")) {
            const char *b = cs_mjcf_prop(n, "body"), *f = cs_mjcf_prop(n, "frame"), *s;
            if (!cs_mjcf_prop(n, "model") && ((b && inside(r, b)) || (f && inside(r, f)))) {
                /* a copy of an element of the same replica: MuJoCo copies it before it
                 * replicates both, so the copy's names carry the replica's suffix already.
                 * An inner replicate that left the element out has put its suffix first:
                 * not supported */
                s = cs_mjcf_prop(n, CS_MJCF_REPLICA_SUFFIX);
                if (s && *s) cs_mjcf_set_prop(r->c, n, CS_MJCF_REPLICA_INSIDE, "1");
                suffixed(r->c, n, b ? "body" : "frame", suffix);
            } else {
                /* its body or frame names an element of the model it attaches from */
                mark_attach(r->c, n, suffix, later);
            }
        } else if (n->type == XML_ELEMENT_NODE) {
            suffixed(r->c, n, "name", suffix);
            for (int i = 0; REF_ATTRS[i]; i++) {
                const char *v = cs_mjcf_prop(n, REF_ATTRS[i]);
                if (v && inside(r, v)) suffixed(r->c, n, REF_ATTRS[i], suffix);
            }
            rename_tree(r, n->children, suffix, later, 1);
        }
        if (!siblings) break;
    }
}

static int refers(const rep_ctx *r, xmlNode *n)
{
    for (int i = 0; REF_ATTRS[i]; i++) {
        const char *v = cs_mjcf_prop(n, REF_ATTRS[i]);
        if (v && inside(r, v)) return 1;
    }
    for (xmlNode *ch = n->children; ch; ch = ch->next)
        if (ch->type == XML_ELEMENT_NODE && refers(r, ch)) return 1;
    return 0;
}

static void suffix_of(char *buf, size_t len, const char *sep, long count, long i)
{
    int digits = snprintf(NULL, 0, "%ld", count);
    snprintf(buf, len, "%s%0*ld", sep, digits, i);
}

/* the referencing elements of one section kind: out of their places, then count copies
 * each at the end of the kind's last section */
static void replicate_refs(rep_ctx *r, xmlNode *root, const char *kind, long count,
                           const char *sep)
{
    xmlNode *last = NULL;
    int n = 0, cap = 0;
    xmlNode **refs = NULL;
    for (xmlNode *s = root->children; s; s = s->next) {
        if (!cs_mjcf_is_elem(s, kind)) continue;
        last = s;
        for (xmlNode *e = s->children; e; e = e->next)
            if (e->type == XML_ELEMENT_NODE && refers(r, e)) {
                cs_mjcf_grow(r->c, (void **)&refs, &cap, n, sizeof *refs);
                refs[n++] = e;
            }
    }
    if (!n) return;
    char suffix[96];
    for (long i = 0; i < count; i++) {
        suffix_of(suffix, sizeof suffix, sep, count, i);
        for (int k = 0; k < n; k++) {
            xmlNode *e = copy_of(r, refs[k]);
            xmlAddChild(last, e);
            rename_tree(r, e, suffix, i > 0, 0);
        }
    }
    for (int k = 0; k < n; k++) {
        xmlUnlinkNode(refs[k]);
        xmlFreeNode(refs[k]);
    }
}

static void expand(rep_ctx *r, xmlNode *root, xmlNode *rep);

/* innermost first, in document order */
static void expand_all(rep_ctx *r, xmlNode *root, xmlNode *n)
{
    for (xmlNode *ch = n->children, *next; ch; ch = next) {
        next = ch->next;
        if (ch->type != XML_ELEMENT_NODE) continue;
        expand_all(r, root, ch);
        if (cs_mjcf_is_elem(ch, "replicate")) expand(r, root, ch);
    }
}

static void expand(rep_ctx *r, xmlNode *root, xmlNode *rep)
{
    cs_mjcf *c = r->c;
    int line = cs_mjcf_line(rep);
    for (xmlAttr *a = rep->properties; a; a = a->next) {
        /* MuJoCo's schema takes a prefix here and its reader never reads it */
        if (strcmp((const char *)a->name, "prefix") == 0) {
            cs_mjcf_note_ignored(c, "replicate/@prefix");
            continue;
        }
        if (!listed((const char *)a->name,
                    (const char *const[]){"count", "offset", "euler", "sep", "childclass", NULL}))
            cs_mjcf_fail(c, line, "replicate", (const char *)a->name,
                         "unknown or unsupported attribute");
    }
    const char *cs = cs_mjcf_prop(rep, "count");
    char *end = NULL;
    long count = cs ? strtol(cs, &end, 10) : 0;
    if (!cs) cs_mjcf_fail(c, line, "replicate", "count", "required");
    while (end && isspace((unsigned char)*end)) end++;
    if (end == cs || *end || count < 1)
        cs_mjcf_fail(c, line, "replicate", "count", "'%s' is not a positive whole number", cs);
    double offset[3] = {0, 0, 0}, euler[3] = {0, 0, 0};
    if (!read_vec3(rep, "offset", offset))
        cs_mjcf_fail(c, line, "replicate", "offset", "expected 3 numbers");
    if (!read_vec3(rep, "euler", euler))
        cs_mjcf_fail(c, line, "replicate", "euler", "expected 3 numbers");
    const char *sep = cs_mjcf_prop(rep, "sep");
    if (!sep) sep = "";
    if (strlen(sep) > 64) cs_mjcf_fail(c, line, "replicate", "sep", "longer than 64 characters");
    long size = count_elements(rep->children);
    if (count > MAX_MADE || (r->made += count * size) > MAX_MADE)
        cs_mjcf_fail(c, line, "replicate", "count",
                     "%ld copies of %ld elements: more than %ld elements in all", count, size,
                     MAX_MADE);

    r->nnames = 0;
    collect_names(r, rep->children);
    const char *cc = cs_mjcf_prop(rep, "childclass");
    double pos[3] = {0, 0, 0};
    char buf[160], suffix[96];
    for (long i = 0; i < count; i++) {
        double e[3] = {i * euler[0], i * euler[1], i * euler[2]}, q[4], mat[9];
        xmlNode *f = xmlNewDocNode(rep->doc, NULL, (const xmlChar *)"frame", NULL);
        if (!f) cs_mjcf_nomem(c);
        f->_private = rep->_private;
        f->line = rep->line;
        if (!xmlAddPrevSibling(rep, f)) {
            xmlFreeNode(f);
            cs_mjcf_nomem(c);
        }
        snprintf(buf, sizeof buf, "%.17g %.17g %.17g", pos[0], pos[1], pos[2]);
        cs_mjcf_set_prop(c, f, "pos", buf);
        snprintf(buf, sizeof buf, "%.17g %.17g %.17g", e[0], e[1], e[2]);
        cs_mjcf_set_prop(c, f, "euler", buf);
        if (cc) cs_mjcf_set_prop(c, f, "childclass", cc);
        suffix_of(suffix, sizeof suffix, sep, count, i);
        for (xmlNode *ch = rep->children; ch; ch = ch->next) {
            if (ch->type != XML_ELEMENT_NODE) continue;
            xmlNode *k = copy_of(r, ch);
            xmlAddChild(f, k);
            rename_tree(r, k, suffix, i > 0, 0);
        }
        /* the next replica's position: this one's, plus the offset in this one's frame */
        euler_quat(c, e, q);
        cs_quat2mat(mat, q);
        for (int j = 0; j < 3; j++)
            pos[j] += (mat[3 * j] * offset[0] + mat[3 * j + 1] * offset[1] +
                       mat[3 * j + 2] * offset[2]);
    }
    for (int k = 0; REF_SECTIONS[k]; k++) replicate_refs(r, root, REF_SECTIONS[k], count, sep);
    xmlUnlinkNode(rep);
    xmlFreeNode(rep);
}

void cs_mjcf_replicate(cs_mjcf *c, void *rootp)
{
    xmlNode *root = rootp;
    rep_ctx r = {.c = c};
    for (xmlNode *ch = root->children; ch; ch = ch->next)
        if (cs_mjcf_is_elem(ch, "worldbody")) expand_all(&r, root, ch);
}
