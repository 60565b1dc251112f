/* <attach> without a model: a copy of a body or frame of this very model, MuJoCo 3.12's
 * self-attach. The element must come before the <attach> in the document (MuJoCo finds it
 * among what it has read so far) and must not hold it (the copy would hold itself). The copy
 * keeps its own pose in the <attach>'s frame; every name in it gets the prefix (and a
 * replica's suffix); the elements of this model's contact, tendon, equality, actuator and
 * sensor sections that name something in it (or nothing at all) are copied with every
 * reference prefixed, and those that then name what is not in the model are dropped by the
 * caller, as MuJoCo drops them (an exclusion keeps its other body unprefixed when only one
 * of its bodies is in the copy). Classes and assets are this model's own, shared. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/tree.h>

#include "mjcf_read.h"

/* attributes that name an element (classes and assets stay this model's own) */
static const char *const REFS[] = {
    "objname", "refname", "site", "joint", "tendon", "actuator", "body", "geom", "geom1",
    "geom2", "body1", "body2", "subtree1", "subtree2", "site1", "site2", "joint1", "joint2",
    "tendon1", "tendon2", "jointinparent", "refsite", "cranksite", "slidersite", "sidesite",
    "target", NULL};
static const char *const SECTIONS[] = {"contact", "tendon", "equality", "actuator", "sensor",
                                       NULL};

typedef struct {
    cs_mjcf *c;
    const cs_mjcf_selfnames *nm;
    const char **inside; /* the names in the copied element */
    int ninside, capinside;
} ren_t;

static int is_inside(const ren_t *r, const char *s)
{
    for (int i = 0; i < r->ninside; i++)
        if (strcmp(r->inside[i], s) == 0) return 1;
    return 0;
}

static void collect(ren_t *r, xmlNode *n)
{
    for (; n; n = n->next) {
        if (n->type != XML_ELEMENT_NODE) continue;
        const char *s = cs_mjcf_prop(n, "name");
        if (s) {
            cs_mjcf_grow(r->c, (void **)&r->inside, &r->capinside, r->ninside, sizeof *r->inside);
            r->inside[r->ninside++] = s;
        }
        collect(r, n->children);
    }
}

/* a name of this model's scope (an attached model's: its prefix and suffix around it) with
 * the self-attach's prefix and suffix inside that scope's */
static char *renamed(cs_mjcf *c, const cs_mjcf_selfnames *nm, const char *v)
{
    size_t lp = strlen(nm->scope_prefix), ls = strlen(nm->scope_suffix), lv = strlen(v);
    if (lv >= lp + ls && strncmp(v, nm->scope_prefix, lp) == 0 &&
        strcmp(v + lv - ls, nm->scope_suffix) == 0) {
        v += lp;
        lv -= lp + ls;
    } else {
        lv = strlen(v);
    }
    size_t n = strlen(nm->scope_prefix) + strlen(nm->prefix) + lv + strlen(nm->suffix) +
               strlen(nm->scope_suffix) + 1;
    char *s = cs_mjcf_alloc(c, n);
    snprintf(s, n, "%s%s%.*s%s%s", nm->scope_prefix, nm->prefix, (int)lv, v, nm->suffix,
             nm->scope_suffix);
    return s;
}

/* a name as the current scope holds it */
static char *scoped(cs_mjcf *c, const cs_mjcf_selfnames *nm, const char *v)
{
    size_t n = strlen(nm->scope_prefix) + strlen(v) + strlen(nm->scope_suffix) + 1;
    char *s = cs_mjcf_alloc(c, n);
    snprintf(s, n, "%s%s%s", nm->scope_prefix, v, nm->scope_suffix);
    return s;
}

static void rename_copy(ren_t *r, xmlNode *n);

