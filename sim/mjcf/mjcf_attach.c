/* <asset><model> and <attach>: another MJCF file's body (with its subtree), frame or whole
 * world brought into this model, with MuJoCo 3.12's meaning (mjs_attach):
 *
 * - the attached elements read as in their own file: its <compiler> settings (angle,
 *   eulerseq, autolimits, asset directories) and its default classes, never this model's;
 * - every name of the attached model, and every reference to one, gets the prefix (its
 *   classes and assets too: all its assets come along, as MuJoCo copies them all);
 * - its contact pairs and excludes, tendons, equalities, actuators and sensors come after
 *   this model's, each only when everything it names is in the model by then (MuJoCo drops
 *   the others silently), in MuJoCo's order;
 * - its keys become keys of this model (prefixed names, after this model's): the attached
 *   joints and actuators take the key's values, everything else its reference pose;
 * - an attached body keeps its own pose, in the frame of the <attach> (the frames that held
 *   it in its file do not come along); a frame keeps its pose; a whole world comes in as a
 *   frame at the <attach>;
 * - inside <replicate>s, each copy's names take the replicas' suffixes after the prefix (the
 *   classes, assets and keys do not: MuJoCo attaches once and copies the attached tree and
 *   what names it); the keys come with the first copy only, without controls or
 *   activations, as MuJoCo's copies of the actuators keep none;
 * - its <option> values are this model's unless <compiler conflict> says otherwise
 *   ("merge": the smaller step and tolerances, the larger iteration counts, the attached
 *   model's values where this model gives none, flags added; an error for other values
 *   both give differently; "error": an error for any value the two give differently).
 *
 * The attached file is read once per <model>; each <attach> works on a renamed copy of it,
 * read by the reader's element readers (mjcf_read.h) in two calls: the items the attachment
 * adds to the body that holds it (a frame's or a world's geoms, sites, joints) among that
 * body's items, its bodies among the body's children. */
#define _XOPEN_SOURCE 700 /* realpath */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <libxml/parser.h>
#include <libxml/tree.h>

#include "alloc.h"
#include "mjcf_read.h"
#include "option_table.h"
#include "stages.h"

/* the compiler settings that govern how a file's elements read, and its <lengthrange>
 * (an attached file's is read and dropped: the length ranges are the compiled model's) */
typedef struct {
    int degree, autolimits, inertiafromgeom, balanceinertia, fitaabb, igroup[2], conflict;
    int alignfree, fusestatic;
    char eulerseq[4];
    double boundmass, boundinertia, settotalmass;
    char *meshdir, *assetdir, *texturedir;
    cs_lropt lropt;
} comp_t;

typedef struct {
    char *name;
    xmlDoc *doc;
    xmlNode *root;
    int src, owner;       /* its file; the top file of the document that declared it */
    comp_t comp;
} model_asset;

/* one <attach>, between its two calls */
typedef struct {
    xmlNode *at;          /* the <attach> element */
    int asset;
    xmlNode *root, *target; /* the renamed copy; the body or frame (the world: NULL) */
    int kind;             /* 0 body, 1 frame, 2 world */
    int cls;              /* the attached model's main class */
    char *prefix;         /* the whole prefix (enclosing attachments' first) */
    char *suffix;         /* the whole suffix of a replicated one (its own first), else "" */
    int later;            /* a replica after the first: the attached model's keys are not its */
    int self;             /* a copy of this model's own body or frame (asset -1) */
    xmlNode *docroot;     /* self: the <mujoco> of the document it copies from */
    int *jnt, njnt, capjnt; /* the joints it added, in order */
} attach_rec;

struct cs_keymap {
    int nj;
    int *jnt, *cq, *cv;   /* this model's joint; its qpos and dof address in the attached one */
    int nu;
    int *act, *cu, *ca;   /* this model's actuator; its index and act address (-1) there */
};

struct cs_mjcf_attach {
    model_asset *asset;
    int nasset, capasset;
    attach_rec *rec;
    int nrec, caprec;
    xmlNode **copy;       /* the renamed copies, freed before their documents */
    int ncopy, capcopy;
    const char *prefix;   /* of the attachment being read ("" outside any) */
    const char *suffix;
    int later;
    long made;            /* elements copied in by attachments, all told */
    int depth;            /* attachments being read inside attachments */
};

/* self-attachments inside copies of self-attachments stop here */
#define MAX_DEPTH 16

/* ---- small helpers ------------------------------------------------------------------ */
static struct cs_mjcf_attach *state(cs_mjcf *c)
{
    if (!c->att) {
        c->att = cs_mjcf_alloc(c, sizeof *c->att);
        memset(c->att, 0, sizeof *c->att);
        c->att->prefix = "";
        c->att->suffix = "";
    }
    return c->att;
}

static char *concat(cs_mjcf *c, const char *a, const char *b)
{
    size_t n = strlen(a) + strlen(b) + 1;
    char *s = cs_mjcf_alloc(c, n);
    snprintf(s, n, "%s%s", a, b);
    return s;
}

static int src_of(const cs_mjcf *c, int line) { return cs_mjcf_src_of_line(c, line); }

/* every element copied in by attachments stays under this (a replicate of a large model
 * must be an error, not the machine's memory) */
#define MAX_ATTACHED 250000L

static long count_elements(const xmlNode *n)
{
    long k = 0;
    for (; n; n = n->next)
        if (n->type == XML_ELEMENT_NODE) k += 1 + count_elements(n->children);
    return k;
}

/* the first file of the document that holds file k (through its <include>s) */
static int top_of(const cs_mjcf *c, int k)
{
    while (k > 0 && !c->src[k].model) k = c->src[k].parent;
    return k;
}

static void comp_get(const cs_mjcf *c, comp_t *k)
{
    k->degree = c->degree;
    k->autolimits = c->autolimits;
    k->alignfree = c->alignfree;
    k->inertiafromgeom = c->inertiafromgeom;
    k->balanceinertia = c->balanceinertia;
    k->fitaabb = c->fitaabb;
    k->igroup[0] = c->igroup[0];
    k->igroup[1] = c->igroup[1];
    k->conflict = c->conflict;
    k->fusestatic = c->fusestatic;
    memcpy(k->eulerseq, c->eulerseq, 4);
    k->boundmass = c->boundmass;
    k->boundinertia = c->boundinertia;
    k->settotalmass = c->settotalmass;
    k->meshdir = c->meshdir;
    k->assetdir = c->assetdir;
    k->texturedir = c->texturedir;
    k->lropt = c->lropt;
}

static void comp_set(cs_mjcf *c, const comp_t *k)
{
    c->degree = k->degree;
    c->autolimits = k->autolimits;
    c->alignfree = k->alignfree;
    c->inertiafromgeom = k->inertiafromgeom;
    c->balanceinertia = k->balanceinertia;
    c->fitaabb = k->fitaabb;
    c->igroup[0] = k->igroup[0];
    c->igroup[1] = k->igroup[1];
    c->conflict = k->conflict;
    c->fusestatic = k->fusestatic;
    memcpy(c->eulerseq, k->eulerseq, 4);
    c->boundmass = k->boundmass;
    c->boundinertia = k->boundinertia;
    c->settotalmass = k->settotalmass;
    c->meshdir = k->meshdir;
    c->assetdir = k->assetdir;
    c->texturedir = k->texturedir;
    c->lropt = k->lropt;
}

/* MuJoCo's compiler defaults */
static void comp_default(comp_t *k)
{
    memset(k, 0, sizeof *k);
    k->degree = 1;
    k->autolimits = 1;
    k->inertiafromgeom = 2;
    k->igroup[1] = 5;
    k->settotalmass = -1;
    memcpy(k->eulerseq, "xyz", 4);
    cs_lropt_default(&k->lropt);
}

