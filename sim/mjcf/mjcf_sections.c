/* The document's root and its sections other than bodies, options and the ones with files
 * of their own: <contact>, <keyframe>, <asset>, <custom>. */
#include <ctype.h>
#include <math.h>
#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

#include "mjcf_read.h"

/* ---- <contact>, <keyframe> -------------------------------------------------------------- */
static void parse_contact(cs_mjcf *c, xmlNode *n)
{
    cs_mjcf_check(c, n, NULL, NULL);
    for (xmlNode *ch = n->children; ch; ch = ch->next) {
        if (ch->type != XML_ELEMENT_NODE) continue;
        if (strcmp(cs_mjcf_ename(ch), "pair") == 0) {
            cs_mjcf_check(c, ch, CS_MJCF_PAIR_ATTRS, NULL);
            int k = cs_mjcf_class_of(c, ch, c->rootcls);
            cs_pairir p = {0};
            p.s = c->cls[k].pair;
            cs_mjcf_read_pair_attrs(c, ch, &p.s);
            p.name = cs_mjcf_attr(c, ch, "name");
            p.geom1 = cs_mjcf_attr(c, ch, "geom1");
            p.geom2 = cs_mjcf_attr(c, ch, "geom2");
            if (!p.geom1) FAILN(c, ch, "geom1", "required attribute missing");
            if (!p.geom2) FAILN(c, ch, "geom2", "required attribute missing");
            if (p.name)
                for (int i = 0; i < c->npair; i++)
                    if (c->pair[i].name && strcmp(c->pair[i].name, p.name) == 0)
                        FAILN(c, ch, "name", "duplicate pair name '%s'", p.name);
            p.line = cs_mjcf_line(ch);
            cs_mjcf_grow(c, (void **)&c->pair, &c->cappair, c->npair, sizeof *c->pair);
            c->pair[c->npair++] = p;
        } else if (strcmp(cs_mjcf_ename(ch), "exclude") == 0) {
            cs_mjcf_check(c, ch, (const char *const[]){"name", "body1", "body2", NULL}, NULL);
            cs_exclir e = {0};
            e.body1 = cs_mjcf_attr(c, ch, "body1");
            e.body2 = cs_mjcf_attr(c, ch, "body2");
            cs_mjcf_attr(c, ch, "name"); /* a name only identifies it */
            if (!e.body1) FAILN(c, ch, "body1", "required attribute missing");
            if (!e.body2) FAILN(c, ch, "body2", "required attribute missing");
            e.line = cs_mjcf_line(ch);
            cs_mjcf_grow(c, (void **)&c->excl, &c->capexcl, c->nexcl, sizeof *c->excl);
            c->excl[c->nexcl++] = e;
        } else {
            FAILN(c, ch, NULL, "unknown element inside <contact>");
        }
    }
}

static void parse_keyframe(cs_mjcf *c, xmlNode *n)
{
    cs_mjcf_check(c, n, NULL, NULL);
    for (xmlNode *ch = n->children; ch; ch = ch->next) {
        if (ch->type != XML_ELEMENT_NODE) continue;
        if (strcmp(cs_mjcf_ename(ch), "key") != 0) FAILN(c, ch, NULL, "unknown element inside <keyframe>");
        cs_mjcf_check(c, ch, (const char *const[]){"name", "time", "qpos", "qvel", "act", "ctrl",
                                                 "mpos", "mquat", NULL}, NULL);
        cs_keyir k = {0};
        k.name = cs_mjcf_attr(c, ch, "name");
        k.line = cs_mjcf_line(ch);
        cs_mjcf_num1(c, ch, "time", &k.time);
        k.qpos = cs_mjcf_nums_alloc(c, ch, "qpos", &k.nqpos);
        k.qvel = cs_mjcf_nums_alloc(c, ch, "qvel", &k.nqvel);
        k.ctrl = cs_mjcf_nums_alloc(c, ch, "ctrl", &k.nctrl);
        k.act = cs_mjcf_nums_alloc(c, ch, "act", &k.nact);
        k.mpos = cs_mjcf_nums_alloc(c, ch, "mpos", &k.nmpos);
        k.mquat = cs_mjcf_nums_alloc(c, ch, "mquat", &k.nmquat);
        cs_mjcf_grow(c, (void **)&c->key, &c->capkey, c->nkey, sizeof *c->key);
        c->key[c->nkey++] = k;
    }
}

