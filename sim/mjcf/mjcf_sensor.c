/* The <sensor> section as MuJoCo 3.12 reads and compiles it (xml_native_reader.cc's Sensor,
 * user_objects.cc's mjCSensor): each element's kind, the object it is attached to and its
 * reference, data layout (dim, datatype, stage), and the checks. Sensors have no default
 * classes in MuJoCo. */
#include <string.h>

#include <libxml/tree.h>

#include "alloc.h"
#include "mjcf_ir.h"
#include "history.h"
#include "sensor.h"

struct cs_sensorir {
    int type;             /* cs_sensor_type */
    const char *tag;
    char *name, *objname, *refname;
    int objtype, reftype; /* cs_obj */
    int intprm[3];
    int dim, datatype, needstage; /* user sensors: as given; others: from the type */
    double cutoff, noise;
    int nsample, interp;  /* the history buffer: samples (0: none), 0 zoh 1 linear 2 cubic */
    double delay, interval[2]; /* sensordata's delay; the computation's period and phase */
    double *user;
    int nuser, line;
    int objid, refid;     /* resolved against the loader's element lists */
};

typedef struct cs_sensorir cs_sensorir;

#define SFAIL(c, S, attr, ...) cs_mjcf_fail((c), (S)->line, (S)->tag, (attr), __VA_ARGS__)

/* the kinds fully described by one object attribute */
static const struct {
    const char *tag;
    int type;
    const char *objattr;
    int objtype;
} SIMPLE[] = {
    {"touch", CS_SENS_TOUCH, "site", CS_OBJ_SITE},
    {"accelerometer", CS_SENS_ACCELEROMETER, "site", CS_OBJ_SITE},
    {"velocimeter", CS_SENS_VELOCIMETER, "site", CS_OBJ_SITE},
    {"gyro", CS_SENS_GYRO, "site", CS_OBJ_SITE},
    {"force", CS_SENS_FORCE, "site", CS_OBJ_SITE},
    {"torque", CS_SENS_TORQUE, "site", CS_OBJ_SITE},
    {"magnetometer", CS_SENS_MAGNETOMETER, "site", CS_OBJ_SITE},
    {"jointpos", CS_SENS_JOINTPOS, "joint", CS_OBJ_JOINT},
    {"jointvel", CS_SENS_JOINTVEL, "joint", CS_OBJ_JOINT},
    {"tendonpos", CS_SENS_TENDONPOS, "tendon", CS_OBJ_TENDON},
    {"tendonvel", CS_SENS_TENDONVEL, "tendon", CS_OBJ_TENDON},
    {"actuatorpos", CS_SENS_ACTUATORPOS, "actuator", CS_OBJ_ACTUATOR},
    {"actuatorvel", CS_SENS_ACTUATORVEL, "actuator", CS_OBJ_ACTUATOR},
    {"actuatorfrc", CS_SENS_ACTUATORFRC, "actuator", CS_OBJ_ACTUATOR},
    {"jointactuatorfrc", CS_SENS_JOINTACTFRC, "joint", CS_OBJ_JOINT},
    {"tendonactuatorfrc", CS_SENS_TENDONACTFRC, "tendon", CS_OBJ_TENDON},
    {"ballquat", CS_SENS_BALLQUAT, "joint", CS_OBJ_JOINT},
    {"ballangvel", CS_SENS_BALLANGVEL, "joint", CS_OBJ_JOINT},
    {"jointlimitpos", CS_SENS_JOINTLIMITPOS, "joint", CS_OBJ_JOINT},
    {"jointlimitvel", CS_SENS_JOINTLIMITVEL, "joint", CS_OBJ_JOINT},
    {"jointlimitfrc", CS_SENS_JOINTLIMITFRC, "joint", CS_OBJ_JOINT},
    {"tendonlimitpos", CS_SENS_TENDONLIMITPOS, "tendon", CS_OBJ_TENDON},
    {"tendonlimitvel", CS_SENS_TENDONLIMITVEL, "tendon", CS_OBJ_TENDON},
    {"tendonlimitfrc", CS_SENS_TENDONLIMITFRC, "tendon", CS_OBJ_TENDON},
    {"subtreecom", CS_SENS_SUBTREECOM, "body", CS_OBJ_BODY},
    {"subtreelinvel", CS_SENS_SUBTREELINVEL, "body", CS_OBJ_BODY},
    {"subtreeangmom", CS_SENS_SUBTREEANGMOM, "body", CS_OBJ_BODY},
    {"e_potential", CS_SENS_E_POTENTIAL, NULL, CS_OBJ_UNKNOWN},
    {"e_kinetic", CS_SENS_E_KINETIC, NULL, CS_OBJ_UNKNOWN},
    {"clock", CS_SENS_CLOCK, NULL, CS_OBJ_UNKNOWN},
};