/* ---- <asset><model> ---------------------------------------------------------------- */
static void set_base(xmlNode *n, int base)
{
    for (; n; n = n->next) {
        n->_private = (void *)(intptr_t)base;
        set_base(n->children, base);
    }
}

static char *dir_of(cs_mjcf *c, const char *path)
{
    const char *sl = strrchr(path, '/');
    size_t n = sl ? (size_t)(sl - path + 1) : 0;
    char *d = cs_mjcf_alloc(c, n + 1);
    memcpy(d, path, n);
    d[n] = 0;
    return d;
}

/* the file, parsed (errors name the <model>, or the file's own line) */
static xmlDoc *read_model_file(cs_mjcf *c, xmlNode *n, const char *path, int parent, int pline)
{
    size_t len = cs_mjcf_read_file(c, n, path);
    char real[PATH_MAX];
    xmlDoc *doc = cs_mjcf_parse_file(c, path, realpath(path, real) ? real : NULL, len, parent,
                                     pline, 1);
    int base = c->src[c->nsrc - 1].base;
    if (doc->intSubset)
        cs_mjcf_fail(c, base + 1, NULL, NULL, "DOCTYPE declarations are not supported (MJCF has "
                                              "no DTD)");
    xmlNode *root = xmlDocGetRootElement(doc);
    if (root) set_base(root, base);
    if (!root || !cs_mjcf_is_elem(root, "mujoco"))
        cs_mjcf_fail(c, root ? base + (int)xmlGetLineNo(root) : base + 1, NULL, NULL,
                     "the root element must be <mujoco>");
    return doc;
}

void cs_mjcf_model_asset(cs_mjcf *c, xmlNode *n)
{
    struct cs_mjcf_attach *A = state(c);
    cs_mjcf_check(c, n, (const char *const[]){"name", "file", "content_type", NULL}, NULL);
    int line = cs_mjcf_line(n);
    char *file = cs_mjcf_attr(c, n, "file");
    if (!file || !*file) cs_mjcf_fail(c, line, "model", "file", "required attribute missing");
    char *ct = cs_mjcf_attr(c, n, "content_type");
    if (ct && strcmp(ct, "text/xml") != 0)
        cs_mjcf_fail(c, line, "model", "content_type", "'%s': only MJCF (text/xml) models can "
                                                       "be attached", ct);
    int me = src_of(c, line), top = top_of(c, me);
    /* MuJoCo reads it from the directory of the model file that declares it */
    char *path = file[0] == '/' ? file : concat(c, c->src[top].dir, file);
    xmlDoc *doc = read_model_file(c, n, path, me, line - c->src[me].base);
    cs_mjcf_grow(c, (void **)&A->asset, &A->capasset, A->nasset, sizeof *A->asset);
    model_asset *M = &A->asset[A->nasset++];
    memset(M, 0, sizeof *M);
    M->doc = doc;
    c->incdoc = NULL; /* the document is the asset's now */
    cs_free(c->incbuf);
    c->incbuf = NULL;
    xmlFreeParserCtxt(c->incpx);
    c->incpx = NULL;
    M->root = xmlDocGetRootElement(doc);
    M->src = c->nsrc - 1;
    M->owner = top;
    cs_mjcf_expand_includes(c, doc, M->root);
    const char *mn = cs_mjcf_prop(M->root, "model");
    char *nm = cs_mjcf_attr(c, n, "name");
    M->name = nm ? nm : cs_mjcf_strdup(c, mn ? mn : "MuJoCo Model");
    /* its compiler settings, and its <replicate>s expanded under them */
    comp_t saved;
    comp_get(c, &saved);
    comp_default(&M->comp);
    comp_set(c, &M->comp);
    for (xmlNode *ch = M->root->children; ch; ch = ch->next)
        if (cs_mjcf_is_elem(ch, "compiler")) cs_mjcf_parse_compiler(c, ch);
    comp_get(c, &M->comp);
    cs_mjcf_replicate(c, M->root);
    comp_set(c, &saved);
}

/* ---- the renamed copy ------------------------------------------------------------------- */
/* attributes that name an element, a class or an asset of the attached model */
static const char *const NAME_ATTRS[] = {
    "name", "class", "childclass", "objname", "refname", "site", "joint", "tendon", "actuator",
    "body", "geom", "geom1", "geom2", "body1", "body2", "subtree1", "subtree2", "site1", "site2",
    "joint1", "joint2", "tendon1", "tendon2", "jointinparent", "refsite", "cranksite",
    "slidersite", "sidesite", "target", "targetbody", "mesh", "material", "hfield", "texture",
    "camera", NULL};

static void copy_lines(xmlNode *to, xmlNode *from)
{
    for (; to && from; to = to->next, from = from->next) {
        to->_private = from->_private;
        copy_lines(to->children, from->children);
    }
}

/* MuJoCo's rule for an asset file of the attached model: its own directories, from its own
 * file's directory (made absolute, so that this model's rule keeps it) */
static char *asset_path(cs_mjcf *c, const model_asset *M, const char *dir, const char *file)
{
    if (file[0] == '/') return NULL;
    size_t l = dir ? strlen(dir) : 0;
    const char *sep = l && dir[l - 1] != '/' ? "/" : "";
    if (dir && dir[0] == '/') return concat(c, concat(c, dir, sep), file);
    const cs_srcfile *S = &c->src[M->src];
    char *base = S->real ? dir_of(c, S->real) : S->dir;
    return concat(c, concat(c, concat(c, base, dir ? dir : ""), sep), file);
}

/* what a replicated attachment's suffix leaves alone: MuJoCo copies the attached tree and
 * what names it, while the classes, assets and keys stay the one set the attach made */
static const char *const UNSUFFIXED_ATTRS[] = {"class", "childclass", "mesh", "material",
                                               "hfield", "texture", NULL};
static const char *const UNSUFFIXED_SECTIONS[] = {"default", "asset", "keyframe", "custom",
                                                  NULL};

static void rename_tree(cs_mjcf *c, const model_asset *M, xmlNode *n, const char *prefix,
                        const char *suffix)
{
    for (; n; n = n->next) {
        if (n->type != XML_ELEMENT_NODE) continue;
        /* a nested attachment's names are its own model's; a model asset is found by name */
        if (cs_mjcf_is_elem(n, "attach")) continue;
        for (const char *const *a = NAME_ATTRS; *a; a++) {
            if (cs_mjcf_is_elem(n, "model") && strcmp(*a, "name") == 0) continue;
            const char *v = cs_mjcf_prop(n, *a);
            if (!v) continue;
            const char *sx = cs_mjcf_in_list(*a, UNSUFFIXED_ATTRS) ? "" : suffix;
            cs_mjcf_set_prop(c, n, *a, concat(c, concat(c, prefix, v), sx));
        }
        const char *file = cs_mjcf_prop(n, "file");
        if (file && !cs_mjcf_is_elem(n, "model")) {
            const char *dir = cs_mjcf_is_elem(n, "texture")
                                  ? (M->comp.texturedir ? M->comp.texturedir : M->comp.assetdir)
                                  : (M->comp.meshdir ? M->comp.meshdir : M->comp.assetdir);
            char *p = asset_path(c, M, dir, file);
            if (p) cs_mjcf_set_prop(c, n, "file", p);
        }
        /* the copy's root has no parent: its children are the file's sections */
        int section = n->parent && !n->parent->parent;
        rename_tree(c, M, n->children, prefix,
                    section && cs_mjcf_in_list((const char *)n->name, UNSUFFIXED_SECTIONS)
                        ? "" : suffix);
    }
}

