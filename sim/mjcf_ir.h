/* The loader's intermediate form: what the MJCF said, resolved against defaults, before
 * it is compiled into a cs_model (mjcf.c parses, mjcf_compile.c compiles). */
#ifndef CS_MJCF_IR_H
#define CS_MJCF_IR_H

#include <setjmp.h>
#include <stddef.h>
#include <stdio.h>

#include "conesim.h"

typedef struct {
    int type;
    double size[3];
    double pos[3], quat[4];
    int has_fromto;
    double fromto[6];
    int contype, conaffinity, condim, priority, group;
    double friction[3], solmix, solref[2], solimp[5], margin, gap, rgba[4];
    double mass; /* < 0: not given */
    double density;
} cs_gspec;

typedef struct {
    int condim;
    double friction[5], solref[2], solreffriction[2], solimp[5], margin, gap;
} cs_pspec;

typedef struct {
    int is_free;          /* type="free" (anything else is rejected when used) */
    const char *type;     /* as written, for messages */
    double damping, armature, frictionloss, stiffness;
} cs_jspec;

typedef struct {
    char *name;
    int parent;
    cs_gspec geom;
    cs_pspec pair;
    cs_jspec joint;
} cs_dclass;

typedef struct {
    char *name;
    int parent, line;
    double pos[3], quat[4];
    int is_free;
    char *jname;
    int has_inertial;
    double imass, ipos[3], iquat[4], iinertia[3];
    int geom0, ngeom;
} cs_bspec;

typedef struct {
    cs_gspec s;
    char *name;
    int body, line;
    double fpos[3], fquat[4]; /* enclosing <frame>s, applied after fromto (as MuJoCo) */
} cs_geomir;

typedef struct {
    cs_pspec s;
    char *name, *geom1, *geom2;
    int line;
} cs_pairir;

typedef struct {
    char *body1, *body2;
    int line;
} cs_exclir;

typedef struct {
    char *name;
    int line;
    double time;
    double *qpos, *qvel; /* NULL: not given */
    int nqpos, nqvel;
} cs_keyir;

typedef struct {
    const char *file;
    jmp_buf jb;
    int nomem;            /* the failure was memory exhaustion (errno ENOMEM for the caller) */
    void *xmlpending;     /* a libxml2 string being copied: freed if the copy fails */
    char *err;
    size_t errsz;
    void **allocs;
    int nalloc, capalloc;

    /* compiler */
    int degree;
    char eulerseq[4];
    int inertiafromgeom; /* 0 false, 1 true, 2 auto */
    double boundmass, boundinertia, settotalmass;
    int balanceinertia;
    int igroup[2];

    char *modelname;
    cs_option opt;
    int nconmax;

    cs_dclass *cls;
    int ncls, capcls;
    cs_bspec *body;
    int nbody, capbody;
    cs_geomir *geom;
    int ngeom, capgeom;
    cs_pairir *pair;
    int npair, cappair;
    cs_exclir *excl;
    int nexcl, capexcl;
    cs_keyir *key;
    int nkey, capkey;

    char **ignored;
    int nignored, capignored;
} cs_mjcf;

/* memory owned by the loader context (freed together on success and on error) */
void *cs_mjcf_alloc(cs_mjcf *c, size_t n);
char *cs_mjcf_strdup(cs_mjcf *c, const char *s);
/* grow *arr (element size es) so that index n fits */
void cs_mjcf_grow(cs_mjcf *c, void **arr, int *cap, int n, size_t es);
/* error at a line: "FILE:LINE: element <x>[ attribute 'y']: msg"; never returns */
void cs_mjcf_fail(cs_mjcf *c, int line, const char *elem, const char *attr, const char *fmt, ...)
    __attribute__((noreturn, format(printf, 5, 6)));

/* out of memory: "FILE: out of memory"; never returns */
void cs_mjcf_nomem(cs_mjcf *c) __attribute__((noreturn));

/* mjcf_compile.c: IR -> model (errors through cs_mjcf_fail) */
cs_model *cs_mjcf_compile(cs_mjcf *c);

#endif