static const struct {
    const char *tag;
    int type;
} FRAME[] = {
    {"framepos", CS_SENS_FRAMEPOS}, {"framequat", CS_SENS_FRAMEQUAT},
    {"framexaxis", CS_SENS_FRAMEXAXIS}, {"frameyaxis", CS_SENS_FRAMEYAXIS},
    {"framezaxis", CS_SENS_FRAMEZAXIS}, {"framelinvel", CS_SENS_FRAMELINVEL},
    {"frameangvel", CS_SENS_FRAMEANGVEL}, {"framelinacc", CS_SENS_FRAMELINACC},
    {"frameangacc", CS_SENS_FRAMEANGACC},
};

#define NELEM(a) (int)(sizeof(a) / sizeof((a)[0]))

static const char *const COMMON[] = {"name", "nsample", "interp", "delay", "interval",
                                     "cutoff", "noise", "user"};
enum { NCOMMON = NELEM(COMMON) };

/* the common attributes and the kind's own, for the attribute check */
static void check(cs_mjcf *c, xmlNode *n, const char *const *own)
{
    const char *used[NCOMMON + 24];
    int k = 0;
    for (int i = 0; i < NCOMMON; i++) used[k++] = COMMON[i];
    for (; own && *own && k < NELEM(used) - 1; own++) used[k++] = *own;
    used[k] = NULL;
    cs_mjcf_check_attrs(c, n, used);
}

/* a keyword of words (its index), -1 when absent */
static int keyword(cs_mjcf *c, xmlNode *n, const char *name, const char *const *words)
{
    char *s = cs_mjcf_attr(c, n, name);
    if (!s) return -1;
    for (int i = 0; words[i]; i++)
        if (strcmp(s, words[i]) == 0) return i;
    cs_mjcf_fail(c, cs_mjcf_line(n), (const char *)n->name, name, "unknown value '%s'", s);
}

/* frame objects: body (inertial frame), xbody (body frame), geom, site, camera */
static const char *const FRAMEOBJ[] = {"body", "xbody", "geom", "site", "camera", NULL};
static const int FRAMEOBJ_CODE[] = {CS_OBJ_BODY, CS_OBJ_XBODY, CS_OBJ_GEOM, CS_OBJ_SITE,
                                    CS_OBJ_CAMERA};

/* a data="..." list of keywords in their order: its bits; 0 when absent */
static int data_bits(cs_mjcf *c, xmlNode *n, const char *const *words)
{
    char *s = cs_mjcf_attr(c, n, "data");
    if (!s) return 0;
    int bits = 0, last = -1;
    for (char *p = s, *tok; *p;) {
        while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n') p++;
        if (!*p) break;
        tok = p;
        while (*p && *p != ' ' && *p != '\t' && *p != '\r' && *p != '\n') p++;
        if (*p) *p++ = 0;
        int k = -1;
        for (int i = 0; words[i]; i++)
            if (strcmp(tok, words[i]) == 0) k = i;
        if (k < 0)
            cs_mjcf_fail(c, cs_mjcf_line(n), (const char *)n->name, "data",
                         "unknown value '%s'", tok);
        if (k <= last) {
            char list[160] = "";
            for (int i = 0; words[i]; i++) {
                strncat(list, i ? ", " : "", sizeof list - strlen(list) - 1);
                strncat(list, words[i], sizeof list - strlen(list) - 1);
            }
            cs_mjcf_fail(c, cs_mjcf_line(n), (const char *)n->name, "data",
                         "data attributes must be in order: %s", list);
        }
        last = k;
        bits |= 1 << k;
    }
    if (!bits)
        cs_mjcf_fail(c, cs_mjcf_line(n), (const char *)n->name, "data", "empty data list");
    return bits;
}

static const char *const CONDATA[] = {"found", "force", "torque", "dist", "pos", "normal",
                                      "tangent", NULL};
static const char *const RAYDATA[] = {"dist", "dir", "origin", "point", "normal", "depth",
                                      NULL};

/* the first of names the element gives: its index (and *value), -1 when none */
static int first_of(cs_mjcf *c, xmlNode *n, const char *const *names, char **value)
{
    for (int i = 0; names[i]; i++) {
        char *v = cs_mjcf_attr(c, n, names[i]);
        if (v) {
            *value = v;
            return i;
        }
    }
    return -1;
}