static xmlNode *find_named(xmlNode *n, const char *elem, const char *name)
{
    for (; n; n = n->next) {
        if (n->type != XML_ELEMENT_NODE || cs_mjcf_is_elem(n, "attach")) continue;
        const char *v = cs_mjcf_prop(n, "name");
        if (cs_mjcf_is_elem(n, elem) && v && strcmp(v, name) == 0) return n;
        xmlNode *r = find_named(n->children, elem, name);
        if (r) return r;
    }
    return NULL;
}

/* the nearest childclass of the bodies and frames around n, below stop (NULL: the whole
 * document), else fallback */
static int childclass_around(cs_mjcf *c, xmlNode *n, const xmlNode *stop, int fallback)
{
    for (xmlNode *p = n->parent; p && p != stop && p->type == XML_ELEMENT_NODE; p = p->parent) {
        if (!(cs_mjcf_is_elem(p, "body") || cs_mjcf_is_elem(p, "frame"))) continue;
        const char *cc = cs_mjcf_prop(p, "childclass");
        if (!cc) continue;
        int k = cs_mjcf_find_class(c, cc);
        if (k < 0) cs_mjcf_fail(c, cs_mjcf_line(p), (const char *)p->name, "childclass",
                                "unknown class '%s'", cc);
        return k;
    }
    return fallback;
}

/* the class an element of the copy takes when it names none: the nearest childclass of
 * the bodies and frames around it in its own file, else its model's main class */
static int inherited_class(cs_mjcf *c, const attach_rec *R, xmlNode *n)
{
    return childclass_around(c, n, R->root, R->cls);
}

/* ---- reading the attached model's elements under its own settings ---------------------- */
typedef struct {
    comp_t comp;
    int rootcls;
    const char *prefix, *suffix;
    int later;
} scope_t;

static void enter(cs_mjcf *c, const attach_rec *R, scope_t *s)
{
    struct cs_mjcf_attach *A = c->att;
    comp_get(c, &s->comp);
    s->rootcls = c->rootcls;
    s->prefix = A->prefix;
    s->suffix = A->suffix;
    s->later = A->later;
    A->depth++;
    if (R->self) return; /* this model's own settings, classes and names */
    comp_set(c, &A->asset[R->asset].comp);
    c->rootcls = R->cls;
    A->prefix = R->prefix;
    A->suffix = R->suffix;
    A->later = R->later;
}

static void leave(cs_mjcf *c, const scope_t *s)
{
    comp_set(c, &s->comp);
    c->rootcls = s->rootcls;
    c->att->prefix = s->prefix;
    c->att->suffix = s->suffix;
    c->att->later = s->later;
    c->att->depth--;
}

/* The joints read since j0 under the attached model's settings, in this model's terms: the
 * angle unit kept per joint, limits MuJoCo decides by autolimits decided under the attached
 * model's (its error, at the attached file's line, when autolimits is false there) */
static void settle_joints(cs_mjcf *c, attach_rec *R, int j0, const comp_t *outer)
{
    const comp_t *in = &c->att->asset[R->asset].comp;
    for (int j = j0; j < c->njnt; j++) {
        cs_jointir *J = &c->jnt[j];
        if (!J->unit) J->unit = in->degree ? M_PI / 180 : 1;
        cs_mjcf_grow(c, (void **)&R->jnt, &R->capjnt, R->njnt, sizeof *R->jnt);
        R->jnt[R->njnt++] = j;
        if (in->autolimits == outer->autolimits) continue;
        cs_jspec *s = &J->s;
        int has = s->range[0] != 0 || s->range[1] != 0;
        if (s->limited == CS_LIMITED_AUTO) {
            if (!in->autolimits && has && s->type != CS_JNT_FREE)
                cs_mjcf_fail(c, J->line, "joint", "limited", "range is given with compiler "
                             "autolimits=\"false\": set limited");
            s->limited = has ? CS_LIMITED_TRUE : CS_LIMITED_FALSE;
        }
        int hasf = s->actfrcrange[0] != 0 || s->actfrcrange[1] != 0;
        if (s->actfrclimited == CS_LIMITED_AUTO) {
            if (!in->autolimits && hasf && s->type != CS_JNT_FREE)
                cs_mjcf_fail(c, J->line, "joint", "actuatorfrclimited", "actuatorfrcrange is "
                             "given with compiler autolimits=\"false\": set actuatorfrclimited");
            s->actfrclimited = hasf ? CS_LIMITED_TRUE : CS_LIMITED_FALSE;
        }
    }
}

static int settle_limit(cs_mjcf *c, int line, const char *tag, const char *what, int autolimits,
                        int limited, const double r[2])
{
    if (limited != CS_LIMITED_AUTO) return limited;
    int has = r[0] != 0 || r[1] != 0;
    if (!autolimits && has)
        cs_mjcf_fail(c, line, tag, what, "%s is given with compiler autolimits=\"false\": set "
                     "%s", strcmp(what, "ctrllimited") == 0 ? "ctrlrange"
                     : strcmp(what, "forcelimited") == 0 ? "forcerange" : "actrange", what);
    return r[0] < r[1] || (has && r[0] > r[1]) ? CS_LIMITED_TRUE : CS_LIMITED_FALSE;
}

/* ---- what the attached model's other elements name --------------------------------- */
#define FIND_IN(arr, count, nm)                                                  \
    do {                                                                         \
        for (int i_ = 0; i_ < (count); i_++)                                     \
            if (c->arr[i_].name && strcmp(c->arr[i_].name, (nm)) == 0) return 1; \
        return 0;                                                                \
    } while (0)

static int has_body(const cs_mjcf *c, const char *s) { FIND_IN(body, c->nbody, s); }
static int has_joint(const cs_mjcf *c, const char *s) { FIND_IN(jnt, c->njnt, s); }
static int has_geom(const cs_mjcf *c, const char *s) { FIND_IN(geom, c->ngeom, s); }
static int has_site(const cs_mjcf *c, const char *s) { FIND_IN(site, c->nsite, s); }
static int has_tendon(const cs_mjcf *c, const char *s) { FIND_IN(ten, c->nten, s); }

static int tendon_ok(const cs_mjcf *c, const cs_tendonir *T)
{
    for (int k = 0; k < T->njoint; k++) {
        const char *s = T->joint[k];
        if (!s) continue; /* a pulley */
        if (!T->spatial) {
            if (!has_joint(c, s)) return 0;
        } else if (T->kind[k] == CS_WRAP_SITE) {
            if (!has_site(c, s)) return 0;
        } else if (!has_geom(c, s)) {
            return 0;
        }
        if (T->spatial && T->side && T->side[k] && !has_site(c, T->side[k])) return 0;
    }
    return 1;
}

static int eq_ok(const cs_mjcf *c, const cs_eqir *E)
{
    int (*has)(const cs_mjcf *, const char *) =
        E->type == CS_EQ_JOINT    ? has_joint
        : E->type == CS_EQ_TENDON ? has_tendon
        : E->site                 ? has_site
                                  : has_body;
    return (!E->obj1 || has(c, E->obj1)) && (!E->obj2 || has(c, E->obj2));
}

static int act_ok(const cs_mjcf *c, const cs_actir *A)
{
    if (A->joint && !has_joint(c, A->joint)) return 0;
    if (A->tendon && !has_tendon(c, A->tendon)) return 0;
    if (A->site && !has_site(c, A->site)) return 0;
    if (A->cranksite && !has_site(c, A->cranksite)) return 0;
    if (A->refsite && !has_site(c, A->refsite)) return 0;
    if (A->body && !has_body(c, A->body)) return 0;
    if (A->s.slidersite && !has_site(c, A->s.slidersite)) return 0;
    return 1;
}

/* the elements from each kind's start that name only what is in the model, in MuJoCo's
 * order (a tendon dropped drops what names it); actuators: kept[i] = its index among the
 * attached model's */
