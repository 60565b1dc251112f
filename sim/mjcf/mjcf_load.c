/* MJCF reader (libxml2): elements and attributes with MuJoCo's names, defaults and units,
 * resolved against <default> classes into the loader's intermediate form (mjcf_ir.h), then
 * compiled into a model. Anything outside the supported subset that would change physics is
 * an error naming the line; visual-only things are accepted and listed once. */
#define _XOPEN_SOURCE 700 /* realpath */
#include <math.h>
#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdio.h>

#include "alloc.h"
#include "solver/solver.h"

#include "mjcf_read.h"

static void init_ctx(cs_mjcf *c, const char *file, char *err, size_t errsz)
{
    memset(c, 0, sizeof *c);
    c->file = file;
    c->err = err;
    c->errsz = errsz;
    if (err && errsz) err[0] = 0;
    c->degree = 1;
    c->autolimits = 1;
    cs_lropt_default(&c->lropt);
    memcpy(c->eulerseq, "xyz", 4);
    c->inertiafromgeom = 2;
    c->settotalmass = -1;
    c->njmax = c->nstack = c->nuser_sensor = -1;
    c->memory = -1;
    c->stat_center[0] = c->stat_center[1] = c->stat_center[2] = NAN;
    c->vis_azimuth = 90;
    c->vis_elevation = -45;
    c->vis_fovy = 45;
    c->igroup[0] = 0;
    c->igroup[1] = 5;
    cs_option *o = &c->opt;
    o->timestep = 0.002;
    o->gravity[2] = -9.81;
    o->magnetic[1] = -0.5;
    o->cone = CS_CONE_PYRAMIDAL;
    o->solver = CS_SOLVER_NEWTON; /* MJCF's default solver */
    /* the solver's numbers from its defaults (one place: cs_solver_opts_default) */
    cs_solver_opts so;
    cs_solver_opts_default(&so);
    o->iterations = so.max_iter;
    o->tolerance = so.tolerance;
    o->ls_iterations = so.ls_iterations;
    o->ls_tolerance = so.ls_tolerance;
    o->noslip_iterations = so.noslip_iterations;
    o->noslip_tolerance = so.noslip_tolerance;
    o->impratio = 1;
    o->pgs_blocks = so.blocking == CS_PGS_BLOCK_PAIR ? CS_PGS_PAIR : CS_PGS_CONTACT;
    o->pgs_finish = so.finish_after;
    o->eq_jdotv = 1;
    o->newton_early = so.newton_early;
    o->contact = CS_CONTACT_SOFT;
    o->o_solref[0] = 0.02; o->o_solref[1] = 1;
    o->o_solimp[0] = 0.9; o->o_solimp[1] = 0.95; o->o_solimp[2] = 0.001; o->o_solimp[3] = 0.5;
    o->o_solimp[4] = 2;
    o->o_friction[0] = o->o_friction[1] = 1;
    o->o_friction[2] = 0.005;
    o->o_friction[3] = o->o_friction[4] = 0.0001;
    o->ccd_iterations = 35; /* MuJoCo 3.12's */
    o->ccd_tolerance = 1e-6;
    o->sleep_tolerance = 1e-3;
}

static void free_ctx(cs_mjcf *c)
{
    for (int i = 0; i < c->nalloc; i++) cs_free(c->allocs[i]);
    cs_free(c->allocs);
}