static void parse_one(cs_mjcf *c, xmlNode *n)
{
    const char *tag = (const char *)n->name;
    cs_sensorir S = {0};
    S.tag = tag;
    S.line = cs_mjcf_line(n);
    S.type = -1;
    S.objtype = S.reftype = CS_OBJ_UNKNOWN;
    S.objid = S.refid = -1;
    for (int i = 0; i < NELEM(SIMPLE); i++)
        if (strcmp(tag, SIMPLE[i].tag) == 0) {
            const char *own[] = {SIMPLE[i].objattr, NULL};
            check(c, n, own);
            S.type = SIMPLE[i].type;
            S.objtype = SIMPLE[i].objtype;
            if (SIMPLE[i].objattr) {
                S.objname = cs_mjcf_attr(c, n, SIMPLE[i].objattr);
                if (!S.objname)
                    SFAIL(c, &S, SIMPLE[i].objattr, "required attribute missing");
            }
        }
    for (int i = 0; i < NELEM(FRAME); i++)
        if (strcmp(tag, FRAME[i].tag) == 0) {
            int acc = FRAME[i].type == CS_SENS_FRAMELINACC || FRAME[i].type == CS_SENS_FRAMEANGACC;
            check(c, n, acc ? (const char *const[]){"objtype", "objname", NULL}
                            : (const char *const[]){"objtype", "objname", "reftype", "refname",
                                                    NULL});
            S.type = FRAME[i].type;
            int k = keyword(c, n, "objtype", FRAMEOBJ);
            if (k < 0) SFAIL(c, &S, "objtype", "required attribute missing");
            S.objtype = FRAMEOBJ_CODE[k];
            S.objname = cs_mjcf_attr(c, n, "objname");
            if (!S.objname) SFAIL(c, &S, "objname", "required attribute missing");
            if (!acc) {
                k = keyword(c, n, "reftype", FRAMEOBJ);
                if (k >= 0) S.reftype = FRAMEOBJ_CODE[k];
                S.refname = cs_mjcf_attr(c, n, "refname");
                if (S.refname && k < 0)
                    SFAIL(c, &S, "refname", "refname is given but reftype is not");
            }
        }
    if (strcmp(tag, "rangefinder") == 0) {
        check(c, n, (const char *const[]){"site", "camera", "data", NULL});
        S.type = CS_SENS_RANGEFINDER;
        S.objtype = CS_OBJ_SITE;
        S.objname = cs_mjcf_attr(c, n, "site");
        char *cam = cs_mjcf_attr(c, n, "camera");
        if (cam && S.objname) SFAIL(c, &S, "camera", "give site or camera, not both");
        if (cam) { /* a depth image: one ray per pixel of the camera's resolution */
            S.objtype = CS_OBJ_CAMERA;
            S.objname = cam;
        }
        if (!S.objname) SFAIL(c, &S, "site", "required attribute missing (site or camera)");
        S.intprm[0] = data_bits(c, n, RAYDATA);
        if (!S.intprm[0]) S.intprm[0] = 1 << CS_RAYDATA_DIST;
    } else if (strcmp(tag, "insidesite") == 0) {
        check(c, n, (const char *const[]){"site", "objtype", "objname", NULL});
        S.type = CS_SENS_INSIDESITE;
        S.reftype = CS_OBJ_SITE;
        S.refname = cs_mjcf_attr(c, n, "site");
        if (!S.refname) SFAIL(c, &S, "site", "required attribute missing");
        int k = keyword(c, n, "objtype", FRAMEOBJ);
        if (k < 0) SFAIL(c, &S, "objtype", "required attribute missing");
        S.objtype = FRAMEOBJ_CODE[k];
        S.objname = cs_mjcf_attr(c, n, "objname");
        if (!S.objname) SFAIL(c, &S, "objname", "required attribute missing");
    } else if (strcmp(tag, "distance") == 0 || strcmp(tag, "normal") == 0 ||
               strcmp(tag, "fromto") == 0) {
        check(c, n, (const char *const[]){"geom1", "geom2", "body1", "body2", NULL});
        S.type = tag[0] == 'd' ? CS_SENS_GEOMDIST : tag[0] == 'n' ? CS_SENS_GEOMNORMAL
                                                                  : CS_SENS_GEOMFROMTO;
        static const char *const ONE[] = {"body1", "geom1", NULL}, *const TWO[] = {"body2",
                                                                                   "geom2", NULL};
        int k1 = first_of(c, n, ONE, &S.objname), k2 = first_of(c, n, TWO, &S.refname);
        if (k1 < 0) SFAIL(c, &S, "geom1", "give geom1 or body1");
        if (k2 < 0) SFAIL(c, &S, "geom2", "give geom2 or body2");
        if (cs_mjcf_attr(c, n, "body1") && cs_mjcf_attr(c, n, "geom1"))
            SFAIL(c, &S, "geom1", "give geom1 or body1, not both");
        if (cs_mjcf_attr(c, n, "body2") && cs_mjcf_attr(c, n, "geom2"))
            SFAIL(c, &S, "geom2", "give geom2 or body2, not both");
        S.objtype = k1 == 0 ? CS_OBJ_BODY : CS_OBJ_GEOM;
        S.reftype = k2 == 0 ? CS_OBJ_BODY : CS_OBJ_GEOM;
    } else if (strcmp(tag, "contact") == 0) {
        check(c, n, (const char *const[]){"geom1", "geom2", "body1", "body2", "subtree1",
                                          "subtree2", "site", "num", "data", "reduce", NULL});
        S.type = CS_SENS_CONTACT;
        static const char *const ONE[] = {"site", "body1", "subtree1", "geom1", NULL};
        static const char *const TWO[] = {"body2", "subtree2", "geom2", NULL};
        static const int C1[] = {CS_OBJ_SITE, CS_OBJ_BODY, CS_OBJ_XBODY, CS_OBJ_GEOM};
        static const int C2[] = {CS_OBJ_BODY, CS_OBJ_XBODY, CS_OBJ_GEOM};
        int k1 = first_of(c, n, ONE, &S.objname), k2 = first_of(c, n, TWO, &S.refname);
        for (int i = k1 + 1; k1 >= 0 && ONE[i]; i++)
            if (cs_mjcf_attr(c, n, ONE[i]))
                SFAIL(c, &S, ONE[i], "give one of site, body1, subtree1, geom1");
        for (int i = k2 + 1; k2 >= 0 && TWO[i]; i++)
            if (cs_mjcf_attr(c, n, TWO[i]))
                SFAIL(c, &S, TWO[i], "give one of body2, subtree2, geom2");
        S.objtype = k1 >= 0 ? C1[k1] : CS_OBJ_UNKNOWN;
        S.reftype = k2 >= 0 ? C2[k2] : CS_OBJ_UNKNOWN;
        S.intprm[0] = data_bits(c, n, CONDATA);
        if (!S.intprm[0]) S.intprm[0] = 1 << CS_CONDATA_FOUND;
        static const char *const REDUCE[] = {"none", "mindist", "maxforce", "netforce", NULL};
        int r = keyword(c, n, "reduce", REDUCE);
        S.intprm[1] = r < 0 ? 0 : r;
        int num;
        S.intprm[2] = 1;
        if (cs_mjcf_ints(c, n, "num", &num, 1, 1)) {
            if (num <= 0 || num > 1000000)
                SFAIL(c, &S, "num", "'num' must be a positive integer");
            S.intprm[2] = num;
        }
    } else if (strcmp(tag, "user") == 0) {
        check(c, n, (const char *const[]){"objtype", "objname", "datatype", "needstage", "dim",
                                          NULL});
        S.type = CS_SENS_USER;
        static const char *const OBJ[] = {"body", "xbody", "joint", "geom", "site", "tendon",
                                          "actuator", NULL};
        static const int OC[] = {CS_OBJ_BODY, CS_OBJ_XBODY, CS_OBJ_JOINT, CS_OBJ_GEOM,
                                 CS_OBJ_SITE, CS_OBJ_TENDON, CS_OBJ_ACTUATOR};
        int k = keyword(c, n, "objtype", OBJ);
        S.objname = cs_mjcf_attr(c, n, "objname");
        if (k >= 0) S.objtype = OC[k];
        if (k >= 0 && !S.objname) SFAIL(c, &S, "objname", "objtype is given but objname is not");
        if (k < 0 && S.objname) SFAIL(c, &S, "objtype", "objname is given but objtype is not");
        static const char *const STAGE[] = {"none", "pos", "vel", "acc", NULL};
        static const char *const DTYPE[] = {"real", "positive", "axis", "quaternion", NULL};
        int st = keyword(c, n, "needstage", STAGE), dt = keyword(c, n, "datatype", DTYPE);
        S.needstage = st < 0 ? CS_STAGE_ACC : st;
        S.datatype = dt < 0 ? CS_DATATYPE_REAL : dt;
        int dim;
        if (!cs_mjcf_ints(c, n, "dim", &dim, 1, 1)) SFAIL(c, &S, "dim", "required attribute missing");
        if (dim < 0 || dim > 1000000) SFAIL(c, &S, "dim", "must be a non-negative integer");
        S.dim = dim;
        if (S.datatype == CS_DATATYPE_AXIS && S.dim != 3)
            SFAIL(c, &S, "dim", "datatype axis requires dim=3");
        if (S.datatype == CS_DATATYPE_QUATERNION && S.dim != 4)
            SFAIL(c, &S, "dim", "datatype quaternion requires dim=4");
    } else if (strcmp(tag, "camprojection") == 0) {
        check(c, n, (const char *const[]){"site", "camera", NULL});
        S.type = CS_SENS_CAMPROJECTION;
        S.objtype = CS_OBJ_SITE;
        S.objname = cs_mjcf_attr(c, n, "site");
        if (!S.objname) SFAIL(c, &S, "site", "required attribute missing");
        S.reftype = CS_OBJ_CAMERA;
        S.refname = cs_mjcf_attr(c, n, "camera");
        if (!S.refname) SFAIL(c, &S, "camera", "required attribute missing");
    } else if (strcmp(tag, "tactile") == 0 || strcmp(tag, "plugin") == 0) {
        SFAIL(c, &S, NULL, "%s sensors are not supported", tag);
    }
    if (S.type < 0) SFAIL(c, &S, NULL, "unknown sensor kind");

    /* what every sensor has */
    S.name = cs_mjcf_attr(c, n, "name");
    double v[2];
    if (cs_mjcf_nums(c, n, "cutoff", v, 1, 1)) {
        if (v[0] < 0) SFAIL(c, &S, "cutoff", "negative cutoff in sensor");
        S.cutoff = v[0];
    }
    if (cs_mjcf_nums(c, n, "noise", v, 1, 1)) {
        if (v[0] < 0) SFAIL(c, &S, "noise", "negative noise in sensor");
        S.noise = v[0];
    }
    /* the history buffer, MuJoCo's checks (and the negative values it leaves unchecked:
     * its step would write outside the buffer or read the future) */
    if (cs_mjcf_ints(c, n, "nsample", &S.nsample, 1, 1) && S.nsample < 0)
        SFAIL(c, &S, "nsample", "nsample cannot be negative");
    if (S.nsample > 16777216)
        SFAIL(c, &S, "nsample", "at most 2^24 samples in sensor history buffer, got %d", S.nsample);
    if (cs_mjcf_nums(c, n, "delay", v, 1, 1)) {
        if (!(v[0] >= 0)) SFAIL(c, &S, "delay", "delay cannot be negative");
        S.delay = v[0];
    }
    if (S.delay > 0 && S.nsample <= 0)
        SFAIL(c, &S, "delay", "setting delay > 0 without a history buffer (nsample)");
    v[0] = v[1] = 0; /* a period alone: phase 0 */
    cs_mjcf_nums(c, n, "interval", v, 1, 2);
    if (v[0] < 0) SFAIL(c, &S, "interval", "negative interval in sensor");
    if (v[1] > 0) SFAIL(c, &S, "interval", "positive phase in sensor");
    if (v[0] > 0 && v[1] <= -v[0])
        SFAIL(c, &S, "interval", "phase must be greater than -period in sensor");
    S.interval[0] = v[0], S.interval[1] = v[1];
    static const char *const INTERP[] = {"zoh", "linear", "cubic", NULL};
    S.interp = keyword(c, n, "interp", INTERP);
    if (S.interp < 0) S.interp = 0;
    if (S.type == CS_SENS_USER && S.delay > 0) /* MuJoCo's step cannot compute one */
        SFAIL(c, &S, "delay", "a user sensor cannot be delayed");
    double ubuf[256];
    S.nuser = cs_mjcf_nums(c, n, "user", ubuf, 1, NELEM(ubuf));
    if (S.nuser) {
        S.user = cs_mjcf_alloc(c, (size_t)S.nuser * sizeof *S.user);
        memcpy(S.user, ubuf, (size_t)S.nuser * sizeof *S.user);
    }
    if (S.name)
        for (int i = 0; i < c->nsensor; i++)
            if (c->sensor[i].name && strcmp(c->sensor[i].name, S.name) == 0)
                SFAIL(c, &S, "name", "duplicate sensor name '%s'", S.name);
    cs_mjcf_grow(c, (void **)&c->sensor, &c->capsensor, c->nsensor, sizeof *c->sensor);
    c->sensor[c->nsensor++] = S;
}