static void keep_resolved(cs_mjcf *c, int p0, int x0, int t0, int e0, int a0, int s0, int *kept)
{
    int k = p0;
    for (int i = p0; i < c->npair; i++)
        if (has_geom(c, c->pair[i].geom1) && has_geom(c, c->pair[i].geom2)) c->pair[k++] = c->pair[i];
    c->npair = k;
    k = x0;
    for (int i = x0; i < c->nexcl; i++)
        if (has_body(c, c->excl[i].body1) && has_body(c, c->excl[i].body2)) c->excl[k++] = c->excl[i];
    c->nexcl = k;
    k = t0;
    for (int i = t0; i < c->nten; i++)
        if (tendon_ok(c, &c->ten[i])) c->ten[k++] = c->ten[i];
    c->nten = k;
    k = e0;
    for (int i = e0; i < c->neq; i++)
        if (eq_ok(c, &c->eq[i])) c->eq[k++] = c->eq[i];
    c->neq = k;
    k = a0;
    for (int i = a0; i < c->nact; i++)
        if (act_ok(c, &c->act[i])) {
            kept[k - a0] = i - a0;
            c->act[k++] = c->act[i];
        }
    c->nact = k;
    cs_mjcf_keep_resolved_sensors(c, s0);
}

/* ---- keys ------------------------------------------------------------------------------ */
/* the attached model's joints in its own order (bodies depth-first, a body's joints, those in
 * its frames included, before its children's), with their qpos and dof addresses */
typedef struct {
    xmlNode **node;
    int *qadr, *vadr;
    int n, cap, nq, nv;
} jlist;

static void add_joint(cs_mjcf *c, jlist *L, xmlNode *n, int cls)
{
    int type;
    if (cs_mjcf_is_elem(n, "freejoint")) {
        type = CS_JNT_FREE;
    } else {
        const char *cl = cs_mjcf_prop(n, "class");
        int k = cl ? cs_mjcf_find_class(c, cl) : cls;
        type = k >= 0 ? c->cls[k].joint.type : CS_JNT_HINGE;
        static const char *const T[] = {"free", "ball", "slide", "hinge", NULL};
        const char *t = cs_mjcf_prop(n, "type");
        for (int i = 0; t && T[i]; i++)
            if (strcmp(t, T[i]) == 0) type = i;
    }
    if (L->n == L->cap) {
        int cap = L->cap;
        cs_mjcf_grow(c, (void **)&L->node, &cap, L->n, sizeof *L->node);
        cap = L->cap;
        cs_mjcf_grow(c, (void **)&L->qadr, &cap, L->n, sizeof *L->qadr);
        cap = L->cap;
        cs_mjcf_grow(c, (void **)&L->vadr, &cap, L->n, sizeof *L->vadr);
        L->cap = cap;
    }
    L->node[L->n] = n;
    L->qadr[L->n] = L->nq;
    L->vadr[L->n] = L->nv;
    L->n++;
    L->nq += type == CS_JNT_FREE ? 7 : type == CS_JNT_BALL ? 4 : 1;
    L->nv += type == CS_JNT_FREE ? 6 : type == CS_JNT_BALL ? 3 : 1;
}

static int with_childclass(cs_mjcf *c, xmlNode *n, int cls)
{
    const char *cc = cs_mjcf_prop(n, "childclass");
    int k = cc ? cs_mjcf_find_class(c, cc) : -1;
    return k >= 0 ? k : cls;
}

static void walk_items(cs_mjcf *c, jlist *L, xmlNode *n, int cls)
{
    for (xmlNode *ch = n->children; ch; ch = ch->next) {
        if (cs_mjcf_is_elem(ch, "joint") || cs_mjcf_is_elem(ch, "freejoint")) add_joint(c, L, ch, cls);
        else if (cs_mjcf_is_elem(ch, "frame")) walk_items(c, L, ch, with_childclass(c, ch, cls));
    }
}

static void walk_body(cs_mjcf *c, jlist *L, xmlNode *n, int cls);

static void walk_children(cs_mjcf *c, jlist *L, xmlNode *n, int cls)
{
    for (xmlNode *ch = n->children; ch; ch = ch->next) {
        if (cs_mjcf_is_elem(ch, "body")) walk_body(c, L, ch, cls);
        else if (cs_mjcf_is_elem(ch, "frame")) walk_children(c, L, ch, with_childclass(c, ch, cls));
    }
}

static void walk_body(cs_mjcf *c, jlist *L, xmlNode *n, int cls)
{
    cls = with_childclass(c, n, cls);
    walk_items(c, L, n, cls);
    walk_children(c, L, n, cls);
}

static int inside(const xmlNode *n, const xmlNode *a)
{
    for (; n; n = n->parent)
        if (n == a) return 1;
    return 0;
}

/* the attached model's keys (from k0) checked against its sizes and given their map */
static void map_keys(cs_mjcf *c, attach_rec *R, int k0, int a0, int nu_child, const int *kept,
                     const int *cact, int na_child)
{
    if (k0 == c->nkey) return;
    jlist L = {0};
    for (xmlNode *ch = R->root->children; ch; ch = ch->next)
        if (cs_mjcf_is_elem(ch, "worldbody")) walk_children(c, &L, ch, R->cls);
    struct cs_keymap *K = cs_mjcf_alloc(c, sizeof *K);
    memset(K, 0, sizeof *K);
    K->jnt = cs_mjcf_alloc(c, (size_t)(R->njnt + 1) * sizeof *K->jnt);
    K->cq = cs_mjcf_alloc(c, (size_t)(R->njnt + 1) * sizeof *K->cq);
    K->cv = cs_mjcf_alloc(c, (size_t)(R->njnt + 1) * sizeof *K->cv);
    for (int i = 0; i < L.n; i++) {
        if (R->target && !inside(L.node[i], R->target)) continue;
        if (K->nj == R->njnt) K->nj++; /* more than were read: cannot be mapped */
        if (K->nj > R->njnt) break;
        K->jnt[K->nj] = R->jnt[K->nj];
        K->cq[K->nj] = L.qadr[i];
        K->cv[K->nj] = L.vadr[i];
        K->nj++;
    }
    if (K->nj != R->njnt)
        cs_mjcf_fail(c, cs_mjcf_line(R->at), "attach", NULL, "the attached model's keys cannot "
                     "be mapped onto its joints (an attachment inside it?)");
    /* a replicated attachment's keys keep no control or activation: MuJoCo copies the
     * actuators without them */
    int nu = R->suffix[0] ? 0 : c->nact - a0;
    K->nu = nu;
    K->act = cs_mjcf_alloc(c, (size_t)(nu + 1) * sizeof *K->act);
    K->cu = cs_mjcf_alloc(c, (size_t)(nu + 1) * sizeof *K->cu);
    K->ca = cs_mjcf_alloc(c, (size_t)(nu + 1) * sizeof *K->ca);
    for (int i = 0; i < nu; i++) {
        K->act[i] = a0 + i;
        K->cu[i] = kept[i];
        K->ca[i] = cact[kept[i]];
    }
    for (int k = k0; k < c->nkey; k++) {
        cs_keyir *Y = &c->key[k];
        /* MuJoCo's own check of an attached model's key (mjCModel::StoreKeyframes) */
        struct { const char *what; int n, want; const double *v; } chk[] = {
            {"qpos", Y->nqpos, L.nq, Y->qpos}, {"qvel", Y->nqvel, L.nv, Y->qvel},
            {"act", Y->nact, na_child, Y->act}, {"ctrl", Y->nctrl, nu_child, Y->ctrl}};
        for (int i = 0; i < 4; i++)
            if (chk[i].v && chk[i].n != chk[i].want)
                cs_mjcf_fail(c, Y->line, "key", chk[i].what, "the attached model's key has %d "
                             "numbers, its model has %d", chk[i].n, chk[i].want);
        if (Y->mpos || Y->mquat)
            cs_mjcf_fail(c, Y->line, "key", Y->mpos ? "mpos" : "mquat", "mocap poses in an "
                         "attached model's key are not supported");
        Y->map = K;
    }
}