/* ---- <asset> --------------------------------------------------------------------------- */
static void parse_asset(cs_mjcf *c, xmlNode *n)
{
    cs_mjcf_check(c, n, NULL, NULL);
    for (xmlNode *ch = n->children; ch; ch = ch->next) {
        if (ch->type != XML_ELEMENT_NODE) continue;
        const char *en = cs_mjcf_ename(ch);
        if (strcmp(en, "mesh") == 0) cs_mjcf_parse_mesh(c, ch);
        else if (cs_mjcf_hfield_asset(c, ch)) continue;
        else if (strcmp(en, "model") == 0) cs_mjcf_model_asset(c, ch);
        else if (cs_mjcf_visual_asset(c, ch)) continue;
        else {
            /* the other assets (skins) are only reachable through elements that are checked
             * where they appear */
            char buf[96];
            snprintf(buf, sizeof buf, "asset/%s", en);
            cs_mjcf_note_ignored(c, buf);
            cs_mjcf_mark_ignored(ch);
        }
    }
}

/* <custom>: MuJoCo keeps its contents as user data without effect. One text element is
 * conesim's: name="conesim:contact" data="soft|coulomb" chooses the contact model
 * (docs/contact-math.md §11); everything else in <custom> is noted as ignored. */
/* the names of the bodies that elements conesim otherwise ignores refer to (a tuple's body
 * elements, a skin's bones): MuJoCo's fusestatic keeps those bodies */
static void note_body_refs(cs_mjcf *c, xmlNode *n, const char *elem, const char *typeattr,
                           const char *nameattr)
{
    for (xmlNode *k = n->children; k; k = k->next) {
        if (k->type != XML_ELEMENT_NODE || strcmp(cs_mjcf_ename(k), elem) != 0) continue;
        const char *t = typeattr ? cs_mjcf_prop(k, typeattr) : "body";
        const char *name = cs_mjcf_prop(k, nameattr);
        if (!t || !name || (strcmp(t, "body") != 0 && strcmp(t, "xbody") != 0)) continue;
        cs_mjcf_grow(c, (void **)&c->bodyref, &c->capbodyref, c->nbodyref, sizeof *c->bodyref);
        c->bodyref[c->nbodyref++] = cs_mjcf_strdup(c, name);
    }
}

static void parse_custom(cs_mjcf *c, xmlNode *n)
{
    int other = 0;
    for (xmlNode *ch = n->children; ch; ch = ch->next) {
        if (ch->type != XML_ELEMENT_NODE) continue;
        if (strcmp(cs_mjcf_ename(ch), "tuple") == 0)
            note_body_refs(c, ch, "element", "objtype", "objname");
        char *name = strcmp(cs_mjcf_ename(ch), "text") == 0 ? cs_mjcf_attr(c, ch, "name") : NULL;
        if (!name || strcmp(name, "conesim:contact") != 0) {
            other = 1;
            cs_mjcf_mark_ignored(ch);
            continue;
        }
        char *data = cs_mjcf_attr(c, ch, "data");
        if (!data) FAILN(c, ch, "data", "conesim:contact needs data=\"soft\" or \"coulomb\"");
        char err[128];
        if (cs_option_set(&c->opt, "contact", data, err, sizeof err) != 0)
            FAILN(c, ch, "data", "conesim:contact: '%s': expects soft or coulomb", data);
    }
    if (other) cs_mjcf_note_ignored(c, "custom");
}