void cs_mjcf_parse_sensors(cs_mjcf *c, xmlNode *section)
{
    cs_mjcf_check_attrs(c, section, NULL);
    for (xmlNode *n = section->children; n; n = n->next)
        if (n->type == XML_ELEMENT_NODE) parse_one(c, n);
}

/* ---- resolving names against the loader's element lists --------------------------------- */
static int find(const cs_mjcf *c, int objtype, const char *name)
{
#define FIND(arr, count)                                                   \
    for (int i = 0; i < (count); i++)                                      \
        if (c->arr[i].name && strcmp(c->arr[i].name, name) == 0) return i; \
    return -1
    switch (objtype) {
    case CS_OBJ_BODY:
    case CS_OBJ_XBODY: FIND(body, c->nbody);
    case CS_OBJ_JOINT: FIND(jnt, c->njnt);
    case CS_OBJ_GEOM: FIND(geom, c->ngeom);
    case CS_OBJ_SITE: FIND(site, c->nsite);
    case CS_OBJ_TENDON: FIND(ten, c->nten);
    case CS_OBJ_ACTUATOR: FIND(act, c->nact);
    case CS_OBJ_CAMERA: return cs_mjcf_find_camera(c, name);
    default: return -1;
    }
#undef FIND
}

static const char *obj_word(int objtype)
{
    switch (objtype) {
    case CS_OBJ_BODY:
    case CS_OBJ_XBODY: return "body";
    case CS_OBJ_JOINT: return "joint";
    case CS_OBJ_GEOM: return "geom";
    case CS_OBJ_SITE: return "site";
    case CS_OBJ_TENDON: return "tendon";
    case CS_OBJ_ACTUATOR: return "actuator";
    case CS_OBJ_CAMERA: return "camera";
    default: return "object";
    }
}