void cs_mjcf_attach_keys(cs_mjcf *c, const double *qpos0, const int *jqadr, const int *jdadr,
                         int nq, int nv)
{
    int nu = c->nact, na = 0, single = 1;
    int *aadr = cs_mjcf_alloc(c, (size_t)(nu + 1) * sizeof *aadr);
    for (int i = 0; i < nu; i++) {
        const cs_aspec *s = &c->act[i].s;
        int n = cs_mjcf_act_states(s);
        aadr[i] = n ? na++ : -1;
        if (n > 1 || s->gaintype == CS_GAIN_PID || cs_mjcf_act_ctrlnum(s) != 1)
            single = 0;
    }
    for (int k = 0; k < c->nkey; k++) {
        cs_keyir *Y = &c->key[k];
        const struct cs_keymap *K = Y->map;
        if (!K) continue;
        /* the mapping below takes one control and at most one activation per actuator */
        if (!single && (Y->ctrl || Y->act))
            cs_mjcf_fail(c, Y->line, "key", Y->ctrl ? "ctrl" : "act", "an attached model's key "
                         "with ctrl or act is not supported when an actuator has several "
                         "controls or activations");
        if (Y->qpos) {
            double *q = cs_mjcf_alloc(c, (size_t)(nq + 1) * sizeof *q);
            memcpy(q, qpos0, (size_t)nq * sizeof *q);
            for (int i = 0; i < K->nj; i++) {
                int t = c->jnt[K->jnt[i]].s.type;
                int n = t == CS_JNT_FREE ? 7 : t == CS_JNT_BALL ? 4 : 1;
                memcpy(q + jqadr[K->jnt[i]], Y->qpos + K->cq[i], (size_t)n * sizeof *q);
            }
            Y->qpos = q;
            Y->nqpos = nq;
        }
        if (Y->qvel) {
            double *v = cs_mjcf_alloc(c, (size_t)(nv + 1) * sizeof *v);
            memset(v, 0, (size_t)(nv + 1) * sizeof *v);
            for (int i = 0; i < K->nj; i++) {
                int t = c->jnt[K->jnt[i]].s.type;
                int n = t == CS_JNT_FREE ? 6 : t == CS_JNT_BALL ? 3 : 1;
                memcpy(v + jdadr[K->jnt[i]], Y->qvel + K->cv[i], (size_t)n * sizeof *v);
            }
            Y->qvel = v;
            Y->nqvel = nv;
        }
        if (Y->ctrl) {
            double *u = cs_mjcf_alloc(c, (size_t)(nu + 1) * sizeof *u);
            memset(u, 0, (size_t)(nu + 1) * sizeof *u);
            for (int i = 0; i < K->nu; i++) u[K->act[i]] = Y->ctrl[K->cu[i]];
            Y->ctrl = u;
            Y->nctrl = nu;
        }
        if (Y->act) {
            double *a = cs_mjcf_alloc(c, (size_t)(na + 1) * sizeof *a);
            memset(a, 0, (size_t)(na + 1) * sizeof *a);
            for (int i = 0; i < K->nu; i++)
                if (K->ca[i] >= 0 && aadr[K->act[i]] >= 0) a[aadr[K->act[i]]] = Y->act[K->ca[i]];
            Y->act = a;
            Y->nact = na;
        }
        Y->map = NULL;
    }
}

/* ---- <attach> --------------------------------------------------------------------------- */
static void resolve_conflicts(cs_mjcf *c, xmlNode *at, const model_asset *M);

/* the frame F composed with frame element f's own pose */
static cs_xf frame_pose(cs_mjcf *c, xmlNode *f, const cs_xf *F)
{
    double p[3] = {0, 0, 0}, q[4] = {1, 0, 0, 0}, R[9];
    cs_xf G;
    cs_mjcf_frame(c, f, p, q);
    cs_quat2mat(R, F->quat);
    for (int i = 0; i < 3; i++) /* as MuJoCo rounds: the turned offset, then the sum */
        G.pos[i] = F->pos[i] + (R[3 * i] * p[0] + R[3 * i + 1] * p[1] + R[3 * i + 2] * p[2]);
    cs_mulquat(G.quat, F->quat, q);
    cs_mjcf_quat_renorm(G.quat);
    return G;
}

/* the class a copied element takes when it names none: the nearest childclass around its
 * original, else the model's main class */
static int class_around(cs_mjcf *c, xmlNode *n)
{
    return childclass_around(c, n, NULL, c->rootcls);
}

/* <attach> without model: a copy of this model's own body or frame (mjcf_selfattach.c) */
static void attach_self(cs_mjcf *c, xmlNode *n, int body, const cs_xf *F, const char *prefix,
                        const char *bname, const char *fname, const char *own)
{
    struct cs_mjcf_attach *A = c->att;
    int line = cs_mjcf_line(n);
    if (!bname && !fname)
        cs_mjcf_fail(c, line, "attach", NULL, "either 'body' or 'frame' attribute must be "
                     "specified for self-attach");
    if (cs_mjcf_attr(c, n, CS_MJCF_REPLICA_INSIDE))
        cs_mjcf_fail(c, line, "attach", bname ? "body" : "frame", "self-attaching an element "
                     "of an outer <replicate> from inside an inner one is not supported");
    const char *what = bname ? bname : fname;
    cs_mjcf_selfnames nm = {prefix, own, A->prefix, A->suffix};
    char *full = concat(c, concat(c, concat(c, concat(c, A->prefix, prefix), what), own),
                        A->suffix);
    int again = bname && has_body(c, full);
    for (int i = 0; i < A->nrec && !again; i++) {
        const attach_rec *Q = &A->rec[i];
        const char *tn = Q->self ? cs_mjcf_prop(Q->target, "name") : NULL;
        again = tn && Q->kind == (bname ? 0 : 1) && strcmp(tn, full) == 0;
    }
    if (again)
        cs_mjcf_fail(c, line, "attach", "prefix", "cannot self-attach: element %s already exists",
                     concat(c, prefix, what));
    /* the copies' holder, kept (and freed) before anything can fail */
    cs_mjcf_grow(c, (void **)&A->copy, &A->capcopy, A->ncopy, sizeof *A->copy);
    xmlNode *holder = xmlNewDocNode(n->doc, NULL, (const xmlChar *)"mujoco", NULL);
    if (!holder) cs_mjcf_nomem(c);
    A->copy[A->ncopy++] = holder;
    /* the document that holds the <attach>; inside an earlier self-attachment's copy, the
     * one that copy came from (its source was there when the copied <attach> was read) */
    xmlNode *top = n, *docroot;
    while (top->parent && top->parent->type == XML_ELEMENT_NODE) top = top->parent;
    docroot = top;
    for (int i = 0; i < A->nrec; i++)
        if (A->rec[i].self && A->rec[i].root == top) docroot = A->rec[i].docroot;
    cs_mjcf_selfcopy sc;
    cs_mjcf_self_copy(c, n, docroot, &nm, bname ? 0 : 1, what, holder, &sc);
    if (sc.haskeys)
        cs_mjcf_fail(c, line, "attach", NULL, "self-attaching in a model with keys is not "
                     "supported (MuJoCo gives each key a renamed copy)");
    A->made += 1 + count_elements(sc.target->children);
    if (A->made > MAX_ATTACHED)
        cs_mjcf_fail(c, line, "attach", NULL, "the attachments bring more than %ld elements in "
                     "all", MAX_ATTACHED);
    int cls = class_around(c, sc.source);
    cs_mjcf_grow(c, (void **)&A->rec, &A->caprec, A->nrec, sizeof *A->rec);
    attach_rec *R = &A->rec[A->nrec++];
    *R = (attach_rec){.at = n, .asset = -1, .root = sc.root, .target = sc.target,
                      .kind = bname ? 0 : 1, .cls = cls, .prefix = (char *)A->prefix,
                      .suffix = (char *)A->suffix, .later = A->later, .self = 1,
                      .docroot = docroot};
    if (fname) {
        cs_xf G = frame_pose(c, sc.target, F);
        scope_t s;
        enter(c, R, &s);
        c->reread.items(c, sc.target, body, with_childclass(c, sc.target, cls), &G, 1);
        leave(c, &s);
    }
}