/* the copied element itself (rename_copy() walks siblings: the holder has others) */
static void rename_one(ren_t *r, xmlNode *n)
{
    const char *v = cs_mjcf_prop(n, "name");
    if (v) cs_mjcf_set_prop(r->c, n, "name", renamed(r->c, r->nm, v));
    for (const char *const *a = REFS; *a; a++) {
        v = cs_mjcf_prop(n, *a);
        if (v && is_inside(r, v)) cs_mjcf_set_prop(r->c, n, *a, renamed(r->c, r->nm, v));
    }
}

static void rename_copy(ren_t *r, xmlNode *n)
{
    for (; n; n = n->next) {
        if (n->type != XML_ELEMENT_NODE) continue;
        if (cs_mjcf_is_elem(n, "attach")) {
            /* an attachment inside makes its names when read: the prefix goes in front of its
             * own, the suffix behind its own */
            const char *p = cs_mjcf_prop(n, "prefix"), *s = cs_mjcf_prop(n, CS_MJCF_REPLICA_SUFFIX);
            size_t lp = strlen(r->nm->prefix) + (p ? strlen(p) : 0) + 1;
            char *np = cs_mjcf_alloc(r->c, lp);
            snprintf(np, lp, "%s%s", r->nm->prefix, p ? p : "");
            if (p) cs_mjcf_set_prop(r->c, n, "prefix", np);
            size_t ls = (s ? strlen(s) : 0) + strlen(r->nm->suffix) + 1;
            char *ns = cs_mjcf_alloc(r->c, ls);
            snprintf(ns, ls, "%s%s", s ? s : "", r->nm->suffix);
            cs_mjcf_set_prop(r->c, n, CS_MJCF_REPLICA_SUFFIX, ns);
            continue;
        }
        const char *v = cs_mjcf_prop(n, "name");
        if (v) cs_mjcf_set_prop(r->c, n, "name", renamed(r->c, r->nm, v));
        for (const char *const *a = REFS; *a; a++) {
            v = cs_mjcf_prop(n, *a);
            if (v && is_inside(r, v)) cs_mjcf_set_prop(r->c, n, *a, renamed(r->c, r->nm, v));
        }
        rename_copy(r, n->children);
    }
}

/* whether a section element is copied: it names something in the copied element, or
 * nothing at all */
static int names_inside(const ren_t *r, xmlNode *n, int *any)
{
    for (const char *const *a = REFS; *a; a++) {
        const char *v = cs_mjcf_prop(n, *a);
        if (!v) continue;
        *any = 1;
        if (is_inside(r, v)) return 1;
    }
    for (xmlNode *ch = n->children; ch; ch = ch->next)
        if (ch->type == XML_ELEMENT_NODE && names_inside(r, ch, any)) return 1;
    return 0;
}

/* a section element's copy: every reference prefixed (MuJoCo's namespacing), an exclusion's
 * body outside the copy kept as it is when the other one is inside */
static void rename_ref(ren_t *r, xmlNode *n)
{
    const char *b1 = cs_mjcf_prop(n, "body1"), *b2 = cs_mjcf_prop(n, "body2");
    int excl = cs_mjcf_is_elem(n, "exclude") && b1 && b2;
    int in1 = excl && is_inside(r, b1), in2 = excl && is_inside(r, b2);
    const char *v = cs_mjcf_prop(n, "name");
    if (v) cs_mjcf_set_prop(r->c, n, "name", renamed(r->c, r->nm, v));
    for (const char *const *a = REFS; *a; a++) {
        v = cs_mjcf_prop(n, *a);
        if (!v) continue;
        if (excl && in1 != in2 && ((strcmp(*a, "body1") == 0 && !in1) ||
                                   (strcmp(*a, "body2") == 0 && !in2)))
            continue;
        cs_mjcf_set_prop(r->c, n, *a, renamed(r->c, r->nm, v));
    }
    for (xmlNode *ch = n->children; ch; ch = ch->next)
        if (ch->type == XML_ELEMENT_NODE) rename_ref(r, ch);
}