/* the object of type t named name: its index in the loader's list, or an error */
static int resolve(cs_mjcf *c, cs_sensorir *S, int t, const char *name, const char *attr)
{
    int id = find(c, t, name);
    if (id < 0) SFAIL(c, S, attr, "no %s named '%s'", obj_word(t), name);
    return id;
}

static const char *objattr(const cs_sensorir *S)
{
    for (int i = 0; i < NELEM(SIMPLE); i++)
        if (SIMPLE[i].type == S->type && SIMPLE[i].objattr) return SIMPLE[i].objattr;
    switch (S->type) {
    case CS_SENS_RANGEFINDER: return S->objtype == CS_OBJ_CAMERA ? "camera" : "site";
    case CS_SENS_GEOMDIST:
    case CS_SENS_GEOMNORMAL:
    case CS_SENS_GEOMFROMTO: return S->objtype == CS_OBJ_BODY ? "body1" : "geom1";
    case CS_SENS_CONTACT:
        return S->objtype == CS_OBJ_SITE ? "site" : S->objtype == CS_OBJ_BODY ? "body1"
               : S->objtype == CS_OBJ_XBODY ? "subtree1" : "geom1";
    default: return "objname";
    }
}

static const char *refattr(const cs_sensorir *S)
{
    switch (S->type) {
    case CS_SENS_INSIDESITE: return "site";
    case CS_SENS_CAMPROJECTION: return "camera";
    case CS_SENS_GEOMDIST:
    case CS_SENS_GEOMNORMAL:
    case CS_SENS_GEOMFROMTO: return S->reftype == CS_OBJ_BODY ? "body2" : "geom2";
    case CS_SENS_CONTACT:
        return S->reftype == CS_OBJ_BODY ? "body2" : S->reftype == CS_OBJ_XBODY ? "subtree2"
                                                                                : "geom2";
    default: return "refname";
    }
}