static void attach_items(cs_mjcf *c, xmlNode *n, int body, const cs_xf *F)
{
    struct cs_mjcf_attach *A = state(c);
    int line = cs_mjcf_line(n);
    cs_mjcf_check(c, n, (const char *const[]){"model", "body", "frame", "prefix",
                  CS_MJCF_REPLICA_SUFFIX, CS_MJCF_REPLICA_LATER, CS_MJCF_REPLICA_INSIDE,
                  NULL}, NULL);
    char *model = cs_mjcf_attr(c, n, "model");
    char *prefix = cs_mjcf_attr(c, n, "prefix");
    char *bname = cs_mjcf_attr(c, n, "body");
    char *fname = cs_mjcf_attr(c, n, "frame");
    char *own = cs_mjcf_attr(c, n, CS_MJCF_REPLICA_SUFFIX);
    int later = cs_mjcf_attr(c, n, CS_MJCF_REPLICA_LATER) != NULL || A->later;
    char *sfx = concat(c, own ? own : "", A->suffix);
    if (!prefix) cs_mjcf_fail(c, line, "attach", "prefix", "required attribute missing");
    if (bname && fname) cs_mjcf_fail(c, line, "attach", "frame", "give body or frame, not both");
    if (A->depth >= MAX_DEPTH)
        cs_mjcf_fail(c, line, "attach", NULL, "attachments nested more than %d deep", MAX_DEPTH);
    if (!model) {
        attach_self(c, n, body, F, prefix, bname, fname, own ? own : "");
        return;
    }
    int top = top_of(c, src_of(c, line)), ai = -1;
    for (int i = 0; i < A->nasset && ai < 0; i++)
        if (A->asset[i].owner == top && strcmp(A->asset[i].name, model) == 0) ai = i;
    if (ai < 0) cs_mjcf_fail(c, line, "attach", "model", "could not find model '%s'", model);
    model_asset *M = &A->asset[ai];
    char *full = concat(c, A->prefix, prefix);
    /* MuJoCo's check; an earlier attachment's bodies are read after this one's items. The
     * replicas of one attachment differ by their suffix only, and share its classes and
     * assets (reuse: the first one's record) */
    int again = 0, reuse = -1;
    for (int i = 0; i < A->nrec; i++) {
        if (strcmp(A->rec[i].prefix, full) != 0 || A->rec[i].asset != ai) continue;
        if (strcmp(A->rec[i].suffix, sfx) == 0) again = 1;
        else if (reuse < 0) reuse = i;
    }
    if ((bname || fname) &&
        (again || (bname && (has_body(c, concat(c, full, bname)) ||
                             has_body(c, concat(c, concat(c, full, bname), sfx))))))
        cs_mjcf_fail(c, line, "attach", "prefix", "cannot attach: element %s already exists with "
                     "prefix %s", bname ? bname : fname, prefix);
    /* a crowd of copies of a large model is refused before it takes the machine's memory */
    A->made += 1 + count_elements(M->root->children);
    if (A->made > MAX_ATTACHED)
        cs_mjcf_fail(c, line, "attach", NULL, "the attachments bring more than %ld elements in "
                     "all", MAX_ATTACHED);
    resolve_conflicts(c, n, M);
    /* the body's mass settings are read per model in MuJoCo (each element keeps its own
     * model's compiler); conesim has them once */
    comp_t here;
    comp_get(c, &here);
    const char *differs = M->comp.inertiafromgeom != here.inertiafromgeom ? "inertiafromgeom"
                          : M->comp.boundmass != here.boundmass           ? "boundmass"
                          : M->comp.boundinertia != here.boundinertia     ? "boundinertia"
                          : M->comp.balanceinertia != here.balanceinertia ? "balanceinertia"
                          : M->comp.fitaabb != here.fitaabb               ? "fitaabb"
                          : M->comp.settotalmass != here.settotalmass     ? "settotalmass"
                          : M->comp.igroup[0] != here.igroup[0] || M->comp.igroup[1] != here.igroup[1]
                              ? "inertiagrouprange"
                              : NULL;
    if (differs)
        cs_mjcf_fail(c, line, "attach", "model", "the attached model's <compiler %s> differs "
                     "from this model's: not supported (give both the same)", differs);

    /* the renamed copy */
    cs_mjcf_grow(c, (void **)&A->copy, &A->capcopy, A->ncopy, sizeof *A->copy);
    xmlNode *cp = xmlDocCopyNode(M->root, M->doc, 1);
    if (!cp) cs_mjcf_nomem(c);
    A->copy[A->ncopy++] = cp;
    cp->_private = M->root->_private;
    copy_lines(cp->children, M->root->children);
    rename_tree(c, M, cp->children, full, sfx);
    xmlNode *target = NULL;
    int kind = bname ? 0 : fname ? 1 : 2;
    if (kind < 2) {
        const char *want = concat(c, concat(c, full, bname ? bname : fname), sfx);
        for (xmlNode *ch = cp->children; ch && !target; ch = ch->next)
            if (cs_mjcf_is_elem(ch, "worldbody"))
                target = find_named(ch->children, bname ? "body" : "frame", want);
        if (!target)
            cs_mjcf_fail(c, line, "attach", bname ? "body" : "frame", "could not find %s '%s' in "
                         "model asset '%s'", bname ? "body" : "frame", bname ? bname : fname,
                         model);
    }

    /* its main class, and its classes and assets, read under its own settings */
    int cls;
    if (reuse >= 0) {
        cls = A->rec[reuse].cls;
    } else {
        const char *mainname = concat(c, full, "main");
        if (cs_mjcf_find_class(c, mainname) >= 0)
            cs_mjcf_fail(c, line, "attach", "prefix", "class '%s' already exists", mainname);
        cs_mjcf_grow(c, (void **)&c->cls, &c->capcls, c->ncls, sizeof *c->cls);
        cls = c->ncls++;
        cs_mjcf_init_class(c, &c->cls[cls]);
        c->cls[cls].name = (char *)mainname;
    }
    cs_mjcf_grow(c, (void **)&A->rec, &A->caprec, A->nrec, sizeof *A->rec);
    attach_rec *R = &A->rec[A->nrec++];
    memset(R, 0, sizeof *R);
    *R = (attach_rec){.at = n, .asset = ai, .root = cp, .target = target, .kind = kind,
                      .cls = cls, .prefix = full, .suffix = sfx, .later = later};
    int ri = A->nrec - 1;
    scope_t s;
    enter(c, R, &s);
    for (xmlNode *ch = cp->children; ch && reuse < 0; ch = ch->next)
        if (cs_mjcf_is_elem(ch, "default")) cs_mjcf_parse_default(c, ch, -1);
    for (xmlNode *ch = cp->children; ch && reuse < 0; ch = ch->next)
        if (cs_mjcf_is_elem(ch, "asset")) c->reread.section(c, ch);
    /* what else the file holds: MuJoCo copies flexes and plugins too (refused here, as in
     * a model's own file); skins are drawn only */
    for (xmlNode *ch = cp->children; ch; ch = ch->next) {
        static const char *const KNOWN[] = {"compiler", "option", "size", "visual", "statistic",
            "default", "asset", "worldbody", "contact", "tendon", "equality", "actuator",
            "sensor", "keyframe", "custom", NULL};
        if (ch->type != XML_ELEMENT_NODE) continue;
        int known = 0;
        for (const char *const *k = KNOWN; *k && !known; k++) known = cs_mjcf_is_elem(ch, *k);
        if (known) continue;
        if (cs_mjcf_is_elem(ch, "deformable")) {
            for (xmlNode *k = ch->children; k; k = k->next)
                if (k->type == XML_ELEMENT_NODE && !cs_mjcf_is_elem(k, "skin"))
                    cs_mjcf_fail(c, cs_mjcf_line(k), (const char *)k->name, NULL,
                                 "element not supported (it would change the physics)");
            cs_mjcf_note_ignored(c, "deformable/skin");
            continue;
        }
        cs_mjcf_fail(c, cs_mjcf_line(ch), (const char *)ch->name, NULL,
                     "element not supported (it would change the physics)");
    }
    /* MuJoCo merges these only under conflict="merge" (the larger sizes), and they change
     * capacities, the free camera and user data here */
    for (xmlNode *ch = cp->children; ch; ch = ch->next)
        if (cs_mjcf_is_elem(ch, "size") || cs_mjcf_is_elem(ch, "visual") || cs_mjcf_is_elem(ch, "statistic") ||
            cs_mjcf_is_elem(ch, "custom"))
            cs_mjcf_note_ignored(c, "attach: an attached model's size/visual/statistic/custom "
                                    "sections");
    int j0 = c->njnt;
    R = &A->rec[ri];
    if (kind == 1) {
        cs_xf G = frame_pose(c, target, F);
        c->reread.items(c, target, body,
                            with_childclass(c, target, inherited_class(c, R, target)), &G, 1);
    } else if (kind == 2) {
        for (xmlNode *ch = cp->children; ch; ch = ch->next)
            if (cs_mjcf_is_elem(ch, "worldbody")) c->reread.items(c, ch, body, cls, F, 1);
    }
    R = &A->rec[ri];
    settle_joints(c, R, j0, &s.comp);
    leave(c, &s);
}