static void copy_lines(xmlNode *to, xmlNode *from)
{
    for (; to && from; to = to->next, from = from->next) {
        to->_private = from->_private;
        copy_lines(to->children, from->children);
    }
}

/* a copy, at once under root (which the caller frees) */
static xmlNode *copy_of(cs_mjcf *c, xmlNode *root, xmlNode *n)
{
    xmlNode *k = xmlDocCopyNode(n, n->doc, 1);
    if (!k) cs_mjcf_nomem(c);
    xmlAddChild(root, k);
    k->_private = n->_private;
    copy_lines(k->children, n->children);
    return k;
}

/* the element named want among the bodies and frames before `at` in document order (pre-order,
 * at's own ancestors included); *holds: it is one of at's ancestors */
typedef struct {
    xmlNode *at, *found;
    const char *kind, *want;
    int passed;
} find_t;

static void find_before(find_t *f, xmlNode *n)
{
    for (; n && !f->passed; n = n->next) {
        if (n == f->at) {
            f->passed = 1;
            return;
        }
        if (n->type != XML_ELEMENT_NODE) continue;
        const char *v = cs_mjcf_prop(n, "name");
        if (!f->found && cs_mjcf_is_elem(n, f->kind) && v && strcmp(v, f->want) == 0) f->found = n;
        find_before(f, n->children);
    }
}

static int holds(const xmlNode *a, const xmlNode *n)
{
    for (; n; n = n->parent)
        if (n == a) return 1;
    return 0;
}

void cs_mjcf_self_copy(cs_mjcf *c, xmlNode *at, xmlNode *docroot,
                       const cs_mjcf_selfnames *nm, int kind, const char *what,
                       xmlNode *holder, cs_mjcf_selfcopy *out)
{
    int line = cs_mjcf_line(at);
    const char *kname = kind ? "frame" : "body";
    xmlNode *root = docroot;
    find_t f = {.at = at, .kind = kname, .want = scoped(c, nm, what)};
    for (xmlNode *ch = root->children; ch && !f.passed; ch = ch->next)
        if (cs_mjcf_is_elem(ch, "worldbody")) find_before(&f, ch->children);
    if (!f.found)
        cs_mjcf_fail(c, line, "attach", kname, "could not find %s '%s' in the current model for "
                     "self-attachment", kname, what);
    if (holds(f.found, at))
        cs_mjcf_fail(c, line, "attach", kname, "cannot self-attach %s '%s' inside itself", kname,
                     what);

    ren_t r = {.c = c, .nm = nm};
    const char *own = cs_mjcf_prop(f.found, "name");
    if (own) {
        cs_mjcf_grow(c, (void **)&r.inside, &r.capinside, r.ninside, sizeof *r.inside);
        r.inside[r.ninside++] = own;
    }
    collect(&r, f.found->children);

    out->root = holder;
    holder->_private = root->_private;
    out->target = copy_of(c, holder, f.found);
    out->source = f.found;
    rename_copy(&r, out->target->children);
    rename_one(&r, out->target);
    /* the sections' elements */
    for (xmlNode *s = root->children; s; s = s->next) {
        if (s->type != XML_ELEMENT_NODE || !cs_mjcf_in_list((const char *)s->name, SECTIONS))
            continue;
        xmlNode *k = copy_of(c, holder, s);
        for (xmlNode *e = k->children, *next; e; e = next) {
            next = e->next;
            if (e->type != XML_ELEMENT_NODE) continue;
            int any = 0;
            if (names_inside(&r, e, &any) || !any) {
                rename_ref(&r, e);
            } else {
                /* an element of another part (an earlier copy's names could resolve it) */
                xmlUnlinkNode(e);
                xmlFreeNode(e);
            }
        }
    }
    out->haskeys = 0;
    for (xmlNode *s = root->children; s; s = s->next)
        if (cs_mjcf_is_elem(s, "keyframe"))
            for (xmlNode *k = s->children; k; k = k->next)
                if (cs_mjcf_is_elem(k, "key")) out->haskeys = 1;
}