void cs_mjcf_resolve_sensors(cs_mjcf *c)
{
    for (int i = 0; i < c->nsensor; i++) {
        cs_sensorir *S = &c->sensor[i];
        const char *oa = objattr(S), *ra = refattr(S);
        if (S->objtype != CS_OBJ_UNKNOWN) S->objid = resolve(c, S, S->objtype, S->objname, oa);
        if (S->reftype != CS_OBJ_UNKNOWN) {
            if (!S->refname) SFAIL(c, S, "refname", "reftype is given but refname is not");
            S->refid = resolve(c, S, S->reftype, S->refname, ra);
        }
        switch (S->type) {
        case CS_SENS_JOINTPOS:
        case CS_SENS_JOINTVEL:
        case CS_SENS_JOINTACTFRC: {
            int t = c->jnt[S->objid].s.type;
            if (t != CS_JNT_SLIDE && t != CS_JNT_HINGE)
                SFAIL(c, S, oa, "joint must be slide or hinge in sensor");
            break;
        }
        case CS_SENS_BALLQUAT:
        case CS_SENS_BALLANGVEL:
            if (c->jnt[S->objid].s.type != CS_JNT_BALL)
                SFAIL(c, S, oa, "joint must be ball in sensor");
            break;
        case CS_SENS_JOINTLIMITPOS:
        case CS_SENS_JOINTLIMITVEL:
        case CS_SENS_JOINTLIMITFRC:
            if (c->jnt[S->objid].s.limited != CS_LIMITED_TRUE)
                SFAIL(c, S, oa, "joint must be limited in sensor");
            break;
        case CS_SENS_TENDONLIMITPOS:
        case CS_SENS_TENDONLIMITVEL:
        case CS_SENS_TENDONLIMITFRC:
            if (c->ten[S->objid].s.limited != CS_LIMITED_TRUE)
                SFAIL(c, S, oa, "tendon must be limited in sensor");
            break;
        case CS_SENS_GEOMDIST:
        case CS_SENS_GEOMNORMAL:
        case CS_SENS_GEOMFROMTO:
            if (S->objtype == S->reftype && S->objid == S->refid)
                SFAIL(c, S, ra, "1st body/geom must be different from 2nd body/geom");
            /* MuJoCo 3.12 refuses a height field named as the geom (a body's field is taken) */
            if (S->objtype == CS_OBJ_GEOM && c->geom[S->objid].s.type == CS_GEOM_HFIELD)
                SFAIL(c, S, oa, "height fields are not supported in geom distance sensors");
            if (S->reftype == CS_OBJ_GEOM && c->geom[S->refid].s.type == CS_GEOM_HFIELD)
                SFAIL(c, S, ra, "height fields are not supported in geom distance sensors");
            break;
        default: break;
        }
        if (S->type != CS_SENS_USER) {
            S->datatype = cs_sensor_datatype_of(S->type);
            S->needstage = cs_sensor_stage_of(S->type);
            S->dim = cs_sensor_dim_of(S->type, S->intprm);
            if (S->type == CS_SENS_RANGEFINDER && S->objtype == CS_OBJ_CAMERA)
                S->dim *= cs_mjcf_camera_pixels(c, S->objid);
            if (S->type == CS_SENS_ACTUATORPOS || S->type == CS_SENS_ACTUATORVEL ||
                S->type == CS_SENS_ACTUATORFRC) /* one value per force output */
                S->dim = cs_mjcf_act_outputs(&c->act[S->objid].s);
        }
        if (c->nuser_sensor >= 0 && S->nuser > c->nuser_sensor)
            SFAIL(c, S, "user", "user has more values than nuser_sensor in sensor");
        if (S->cutoff > 0 && (S->datatype == CS_DATATYPE_QUATERNION ||
                              (S->datatype == CS_DATATYPE_AXIS && S->type != CS_SENS_GEOMNORMAL)))
            SFAIL(c, S, "cutoff", "cutoff applied to axis or quaternion datatype in sensor");
    }
}