static void attach_bodies(cs_mjcf *c, xmlNode *n, int body, const cs_xf *F)
{
    struct cs_mjcf_attach *A = c->att;
    int ri = -1;
    for (int i = 0; A && i < A->nrec && ri < 0; i++)
        if (A->rec[i].at == n) ri = i;
    if (ri < 0) return; /* failed in the first call */
    attach_rec *R = &A->rec[ri];
    scope_t s;
    enter(c, R, &s);
    int j0 = c->njnt;
    xmlNode *target = R->target, *root = R->root;
    int kind = R->kind, cls = R->cls;
    if (kind == 0) {
        c->reread.body(c, target, body, inherited_class(c, R, target), F);
    } else if (kind == 1) {
        cs_xf G = frame_pose(c, target, F);
        c->reread.children(c, target, body,
                               with_childclass(c, target, inherited_class(c, R, target)), &G);
    } else {
        for (xmlNode *ch = root->children; ch; ch = ch->next)
            if (cs_mjcf_is_elem(ch, "worldbody")) c->reread.children(c, ch, body, cls, F);
    }
    R = &A->rec[ri];
    if (!R->self) settle_joints(c, R, j0, &s.comp);

    /* the elements outside the tree, then those that name what is not here dropped */
    int p0 = c->npair, x0 = c->nexcl, t0 = c->nten, e0 = c->neq, a0 = c->nact,
        s0 = c->nsensor, k0 = c->nkey;
    for (xmlNode *ch = root->children; ch; ch = ch->next)
        if (cs_mjcf_is_elem(ch, "contact") || cs_mjcf_is_elem(ch, "tendon") || cs_mjcf_is_elem(ch, "equality") ||
            cs_mjcf_is_elem(ch, "actuator") || cs_mjcf_is_elem(ch, "sensor") ||
            (cs_mjcf_is_elem(ch, "keyframe") && !R->later))
            c->reread.section(c, ch);
    int nu_child = c->nact - a0, na_child = 0;
    int *cact = cs_mjcf_alloc(c, (size_t)(nu_child + 1) * sizeof *cact);
    int *kept = cs_mjcf_alloc(c, (size_t)(nu_child + 1) * sizeof *kept);
    for (int i = 0; i < nu_child; i++)
        cact[i] = cs_mjcf_act_states(&c->act[a0 + i].s)
                      ? na_child++ : -1;
    keep_resolved(c, p0, x0, t0, e0, a0, s0, kept);
    const comp_t *in = R->self ? &s.comp : &A->asset[R->asset].comp;
    if (in->autolimits != s.comp.autolimits) {
        for (int i = a0; i < c->nact; i++) {
            cs_actir *X = &c->act[i];
            X->s.ctrllimited = settle_limit(c, X->line, X->tag, "ctrllimited", in->autolimits,
                                            X->s.ctrllimited, X->s.ctrlrange);
            X->s.forcelimited = settle_limit(c, X->line, X->tag, "forcelimited", in->autolimits,
                                             X->s.forcelimited, X->s.forcerange);
            X->s.actlimited = settle_limit(c, X->line, X->tag, "actlimited", in->autolimits,
                                           X->s.actlimited, X->s.actrange);
        }
        for (int i = t0; i < c->nten; i++) {
            cs_tendonir *T = &c->ten[i];
            int has = T->s.range[0] != 0 || T->s.range[1] != 0;
            if (T->s.limited != CS_LIMITED_AUTO) continue;
            if (!in->autolimits && has)
                cs_mjcf_fail(c, T->line, T->spatial ? "spatial" : "fixed", "limited", "range is "
                             "given with compiler autolimits=\"false\": set limited");
            T->s.limited = has ? CS_LIMITED_TRUE : CS_LIMITED_FALSE;
        }
    }
    map_keys(c, R, k0, a0, nu_child, kept, cact, na_child);
    leave(c, &s);
}

/* the attached elements take their own model's classes, never the holding body's */
void cs_mjcf_attach(cs_mjcf *c, xmlNode *n, int body, const cs_xf *F, int bodies)
{
    if (bodies) attach_bodies(c, n, body, F);
    else attach_items(c, n, body, F);
}

/* what each attachment read: its sections and the attached tree (its <compiler> and
 * <option>s are read from the file itself, the rest of its world is not attached) */
void cs_mjcf_attach_audit(cs_mjcf *c)
{
    struct cs_mjcf_attach *A = c->att;
    for (int i = 0; A && i < A->nrec; i++) {
        const attach_rec *R = &A->rec[i];
        for (xmlNode *ch = R->root->children; ch; ch = ch->next) {
            static const char *const READ[] = {"default", "asset", "contact", "tendon",
                "equality", "actuator", "sensor", "keyframe", NULL};
            for (const char *const *r = READ; *r; r++)
                if (cs_mjcf_is_elem(ch, *r)) cs_mjcf_audit_elem(ch);
            if (!R->target && cs_mjcf_is_elem(ch, "worldbody"))
                for (xmlNode *w = ch->children; w; w = w->next) cs_mjcf_audit_elem(w);
        }
        if (R->target) cs_mjcf_audit_elem(R->target);
    }
}

