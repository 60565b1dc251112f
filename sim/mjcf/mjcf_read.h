/* The MJCF reader's own toolkit, shared by its files (mjcf_*.c): the line and name of an
 * element, the errors, the attribute readers, the default classes' specs, and each section's
 * reader. The intermediate form they fill and the compiler's entry are in mjcf_ir.h. */
#ifndef CS_MJCF_READ_H
#define CS_MJCF_READ_H

#include <libxml/parser.h>
#include <libxml/tree.h>

#include "mjcf_ir.h"

/* an error at element n (attribute attr, or NULL); never returns */
#define FAILN(c, n, attr, ...) cs_mjcf_fail((c), cs_mjcf_line(n), cs_mjcf_ename(n), (attr), __VA_ARGS__)

/* ---- mjcf_context.c: context, errors, attributes, orientation ---------------------------- */
int cs_mjcf_src_of_line(const cs_mjcf *c, int line);
const char *cs_mjcf_ename(xmlNode *n);
/* the document editing of <attach> and <replicate>: an element of that name; a property's
 * text without marking it read (NULL when absent; the document's string); a property set
 * (out of memory: an error) */
int cs_mjcf_is_elem(const xmlNode *n, const char *name);
const char *cs_mjcf_prop(xmlNode *n, const char *name);
void cs_mjcf_set_prop(cs_mjcf *c, xmlNode *n, const char *name, const char *value);
int cs_mjcf_in_list(const char *s, const char *const *list);
/* the audit's marks (cs_mjcf_set_audit): names accepted, attributes ignored, the walk */
void cs_mjcf_audit_accepted(xmlNode *n, const char *const *used);
void cs_mjcf_mark_ignored(xmlNode *n);
void cs_mjcf_mark_attr_ignored(xmlAttr *a);
void cs_mjcf_audit_walk(xmlNode *n);
void cs_mjcf_audit_elem(xmlNode *n);  /* one element and what it holds */
/* one number (1 when present), one integer, a boolean keyword */
int cs_mjcf_num1(cs_mjcf *c, xmlNode *n, const char *name, double *out);
int cs_mjcf_int1(cs_mjcf *c, xmlNode *n, const char *name, int *out);
int cs_mjcf_bool(cs_mjcf *c, xmlNode *n, const char *name, int *out);
/* an error when one of v[0..k) is negative */
void cs_mjcf_nonneg(cs_mjcf *c, xmlNode *n, const char *name, const double *v, int k);
double cs_mjcf_norm3(const double v[3]);
/* all the numbers of an attribute, in the context's memory (NULL when absent) */
double *cs_mjcf_nums_alloc(cs_mjcf *c, xmlNode *n, const char *name, int *count);

/* ---- mjcf_classes.c: default classes, the attribute readers shared by defaults and elements */
int cs_mjcf_find_class(const cs_mjcf *c, const char *name);
int cs_mjcf_class_of(cs_mjcf *c, xmlNode *n, int inherited);
void cs_mjcf_default_gspec(cs_gspec *g);
void cs_mjcf_default_pspec(cs_pspec *p);
void cs_mjcf_default_jspec(cs_jspec *j);
void cs_mjcf_solimp_check(cs_mjcf *c, xmlNode *n, const char *name, const double *s);
void cs_mjcf_read_geom_attrs(cs_mjcf *c, xmlNode *n, cs_gspec *g);
void cs_mjcf_read_pair_attrs(cs_mjcf *c, xmlNode *n, cs_pspec *p);
int cs_mjcf_poly_coef(cs_mjcf *c, xmlNode *n, const char *name, double out[3]);
void cs_mjcf_read_joint_attrs(cs_mjcf *c, xmlNode *n, cs_jspec *j);
void cs_mjcf_read_site_shape(cs_mjcf *c, xmlNode *n, int *type, double size[3]);
int cs_mjcf_has_alt_orientation(xmlNode *n);
extern const char *const CS_MJCF_GEOM_ATTRS[], *const CS_MJCF_GEOM_VISUAL[];
extern const char *const CS_MJCF_PAIR_ATTRS[];
extern const char *const CS_MJCF_JOINT_ATTRS[], *const CS_MJCF_JOINT_VISUAL[];
extern const char *const CS_MJCF_SITE_VISUAL[];
extern const char *const CS_MJCF_LIMITED[];

/* mjcf_default.c: <default> and its classes below parent; a main class with MuJoCo's built-in
 * defaults */
void cs_mjcf_init_class(cs_mjcf *c, cs_dclass *d);
void cs_mjcf_parse_default(cs_mjcf *c, xmlNode *n, int parent);

/* ---- mjcf_actuator.c ------------------------------------------------------------------- */
void cs_mjcf_default_aspec(cs_aspec *a);
char *cs_mjcf_read_actuator(cs_mjcf *c, xmlNode *n, cs_aspec *a, const char *tag);
void cs_mjcf_parse_actuators(cs_mjcf *c, xmlNode *n);
extern const char *const CS_MJCF_ACT_TAGS[];

/* ---- mjcf_tendon.c, mjcf_equality.c ------------------------------------------------------ */
void cs_mjcf_read_tendon_attrs(cs_mjcf *c, xmlNode *n, cs_tspec *t);
void cs_mjcf_parse_tendons(cs_mjcf *c, xmlNode *n);
extern const char *const CS_MJCF_TENDON_ATTRS[], *const CS_MJCF_TENDON_VISUAL[];
void cs_mjcf_read_eq_attrs(cs_mjcf *c, xmlNode *n, cs_espec *e);
void cs_mjcf_parse_equality(cs_mjcf *c, xmlNode *n);
extern const char *const CS_MJCF_EQ_COMMON[];