void cs_mjcf_sensor_sizes(const cs_mjcf *c, cs_model *m)
{
    int total = 0, nuser = 0;
    for (int i = 0; i < c->nsensor; i++) {
        total += c->sensor[i].dim;
        if (c->sensor[i].nuser > nuser) nuser = c->sensor[i].nuser;
    }
    m->nsensor = c->nsensor;
    m->nsensordata = total;
    for (int i = 0; i < c->nsensor; i++)
        if (c->sensor[i].nsample > 0)
            m->nhistory += cs_history_size(c->sensor[i].nsample, c->sensor[i].dim);
    m->nuser_sensor = c->nuser_sensor >= 0 ? c->nuser_sensor : nuser; /* -1: the longest */
}

/* the model's index of the loader's element (the loader's lists and the model's can be in
 * different orders: geoms are numbered body by body) */
static int model_id(const cs_mjcf *c, const cs_model *m, int objtype, int id)
{
    const char *name = NULL;
    switch (objtype) {
    case CS_OBJ_BODY:
    case CS_OBJ_XBODY: return id; /* bodies keep the loader's order */
    case CS_OBJ_JOINT: name = c->jnt[id].name; break;
    case CS_OBJ_GEOM: name = c->geom[id].name; break;
    case CS_OBJ_SITE: return id;
    case CS_OBJ_TENDON: return id;
    case CS_OBJ_ACTUATOR: return id;
    case CS_OBJ_CAMERA: return id; /* the visual list's order is the model's */
    default: return -1;
    }
    return cs_name2id(m, obj_word(objtype), name);
}