void cs_mjcf_attach_free(cs_mjcf *c)
{
    struct cs_mjcf_attach *A = c->att;
    if (!A) return;
    for (int i = 0; i < A->ncopy; i++) xmlFreeNode(A->copy[i]);
    A->ncopy = 0;
    for (int i = 0; i < A->nasset; i++)
        if (A->asset[i].doc) xmlFreeDoc(A->asset[i].doc);
    A->nasset = 0;
}

/* ---- <option> conflicts (MuJoCo's ResolveConflicts) ------------------------------------ */
/* how two given values of an option merge: the smaller, the larger, or not at all */
enum { MERGE_MIN, MERGE_MAX, MERGE_NONE };
static const struct {
    const char *name;
    int merge;
} CONFLICTS[] = {
    {"timestep", MERGE_MIN}, {"tolerance", MERGE_MIN}, {"ls_tolerance", MERGE_MIN},
    {"noslip_tolerance", MERGE_MIN}, {"ccd_tolerance", MERGE_MIN},
    {"iterations", MERGE_MAX}, {"ls_iterations", MERGE_MAX}, {"noslip_iterations", MERGE_MAX},
    {"ccd_iterations", MERGE_MAX},
    {"impratio", MERGE_NONE}, {"density", MERGE_NONE}, {"viscosity", MERGE_NONE},
    {"o_margin", MERGE_NONE}, {"integrator", MERGE_NONE}, {"cone", MERGE_NONE},
    {"solver", MERGE_NONE}, {"gravity", MERGE_NONE}, {"wind", MERGE_NONE},
    {"magnetic", MERGE_NONE}, {"o_solref", MERGE_NONE}, {"o_solimp", MERGE_NONE},
    {"o_friction", MERGE_NONE}};

/* what a document's <option>s give: the options read over `base`, and the flag bits
 * (disable, enable) they name (out NULL: the bits only) */
static void read_options(cs_mjcf *c, xmlNode *root, const cs_option *base, cs_option *out,
                         int bits[2])
{
    cs_option saved = c->opt;
    c->opt = *base;
    bits[0] = bits[1] = 0;
    for (xmlNode *ch = root->children; ch; ch = ch->next) {
        if (!cs_mjcf_is_elem(ch, "option")) continue;
        cs_mjcf_parse_option(c, ch);
        for (xmlNode *f = ch->children; f; f = f->next) {
            if (!cs_mjcf_is_elem(f, "flag")) continue;
            for (xmlAttr *a = f->properties; a; a = a->next) {
                int bit, enable;
                if (cs_flag_lookup((const char *)a->name, &bit, &enable) == 0) bits[enable] |= bit;
            }
        }
    }
    if (out) *out = c->opt;
    c->opt = saved;
}

static int option_given(xmlNode *root, const char *name)
{
    for (xmlNode *ch = root->children; ch; ch = ch->next)
        if (cs_mjcf_is_elem(ch, "option") && xmlHasProp(ch, (const xmlChar *)name)) return 1;
    return 0;
}

static void fmt_value(char *buf, size_t len, const cs_option_def *d, const cs_option *o)
{
    const char *p = (const char *)o + d->off;
    buf[0] = 0;
    for (int i = 0; i < d->n; i++) {
        size_t l = strlen(buf);
        if (d->type == CS_FIELD_INT) snprintf(buf + l, len - l, "%s%d", i ? " " : "", ((const int *)p)[i]);
        else snprintf(buf + l, len - l, "%s%g", i ? " " : "", ((const double *)p)[i]);
    }
}

static void resolve_conflicts(cs_mjcf *c, xmlNode *at, const model_asset *M)
{
    /* an attachment inside an attached model: that model's options are not tracked */
    if (c->att->prefix[0]) return;
    int mode = c->conflict, line = cs_mjcf_line(at);
    if (mode == 0) {
        /* MuJoCo warns where the values differ and keeps this model's: none is read (an
         * option conesim refuses in the attached model changes nothing then) */
        for (xmlNode *ch = M->root->children; ch; ch = ch->next)
            if (cs_mjcf_is_elem(ch, "option"))
                cs_mjcf_note_ignored(c, "attach: an attached model's options (compiler "
                                        "conflict=\"warning\" keeps this model's)");
        return;
    }
    xmlNode *proot = xmlDocGetRootElement(at->doc);
    cs_option po = c->opt, co; /* this model's own <option>s are read already */
    int pbits[2], cbits[2];
    read_options(c, proot, &c->opt, NULL, pbits);
    read_options(c, M->root, &c->opt, &co, cbits);
    char errs[768] = "";
    cs_option out = po;
    for (size_t k = 0; k < sizeof CONFLICTS / sizeof *CONFLICTS; k++) {
        const cs_option_def *d = NULL;
        for (int i = 0; i < cs_option_ndefs && !d; i++)
            if (strcmp(cs_option_defs[i].name, CONFLICTS[k].name) == 0) d = &cs_option_defs[i];
        if (!d || !option_given(M->root, d->name)) continue;
        size_t sz = (size_t)d->n * (d->type == CS_FIELD_INT ? sizeof(int) : sizeof(double));
        const char *pv = (const char *)&po + d->off, *cv = (const char *)&co + d->off;
        if (memcmp(pv, cv, sz) == 0) continue;
        if (!option_given(proot, d->name)) {
            if (mode == 1) memcpy((char *)&out + d->off, cv, sz); /* adopted */
            continue; /* "error": MuJoCo keeps this model's, warning */
        }
        if (mode == 1 && CONFLICTS[k].merge != MERGE_NONE) {
            int take = d->type == CS_FIELD_INT
                           ? (CONFLICTS[k].merge == MERGE_MIN) == (*(const int *)cv < *(const int *)pv)
                           : (CONFLICTS[k].merge == MERGE_MIN) ==
                                 (*(const double *)cv < *(const double *)pv);
            if (take) memcpy((char *)&out + d->off, cv, sz);
            continue;
        }
        char a[128], b[128];
        fmt_value(a, sizeof a, d, &po);
        fmt_value(b, sizeof b, d, &co);
        size_t l = strlen(errs);
        snprintf(errs + l, sizeof errs - l, "%s%s: parent has %s, child has %s", l ? "; " : "",
                 d->name, a, b);
    }
    /* flags: merged, the attached model's set ones added; else told apart where both give
     * them */
    int *pw[2] = {&out.disableflags, &out.enableflags};
    const int cw[2] = {co.disableflags, co.enableflags}, pwv[2] = {po.disableflags, po.enableflags};
    for (int e = 0; e < 2; e++) {
        int child = cw[e] & cbits[e];
        if (!child) continue;
        if (mode == 1) {
            *pw[e] |= child;
        } else if (mode == 2 && ((pwv[e] ^ cw[e]) & pbits[e] & cbits[e])) {
            size_t l = strlen(errs);
            snprintf(errs + l, sizeof errs - l, "%s%s flags differ", l ? "; " : "",
                     e ? "enable" : "disable");
        }
    }
    if (errs[0]) {
        const char *cname = cs_mjcf_prop(M->root, "model");
        const char *pname = c->modelname && strcmp(c->modelname, "MuJoCo Model") != 0
                                ? c->modelname : NULL;
        static const char *const MODE[] = {"warning", "merge", "error"};
        char subj[256];
        if (cname && pname)
            snprintf(subj, sizeof subj, "attaching '%s' to '%s'", cname, pname);
        else if (cname) snprintf(subj, sizeof subj, "attaching '%s'", cname);
        else if (pname) snprintf(subj, sizeof subj, "attaching to '%s'", pname);
        else snprintf(subj, sizeof subj, "attaching");
        cs_mjcf_fail(c, line, "attach", NULL, "conflict when %s, policy is '%s': %s", subj,
                     MODE[mode], errs);
    }
    c->opt = out;
}