/* ---- document ----------------------------------------------------------------------------- */
void cs_mjcf_parse_root(cs_mjcf *c, xmlNode *root)
{
    if (!root || strcmp(cs_mjcf_ename(root), "mujoco") != 0)
        cs_mjcf_fail(c, root ? cs_mjcf_line(root) : 1, root ? cs_mjcf_ename(root) : NULL, NULL,
                     "the root element must be <mujoco>");
    cs_mjcf_check(c, root, (const char *const[]){"model", NULL}, NULL);
    char *mn = cs_mjcf_attr(c, root, "model");
    c->modelname = mn ? mn : cs_mjcf_strdup(c, "MuJoCo Model");

    /* compiler settings govern how every other element reads: take them first */
    for (xmlNode *ch = root->children; ch; ch = ch->next)
        if (ch->type == XML_ELEMENT_NODE && strcmp(cs_mjcf_ename(ch), "compiler") == 0)
            cs_mjcf_parse_compiler(c, ch);
    cs_mjcf_replicate(c, root); /* copies the replicated trees in before anything reads them */
    /* classes next: elements may precede <default> in the file; several top-level
     * <default> sections all add to the main class, as in MuJoCo */
    for (xmlNode *ch = root->children; ch; ch = ch->next)
        if (ch->type == XML_ELEMENT_NODE && strcmp(cs_mjcf_ename(ch), "default") == 0)
            cs_mjcf_parse_default(c, ch, -1);
    int nworld = 0;
    for (xmlNode *ch = root->children; ch; ch = ch->next) {
        if (ch->type != XML_ELEMENT_NODE) continue;
        const char *en = cs_mjcf_ename(ch);
        if (strcmp(en, "compiler") == 0 || strcmp(en, "default") == 0) continue;
        if (strcmp(en, "option") == 0) cs_mjcf_parse_option(c, ch);
        else if (strcmp(en, "size") == 0) cs_mjcf_parse_size(c, ch);
        else if (strcmp(en, "worldbody") == 0) {
            cs_mjcf_check(c, ch, NULL, NULL);
            nworld++;
        } else if (strcmp(en, "contact") == 0) parse_contact(c, ch);
        else if (strcmp(en, "keyframe") == 0) parse_keyframe(c, ch);
        else if (strcmp(en, "asset") == 0) parse_asset(c, ch);
        else if (strcmp(en, "actuator") == 0) cs_mjcf_parse_actuators(c, ch);
        else if (strcmp(en, "tendon") == 0) cs_mjcf_parse_tendons(c, ch);
        else if (strcmp(en, "equality") == 0) cs_mjcf_parse_equality(c, ch);
        else if (strcmp(en, "custom") == 0) parse_custom(c, ch);
        else if (strcmp(en, "sensor") == 0) cs_mjcf_parse_sensors(c, ch);
        else if (strcmp(en, "visual") == 0 || strcmp(en, "statistic") == 0) {
            if (strcmp(en, "statistic") == 0) cs_mjcf_parse_statistic(c, ch);
            if (strcmp(en, "visual") == 0) cs_mjcf_parse_visual(c, ch);
            /* assets are only reachable through geom mesh/hfield/material, checked there;
             * <statistic> notes its own */
            if (strcmp(en, "statistic") != 0) {
                cs_mjcf_note_ignored(c, en);
                cs_mjcf_mark_ignored(ch);
            }
        } else if (strcmp(en, "deformable") == 0) {
            /* skins are drawn over bodies and do nothing to the physics; flexes would */
            for (xmlNode *k = ch->children; k; k = k->next) {
                if (k->type == XML_ELEMENT_NODE && strcmp(cs_mjcf_ename(k), "skin") != 0)
                    FAILN(c, k, NULL, "element not supported (it would change the physics)");
                if (k->type == XML_ELEMENT_NODE) note_body_refs(c, k, "bone", NULL, "body");
            }
            cs_mjcf_note_ignored(c, "deformable/skin");
            cs_mjcf_mark_ignored(ch);
        } else
            FAILN(c, ch, NULL, "element not supported (it would change the physics)");
    }
    /* several <worldbody> sections add to the one world, as in MuJoCo: the world's own
     * geoms of every section first (a body's geoms are numbered together), then the
     * bodies in document order */
    if (nworld) {
        c->body[0].geom0 = c->ngeom;
        for (xmlNode *ch = root->children; ch; ch = ch->next)
            if (ch->type == XML_ELEMENT_NODE && strcmp(cs_mjcf_ename(ch), "worldbody") == 0)
                cs_mjcf_parse_items(c, ch, 0, 0, &CS_XF_IDENTITY, 0);
        c->body[0].ngeom = c->ngeom - c->body[0].geom0;
        for (xmlNode *ch = root->children; ch; ch = ch->next)
            if (ch->type == XML_ELEMENT_NODE && strcmp(cs_mjcf_ename(ch), "worldbody") == 0)
                cs_mjcf_parse_children(c, ch, 0, 0, &CS_XF_IDENTITY);
    }
}

/* a section of an attached model's document, read as this document's (mjcf_attach.c) */
void cs_mjcf_parse_section(cs_mjcf *c, xmlNode *n)
{
    const char *en = cs_mjcf_ename(n);
    if (strcmp(en, "asset") == 0) parse_asset(c, n);
    else if (strcmp(en, "contact") == 0) parse_contact(c, n);
    else if (strcmp(en, "tendon") == 0) cs_mjcf_parse_tendons(c, n);
    else if (strcmp(en, "equality") == 0) cs_mjcf_parse_equality(c, n);
    else if (strcmp(en, "actuator") == 0) cs_mjcf_parse_actuators(c, n);
    else if (strcmp(en, "sensor") == 0) cs_mjcf_parse_sensors(c, n);
    else if (strcmp(en, "keyframe") == 0) parse_keyframe(c, n);
}