/* ---- mjcf_body.c: <worldbody>, <body>, <frame> and what they hold ----------------------- */
/* a <frame>'s pose relative to the body that holds it */
typedef struct cs_xf {
    double pos[3], quat[4];
} cs_xf;
extern const cs_xf CS_XF_IDENTITY;
void cs_mjcf_parse_items(cs_mjcf *c, xmlNode *n, int me, int cls, const cs_xf *F, int in_frame);
void cs_mjcf_parse_children(cs_mjcf *c, xmlNode *n, int me, int cls, const cs_xf *F);
/* one body (and its subtree) under parent, in frame F */
void cs_mjcf_parse_body(cs_mjcf *c, xmlNode *n, int parent, int cls, const cs_xf *F);

/* ---- mjcf_attach.c: <asset><model> (reads the file) and <attach> in a body or a frame F: the
 * items it gives the body (items: from cs_mjcf_parse_items, before the body's children), then
 * its bodies (bodies: from cs_mjcf_parse_children) --------------------------------------- */
void cs_mjcf_model_asset(cs_mjcf *c, xmlNode *n);
void cs_mjcf_attach(cs_mjcf *c, xmlNode *n, int body, const cs_xf *F, int bodies);
/* mjcf_selfattach.c: <attach> without model. The names: the self-attach's prefix and
 * replica suffix, inside those of the model that holds it (an attached model's) */
typedef struct {
    const char *prefix, *suffix, *scope_prefix, *scope_suffix;
} cs_mjcf_selfnames;
typedef struct {
    xmlNode *source;   /* the body or frame copied */
    xmlNode *target;   /* its renamed copy */
    xmlNode *root;     /* the holder: the target's copy and those of the sections' elements */
    int haskeys;       /* the model has keys */
} cs_mjcf_selfcopy;
/* the copy of the body (kind 0) or frame (1) named what, found in the document docroot
 * (its <mujoco>) before the <attach> at, put into holder (a parentless element the caller
 * frees) */
void cs_mjcf_self_copy(cs_mjcf *c, xmlNode *at, xmlNode *docroot,
                       const cs_mjcf_selfnames *nm, int kind, const char *what,
                       xmlNode *holder, cs_mjcf_selfcopy *out);
/* mesh_builtin.c: <mesh builtin params>: MuJoCo's generated vertices and faces into the
 * mesh's inline data; nothing without a builtin attribute */
void cs_mjcf_mesh_builtin(cs_mjcf *c, xmlNode *n, cs_meshir *M);

/* ---- mjcf_option.c: <option>, <compiler>, <size>, <statistic>, <visual> ----------------- */
void cs_mjcf_parse_statistic(cs_mjcf *c, xmlNode *n);
void cs_mjcf_parse_visual(cs_mjcf *c, xmlNode *n);
void cs_mjcf_parse_option(cs_mjcf *c, xmlNode *n);
void cs_mjcf_parse_compiler(cs_mjcf *c, xmlNode *n);
void cs_mjcf_parse_size(cs_mjcf *c, xmlNode *n);

/* ---- mjcf_sections.c: <contact>, <keyframe>, <asset>, <custom>, and the document's root -- */
void cs_mjcf_parse_root(cs_mjcf *c, xmlNode *root);
/* one section of an attached model's document (asset, contact, tendon, equality, actuator,
 * sensor, keyframe) */
void cs_mjcf_parse_section(cs_mjcf *c, xmlNode *n);
/* mjcf_mesh.c */
void cs_mjcf_parse_mesh(cs_mjcf *c, xmlNode *n);

/* ---- mjcf_xml.c: reading files, libxml2's reports, <include> ----------------------------- */
/* what the parser reported, kept until parsing ends: errors cannot be raised from inside
 * libxml2's callbacks (a longjmp out of the parser would leak its state) */
typedef struct {
    int err_line;             /* libxml2's first error: where the problem is, not where it */
    char err_msg[256];        /* gave up (an unclosed tag is noticed at the next mismatch) */
    int entity_line;          /* first entity declaration or reference, 0 if none */
    char entity[64];
} cs_mjcf_notes;
#define CS_MJCF_XMLOPTS (XML_PARSE_NONET | XML_PARSE_BIG_LINES)
/* libxml2's own messages off (errors are reported through cs_mjcf_notes) */
void cs_mjcf_xml_quiet(void);
/* a parser context reporting into pn: the first error, entities (MJCF has no DTD) */
void cs_mjcf_xml_hooks(xmlParserCtxt *px, cs_mjcf_notes *pn);
/* the whole file in memory: 0, or an errno value */
int cs_mjcf_read_all(const char *path, char **buf, size_t *len);
int cs_mjcf_count_lines(const char *buf, size_t len);
/* a file of the model (main first): its path, real path, lines, includer and line there */
void cs_mjcf_add_src(cs_mjcf *c, const char *path, const char *real, int nlines, int parent,
                     int line);
void cs_mjcf_free_include(cs_mjcf *c);
/* an <include>d or attached file (n: the element naming it, for errors) read whole into
 * c->incbuf: its length */
size_t cs_mjcf_read_file(cs_mjcf *c, xmlNode *n, const char *path);
/* c->incbuf parsed into c->incdoc as the model's next file (its includer parent, the line
 * there; model 1: an attached model's own document); errors at the file's lines */
xmlDoc *cs_mjcf_parse_file(cs_mjcf *c, const char *path, const char *real, size_t len,
                           int parent, int pline, int model);
void cs_mjcf_expand_includes(cs_mjcf *c, xmlDoc *doc, xmlNode *parent);

#endif