static cs_model *load(const char *buf, size_t len, const char *name, FILE *warn, char *err,
                      size_t errsz, const cs_mjcf_edits *edits, unsigned flags)
{
    cs_mjcf *c = cs_calloc(1, sizeof *c);
    if (!c) {
        if (err && errsz) snprintf(err, errsz, "%s: out of memory", name);
        errno = ENOMEM;
        return NULL;
    }
    init_ctx(c, name, err, errsz);
    c->flags = flags;
    c->reread.section = cs_mjcf_parse_section;
    c->reread.items = cs_mjcf_parse_items;
    c->reread.children = cs_mjcf_parse_children;
    c->reread.body = cs_mjcf_parse_body;
    cs_mjcf_xml_quiet();
    xmlParserCtxt *px = xmlNewParserCtxt();
    xmlDoc *volatile doc = NULL;
    cs_model *volatile m = NULL;
    if (!px) {
        if (err && errsz) snprintf(err, errsz, "%s: out of memory", name);
        cs_free(c);
        errno = ENOMEM;
        return NULL;
    }
    cs_mjcf_notes pn = {0};
    cs_mjcf_xml_hooks(px, &pn);
    if (setjmp(c->jb) == 0) {
        const char *nul = memchr(buf, 0, len);
        if (nul) {
            int line = 1;
            for (const char *p = buf; p < nul; p++) line += *p == '\n';
            cs_mjcf_fail(c, line, NULL, NULL, "NUL byte (not allowed in XML)");
        }
        doc = xmlCtxtReadMemory(px, buf, (int)len, name, NULL, CS_MJCF_XMLOPTS);
        if (pn.entity_line)
            cs_mjcf_fail(c, pn.entity_line, NULL, NULL,
                         "entity '%s': DOCTYPE entities are not supported (MJCF has no DTD)",
                         pn.entity);
        if (!doc) {
            const xmlError *e = xmlCtxtGetLastError(px);
            if (!pn.err_msg[0] && e && e->code == XML_ERR_NO_MEMORY) cs_mjcf_nomem(c);
            cs_mjcf_fail(c, pn.err_msg[0] ? pn.err_line : e ? e->line : 0, NULL, NULL,
                         "malformed XML: %s", pn.err_msg[0] ? pn.err_msg : "unreadable XML");
        }
        cs_mjcf_grow(c, (void **)&c->cls, &c->capcls, 0, sizeof *c->cls);
        c->ncls = 1;
        cs_mjcf_init_class(c, &c->cls[0]);
        /* body 0: the world */
        cs_mjcf_grow(c, (void **)&c->body, &c->capbody, 0, sizeof *c->body);
        c->nbody = 1;
        memset(&c->body[0], 0, sizeof c->body[0]);
        c->body[0].name = cs_mjcf_strdup(c, "world");
        c->body[0].parent = -1;
        c->body[0].quat[0] = c->body[0].iquat[0] = 1;
        char real[PATH_MAX];
        cs_mjcf_add_src(c, name, realpath(name, real) ? real : NULL, cs_mjcf_count_lines(buf, len), -1, 0);
        xmlNode *root = xmlDocGetRootElement(doc);
        if (root && strcmp(cs_mjcf_ename(root), "mujoco") == 0) cs_mjcf_expand_includes(c, doc, root);
        if (root && edits) cs_mjcf_edit(c, root, edits);
        cs_mjcf_parse_root(c, root);
        m = cs_mjcf_compile(c);
        cs_mjcf_audit_walk(root);
        cs_mjcf_attach_audit(c);
        if (warn && c->nignored) {
            fprintf(warn, "conesim: %s: ignored (visual only or without effect):", name);
            for (int i = 0; i < c->nignored; i++)
                fprintf(warn, "%s %s", i ? "," : "", c->ignored[i]);
            fputc('\n', warn);
        }
    } else {
        m = NULL;
        if (c->xmlpending) xmlFree(c->xmlpending);
        cs_mjcf_free_include(c);
    }
    cs_mjcf_attach_free(c);
    int why = c->nomem ? ENOMEM : c->editfail ? ESRCH : EINVAL;
    if (doc) xmlFreeDoc(doc);
    xmlFreeParserCtxt(px);
    free_ctx(c);
    cs_free(c);
    if (!m) errno = why;
    return m;
}

cs_model *cs_load_xml_edit(const char *path, int nedit, const char *const *names,
                           const char *const *values, FILE *warn, char *err, size_t errsz)
{
    return cs_load_xml_flags(path, 0, nedit, names, values, warn, err, errsz);
}

cs_model *cs_load_xml_flags(const char *path, unsigned flags, int nedit,
                            const char *const *names, const char *const *values, FILE *warn,
                            char *err, size_t errsz)
{
    cs_mjcf_edits e = {nedit, names, values};
    char *buf;
    size_t len;
    int rc = cs_mjcf_read_all(path, &buf, &len);
    if (rc) {
        if (err && errsz) {
            if (rc == ENOMEM) snprintf(err, errsz, "%s: out of memory", path);
            else snprintf(err, errsz, "%s:0: cannot read the file: %s", path, strerror(rc));
        }
        errno = rc;
        return NULL;
    }
    cs_model *m = load(buf, len, path, warn, err, errsz, nedit > 0 ? &e : NULL, flags);
    int saved = errno;
    cs_free(buf);
    errno = saved;
    return m;
}

cs_model *cs_load_xml(const char *path, FILE *warn, char *err, size_t errsz)
{
    return cs_load_xml_edit(path, 0, NULL, NULL, warn, err, errsz);
}

cs_model *cs_load_xml_buffer(const char *xml, size_t len, const char *name, FILE *warn,
                             char *err, size_t errsz)
{
    return load(xml, len, name, warn, err, errsz, NULL, 0);
}

cs_model *cs_load_xml_string(const char *xml, const char *name, FILE *warn, char *err,
                             size_t errsz)
{
    return load(xml, strlen(xml), name, warn, err, errsz, NULL, 0);
}