int cs_mjcf_build_sensors(const cs_mjcf *c, cs_model *m)
{
    int adr = 0, nu = m->nuser_sensor, hadr = 0;
    for (int i = 0; i < m->nactuator; i++) /* the sensors' buffers follow the actuators' */
        if (m->actuator_history[2 * i] > 0) hadr += cs_history_size(m->actuator_history[2 * i], 1);
    for (int i = 0; i < c->nsensor; i++) {
        const cs_sensorir *S = &c->sensor[i];
        m->sensor_type[i] = S->type;
        m->sensor_datatype[i] = S->datatype;
        m->sensor_needstage[i] = S->needstage;
        m->sensor_objtype[i] = S->objtype;
        m->sensor_objid[i] = S->objtype == CS_OBJ_UNKNOWN ? -1 : model_id(c, m, S->objtype, S->objid);
        m->sensor_reftype[i] = S->reftype;
        m->sensor_refid[i] = S->reftype == CS_OBJ_UNKNOWN ? -1 : model_id(c, m, S->reftype, S->refid);
        memcpy(m->sensor_intprm + 3 * i, S->intprm, sizeof S->intprm);
        m->sensor_dim[i] = S->dim;
        m->sensor_adr[i] = adr;
        adr += S->dim;
        m->sensor_cutoff[i] = S->cutoff;
        m->sensor_noise[i] = S->noise;
        m->sensor_history[2 * i] = S->nsample;
        m->sensor_history[2 * i + 1] = S->interp;
        m->sensor_delay[i] = S->delay;
        m->sensor_interval[2 * i] = S->interval[0];
        m->sensor_interval[2 * i + 1] = S->interval[1];
        m->sensor_historyadr[i] = S->nsample > 0 ? hadr : -1;
        if (S->nsample > 0) hadr += cs_history_size(S->nsample, S->dim);
        for (int k = 0; k < S->nuser; k++) m->sensor_user[(size_t)i * nu + k] = S->user[k];
        if (S->name) {
            size_t len = strlen(S->name) + 1;
            if (!(m->sensor_name[i] = cs_malloc(len))) return -1;
            memcpy(m->sensor_name[i], S->name, len);
        }
    }
    return 0;
}

void cs_mjcf_keep_resolved_sensors(cs_mjcf *c, int from)
{
    int k = from;
    for (int i = from; i < c->nsensor; i++) {
        const cs_sensorir *S = &c->sensor[i];
        if (S->objtype != CS_OBJ_UNKNOWN && S->objname && find(c, S->objtype, S->objname) < 0)
            continue;
        if (S->reftype != CS_OBJ_UNKNOWN && S->refname && find(c, S->reftype, S->refname) < 0)
            continue;
        c->sensor[k++] = *S;
    }
    c->nsensor = k;
}

/* ---- questions the compiler asks before names are resolved ---------------------------- */
static int named(const char *a, const char *b) { return a && b && strcmp(a, b) == 0; }

int cs_mjcf_sensor_body_names(const cs_mjcf *c, cs_mjcf_name_fn fn, void *ctx)
{
    for (int i = 0; i < c->nsensor; i++) {
        const cs_sensorir *S = &c->sensor[i];
        if ((S->objtype == CS_OBJ_BODY || S->objtype == CS_OBJ_XBODY) && S->objname &&
            fn(ctx, S->objname))
            return 1;
        if ((S->reftype == CS_OBJ_BODY || S->reftype == CS_OBJ_XBODY) && S->refname &&
            fn(ctx, S->refname))
            return 1;
    }
    return 0;
}

int cs_mjcf_sensor_force_on_body(const cs_mjcf *c, int b)
{
    for (int i = 0; i < c->nsensor; i++) {
        const cs_sensorir *S = &c->sensor[i];
        if (S->type != CS_SENS_FORCE && S->type != CS_SENS_TORQUE) continue;
        int s = cs_mjcf_find_site(c, S->objname);
        if (s >= 0 && c->site[s].body == b) return 1;
    }
    return 0;
}

int cs_mjcf_sensor_measures_geom(const cs_mjcf *c, int g)
{
    const char *gn = c->geom[g].name, *bn = c->body[c->geom[g].body].name;
    for (int i = 0; i < c->nsensor; i++) {
        const cs_sensorir *S = &c->sensor[i];
        if (S->type != CS_SENS_GEOMDIST && S->type != CS_SENS_GEOMNORMAL &&
            S->type != CS_SENS_GEOMFROMTO)
            continue;
        if ((S->objtype == CS_OBJ_GEOM && named(S->objname, gn)) ||
            (S->reftype == CS_OBJ_GEOM && named(S->refname, gn)) ||
            (S->objtype == CS_OBJ_BODY && named(S->objname, bn)) ||
            (S->reftype == CS_OBJ_BODY && named(S->refname, bn)))
            return 1;
    }
    return 0;
}
