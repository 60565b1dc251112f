/* conesim info: the compiled model as readable tables. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "conesim.h"
#include "overrides.h"

static const char *const GEOMTYPE[] = {"plane", "hfield", "sphere", "capsule", "ellipsoid",
                                       "cylinder", "box", "mesh"};

/* "free", the body's joint types ("hinge+slide"), "weld" for none, "-" for the world */
static const char *body_kind(const cs_model *m, int b)
{
    static char buf[64];
    if (b == 0) return "-";
    if (!m->body_jntnum[b]) return "weld";
    buf[0] = 0;
    for (int j = m->body_jntadr[b]; j < m->body_jntadr[b] + m->body_jntnum[b]; j++) {
        if (buf[0]) strncat(buf, "+", sizeof buf - strlen(buf) - 1);
        strncat(buf, cs_jnt_type_name(m->jnt_type[j]), sizeof buf - strlen(buf) - 1);
    }
    return buf;
}

static void print_joints(const cs_model *m)
{
    char buf[32], buf2[32];
    printf("\njoints\n");
    printf("  %3s %-14s %-6s %-14s %5s %5s %-24s %-24s %-22s %s\n", "id", "name", "type", "body",
           "qpos", "dof", "pos (body frame)", "axis", "range", "stiffness damping armature "
           "frictionloss margin");
    for (int j = 0; j < m->njnt; j++) {
        const double *p = m->jnt_pos + 3 * j, *a = m->jnt_axis + 3 * j, *r = m->jnt_range + 2 * j;
        int i = m->jnt_dofadr[j];
        char range[48] = "unlimited";
        if (m->jnt_limited[j]) snprintf(range, sizeof range, "[%g, %g]", r[0], r[1]);
        printf("  %3d %-14s %-6s %-14s %5d %5d (%6.3g, %6.3g, %6.3g) (%6.3g, %6.3g, %6.3g) "
               "%-22s %g %g %g %g %g\n",
               j, cs_joint_label(m, j, buf, sizeof buf), cs_jnt_type_name(m->jnt_type[j]),
               cs_body_label(m, m->jnt_bodyid[j], buf2, sizeof buf2), m->jnt_qposadr[j], i,
               p[0], p[1], p[2], a[0], a[1], a[2], range, m->jnt_stiffness[j], m->dof_damping[i],
               m->dof_armature[i], m->dof_frictionloss[i], m->jnt_margin[j]);
    }
    printf("\ndofs (kinematic trees: each tree's dofs are contiguous; parent -1 starts a tree)\n");
    printf("  %3s %-14s %-6s %-6s %-5s %s\n", "id", "joint", "parent", "tree", "body",
           "invweight0");
    for (int i = 0; i < m->nv; i++)
        printf("  %3d %-14s %-6d %-6d %-5d %.6g\n", i,
               cs_joint_label(m, m->dof_jntid[i], buf, sizeof buf), m->dof_parent[i],
               m->dof_treeid[i], m->dof_bodyid[i], m->dof_invweight0[i]);
}

static const char *const DYN[] = {"none", "integrator", "filter", "filterexact", "muscle",
                                  "dcmotor"};

static void range_text(char *buf, size_t n, int limited, const double *r)
{
    if (limited) snprintf(buf, n, "[%g, %g]", r[0], r[1]);
    else snprintf(buf, n, "-");
}

static void print_actuators(const cs_model *m)
{
    char buf[32], buf2[32], cr[48], fr[48], ar[48];
    printf("\nactuators (force = gain * (ctrl or act) + bias; gain = g0 [+ g1 length + g2 "
           "velocity]; bias = b0 + b1 length + b2 velocity)\n");
    printf("  %3s %-14s %-14s %-6s %-11s %-30s %-32s %-18s %-18s %-18s %s\n", "id", "name",
           "joint", "gear", "dynamics", "gain (g0, g1, g2)", "bias (b0, b1, b2)", "ctrlrange",
           "forcerange", "actrange", "act");
    for (int i = 0; i < m->nactuator; i++) {
        const double *g = m->actuator_gainprm + 10 * i, *b = m->actuator_biasprm + 10 * i;
        char gain[96], bias[64], dyn[48];
        const double *lr = m->actuator_lengthrange + 2 * i, *dp = m->actuator_dynprm + 10 * i;
        /* a muscle's peak force: given, or scale / acc0 */
        double peak = g[2] < 0 ? g[3] / (m->actuator_acc0[i] > 1e-15 ? m->actuator_acc0[i] : 1e-15) : g[2];
        if (m->actuator_gaintype[i] == CS_GAIN_AFFINE) snprintf(gain, sizeof gain, "affine (%g, %g, %g)", g[0], g[1], g[2]);
        else if (m->actuator_gaintype[i] == CS_GAIN_MUSCLE)
            snprintf(gain, sizeof gain, "muscle F %.4g L [%.4g, %.4g]", peak, lr[0], lr[1]);
        else if (m->actuator_gaintype[i] == CS_GAIN_DCMOTOR && g[4] == 0 && g[5] == 0 && g[6] == 0)
            snprintf(gain, sizeof gain, "dcmotor K %g R %g", g[1], g[0]);
        else if (m->actuator_gaintype[i] == CS_GAIN_DCMOTOR) /* with its controller's kp, ki, kd */
            snprintf(gain, sizeof gain, "dcmotor K %g R %g pid %g %g %g", g[1], g[0], g[4], g[5],
                     g[6]);
        else if (m->actuator_gaintype[i] == CS_GAIN_PID) /* kp and kv are in the bias */
            snprintf(gain, sizeof gain, "pid ki %g", g[0]);
        else if (m->actuator_gaintype[i] == CS_GAIN_SO3) /* on the rotation's log */
            snprintf(gain, sizeof gain, "so3 kp %g", g[0]);
        else snprintf(gain, sizeof gain, "fixed %g", g[0]);
        if (m->actuator_biastype[i] == CS_BIAS_AFFINE) snprintf(bias, sizeof bias, "affine (%g, %g, %g)", b[0], b[1], b[2]);
        else if (m->actuator_biastype[i] == CS_BIAS_MUSCLE) snprintf(bias, sizeof bias, "muscle passive");
        else if (m->actuator_biastype[i] == CS_BIAS_DCMOTOR) snprintf(bias, sizeof bias, "dcmotor cogging %g", b[0]);
        else if (m->actuator_biastype[i] == CS_BIAS_SO3) snprintf(bias, sizeof bias, "so3 (%g, %g, %g)", b[0], b[1], b[2]);
        else snprintf(bias, sizeof bias, "none");
        int dt = m->actuator_dyntype[i];
        if (dt == CS_DYN_MUSCLE) snprintf(dyn, sizeof dyn, "muscle %g/%g", dp[0], dp[1]);
        else if (dt == CS_DYN_PID) snprintf(dyn, sizeof dyn, "pid imax %g slew %g", dp[0], dp[1]);
        else if (dt == CS_DYN_DCMOTOR) snprintf(dyn, sizeof dyn, "dcmotor te %g", dp[0]);
        else if (dt >= CS_DYN_FILTER) snprintf(dyn, sizeof dyn, "%s %g", DYN[dt], dp[0]);
        else snprintf(dyn, sizeof dyn, "%s", DYN[dt]);
        int c0 = m->actuator_ctrladr[i]; /* the first control's range */
        if (m->actuator_ctrlnum[i])
            range_text(cr, sizeof cr, m->actuator_ctrllimited[c0], m->actuator_ctrlrange + 2 * c0);
        else
            snprintf(cr, sizeof cr, "(no control)");
        range_text(fr, sizeof fr, m->actuator_forcelimited[i], m->actuator_forcerange + 2 * i);
        range_text(ar, sizeof ar, m->actuator_actlimited[i], m->actuator_actrange + 2 * i);
        char trn[64];
        int tid = m->actuator_trnid[2 * i];
        if (m->actuator_trntype[i] == CS_TRN_TENDON) {
            snprintf(trn, sizeof trn, "tendon %s", cs_tendon_label(m, tid, buf2, sizeof buf2));
        } else if (m->actuator_trntype[i] == CS_TRN_SLIDERCRANK) {
            int s2 = m->actuator_trnid[2 * i + 1];
            snprintf(trn, sizeof trn, "crank %d slider %d rod %g", tid, s2,
                     m->actuator_cranklength[i]);
        } else if (m->actuator_trntype[i] == CS_TRN_SITE) {
            int r = m->actuator_trnid[2 * i + 1];
            if (r >= 0) snprintf(trn, sizeof trn, "site %d ref %d", tid, r);
            else snprintf(trn, sizeof trn, "site %d", tid);
        } else if (m->actuator_trntype[i] == CS_TRN_SO3) { /* an orientation servo's */
            int r = m->actuator_trnid[2 * i + 1];
            if (r >= 0) snprintf(trn, sizeof trn, "so3 site %d ref %d", tid, r);
            else snprintf(trn, sizeof trn, "so3 %s", cs_joint_label(m, tid, buf2, sizeof buf2));
        } else if (m->actuator_trntype[i] == CS_TRN_BODY) { /* adhesion: the body's contacts */
            snprintf(trn, sizeof trn, "body %s", cs_body_label(m, tid, buf2, sizeof buf2));
        } else
            snprintf(trn, sizeof trn, "%s", cs_joint_label(m, tid, buf2, sizeof buf2));
        printf("  %3d %-14s %-14s %-6g %-11s %-30s %-32s %-18s %-18s %-18s %d", i,
               cs_actuator_label(m, i, buf, sizeof buf), trn,
               m->actuator_gear[6 * i], dyn, gain, bias, cr, fr, ar, m->actuator_actadr[i]);
        if (m->actuator_ctrlnum[i] != 1) { /* its controls, when not the one */
            printf("  controls");
            for (int k = 0; k < m->actuator_ctrlnum[i]; k++) {
                const char *in = cs_actuator_input_name(m, i, k);
                printf(" %s", in ? in : "?");
            }
            if (!m->actuator_ctrlnum[i]) printf(" none");
        }
        printf("\n");
    }
}

static void print_tendons(const cs_model *m)
{
    char buf[32], buf2[32], rg[48];
    printf("\ntendons (fixed: length = sum coef * qpos; spatial: the path through its sites, "
           "wrapped over geoms, a pulley dividing what follows; rows: limit within margin, "
           "friction)\n");
    printf("  %3s %-14s %-18s %-8s %-10s %-10s %-10s %-21s %-10s %s\n", "id", "name", "range",
           "margin", "friction", "stiffness", "damping", "springlength", "length0",
           "path: joints (coef) or sites");
    for (int t = 0; t < m->ntendon; t++) {
        range_text(rg, sizeof rg, m->tendon_limited[t], m->tendon_range + 2 * t);
        char sl[48];
        snprintf(sl, sizeof sl, "[%g, %g]", m->tendon_lengthspring[2 * t],
                 m->tendon_lengthspring[2 * t + 1]);
        printf("  %3d %-14s %-18s %-8g %-10g %-10g %-10g %-21s %-10g", t,
               cs_tendon_label(m, t, buf, sizeof buf), rg, m->tendon_margin[t],
               m->tendon_frictionloss[t], m->tendon_stiffness[t], m->tendon_damping[t], sl,
               m->tendon_length0[t]);
        for (int w = m->tendon_adr[t]; w < m->tendon_adr[t] + m->tendon_num[t]; w++) {
            int o = m->wrap_objid[w];
            int ty = m->wrap_type[w];
            if (ty == CS_WRAP_SITE)
                printf(" site %s", m->site_name[o] ? m->site_name[o] : (snprintf(buf2, sizeof buf2, "%d", o), buf2));
            else if (ty == CS_WRAP_PULLEY)
                printf(" pulley /%g", m->wrap_prm[w]);
            else if (ty == CS_WRAP_SPHERE || ty == CS_WRAP_CYLINDER)
                printf(" %s %s", ty == CS_WRAP_SPHERE ? "sphere" : "cylinder",
                       m->geom_name[o] ? m->geom_name[o] : (snprintf(buf2, sizeof buf2, "%d", o), buf2));
            else
                printf(" %s (%g)", cs_joint_label(m, o, buf2, sizeof buf2), m->wrap_prm[w]);
        }
        putchar('\n');
    }
}

static void print_equalities(const cs_model *m)
{
    static const char *const TY[] = {"connect", "weld", "joint", "tendon"};
    char buf[32], b1[32], b2[32];
    printf("\nequality constraints (bilateral rows: connect 3, weld 6, joint and tendon 1)\n");
    printf("  %3s %-14s %-8s %-6s %-20s %-20s %-14s %-28s %s\n", "id", "name", "type", "active",
           "obj1", "obj2", "solref", "solimp", "data");
    for (int e = 0; e < m->neq; e++) {
        int ty = m->eq_type[e], o1 = m->eq_obj1id[e], o2 = m->eq_obj2id[e];
        const char *n1, *n2;
        if (ty <= CS_EQ_WELD && m->eq_objtype[e] == CS_OBJ_SITE) {
            if (m->site_name[o1]) snprintf(b1, sizeof b1, "site %s", m->site_name[o1]);
            else snprintf(b1, sizeof b1, "site%d", o1);
            if (m->site_name[o2]) snprintf(b2, sizeof b2, "site %s", m->site_name[o2]);
            else snprintf(b2, sizeof b2, "site%d", o2);
            n1 = b1, n2 = b2;
        } else if (ty <= CS_EQ_WELD) {
            n1 = cs_body_label(m, o1, b1, sizeof b1);
            n2 = cs_body_label(m, o2, b2, sizeof b2);
        } else if (ty == CS_EQ_JOINT) {
            n1 = cs_joint_label(m, o1, b1, sizeof b1);
            n2 = o2 >= 0 ? cs_joint_label(m, o2, b2, sizeof b2) : "-";
        } else {
            n1 = cs_tendon_label(m, o1, b1, sizeof b1);
            n2 = o2 >= 0 ? cs_tendon_label(m, o2, b2, sizeof b2) : "-";
        }
        const double *sr = m->eq_solref + 2 * e, *si = m->eq_solimp + 5 * e;
        const double *dt = m->eq_data + CS_NEQDATA * e;
        char srs[64], sis[80];
        snprintf(srs, sizeof srs, "%g %g", sr[0], sr[1]);
        snprintf(sis, sizeof sis, "%g %g %g %g %g", si[0], si[1], si[2], si[3], si[4]);
        printf("  %3d %-14s %-8s %-6d %-20s %-20s %-14s %-28s", e,
               cs_eq_label(m, e, buf, sizeof buf), TY[ty], m->eq_active0[e], n1, n2, srs, sis);
        int site = ty <= CS_EQ_WELD && m->eq_objtype[e] == CS_OBJ_SITE;
        if (site)
            printf(" at the sites' frames%s", ty == CS_EQ_WELD ? "" : "\n");
        if (site && ty == CS_EQ_WELD)
            printf(" torquescale %g\n", dt[10]);
        if (site) continue;
        if (ty == CS_EQ_CONNECT)
            printf(" anchor1 (%g %g %g) anchor2 (%g %g %g)", dt[0], dt[1], dt[2], dt[3], dt[4],
                   dt[5]);
        else if (ty == CS_EQ_WELD)
            printf(" anchor (%g %g %g) relpose (%g %g %g  %g %g %g %g) torquescale %g", dt[0],
                   dt[1], dt[2], dt[3], dt[4], dt[5], dt[6], dt[7], dt[8], dt[9], dt[10]);
        else
            printf(" polycoef %g %g %g %g %g", dt[0], dt[1], dt[2], dt[3], dt[4]);
        putchar('\n');
    }
}

/* a sensor's object or reference: its kind and label */
static void obj_text(char *out, size_t n, const cs_model *m, int type, int id)
{
    char buf[32];
    const char *label = "-", *kind = "";
    switch (type) {
    case CS_OBJ_BODY: kind = "body ", label = cs_body_label(m, id, buf, sizeof buf); break;
    case CS_OBJ_XBODY: kind = "xbody ", label = cs_body_label(m, id, buf, sizeof buf); break;
    case CS_OBJ_JOINT: kind = "joint ", label = cs_joint_label(m, id, buf, sizeof buf); break;
    case CS_OBJ_GEOM: kind = "geom ", label = cs_geom_label(m, id, buf, sizeof buf); break;
    case CS_OBJ_SITE:
        kind = "site ";
        if (m->site_name[id]) label = m->site_name[id];
        else snprintf(buf, sizeof buf, "site%d", id), label = buf;
        break;
    case CS_OBJ_TENDON: kind = "tendon ", label = cs_tendon_label(m, id, buf, sizeof buf); break;
    case CS_OBJ_ACTUATOR:
        kind = "actuator ", label = cs_actuator_label(m, id, buf, sizeof buf);
        break;
    default: break;
    }
    snprintf(out, n, "%s%s", kind, label);
}

static void print_sensors(const cs_model *m)
{
    static const char *const STAGE[] = {"none", "pos", "vel", "acc"};
    char buf[32], obj[64], ref[64];
    printf("\nsensors (sensordata[adr .. adr + dim), computed at the stage named; cutoff 0: "
           "none; noise is not added, as in MuJoCo)\n");
    printf("  %3s %-14s %-17s %4s %4s %-5s %-24s %-24s %-8s %s\n", "id", "name", "type", "dim",
           "adr", "stage", "object", "reference", "cutoff", "noise");
    for (int i = 0; i < m->nsensor; i++) {
        obj_text(obj, sizeof obj, m, m->sensor_objtype[i], m->sensor_objid[i]);
        obj_text(ref, sizeof ref, m, m->sensor_reftype[i], m->sensor_refid[i]);
        printf("  %3d %-14s %-17s %4d %4d %-5s %-24s %-24s %-8g %g\n", i,
               cs_sensor_label(m, i, buf, sizeof buf), cs_sensor_type_name(m->sensor_type[i]),
               m->sensor_dim[i], m->sensor_adr[i], STAGE[m->sensor_needstage[i] & 3], obj, ref,
               m->sensor_cutoff[i], m->sensor_noise[i]);
    }
}

/* the actuators and sensors with a history buffer (MuJoCo 3.12's nsample, interp, delay,
 * interval) */
static void print_history(const cs_model *m)
{
    static const char *const INTERP[] = {"zoh", "linear", "cubic"};
    char buf[32];
    printf("\nhistory buffers (%d doubles of d->history: the last nsample values; a delay reads "
           "the value of delay seconds before)\n", m->nhistory);
    printf("  %-8s %3s %-14s %7s %-6s %-10s %s\n", "kind", "id", "name", "nsample", "interp",
           "delay", "interval (period phase)");
    for (int i = 0; i < m->nactuator; i++) {
        if (m->actuator_history[2 * i] <= 0) continue;
        printf("  %-8s %3d %-14s %7d %-6s %-10g -\n", "actuator", i,
               cs_actuator_label(m, i, buf, sizeof buf), m->actuator_history[2 * i],
               INTERP[m->actuator_history[2 * i + 1] % 3], m->actuator_delay[i]);
    }
    for (int i = 0; i < m->nsensor; i++) {
        if (m->sensor_history[2 * i] <= 0) continue;
        const double *iv = m->sensor_interval + 2 * i;
        char in[48] = "-";
        if (iv[0] > 0) snprintf(in, sizeof in, "%g %g", iv[0], iv[1]);
        printf("  %-8s %3d %-14s %7d %-6s %-10g %s\n", "sensor", i,
               cs_sensor_label(m, i, buf, sizeof buf), m->sensor_history[2 * i],
               INTERP[m->sensor_history[2 * i + 1] % 3], m->sensor_delay[i], in);
    }
}

static void print_model(const cs_model *m)
{
    const cs_option *o = &m->opt;
    char buf[32], buf2[32];
    printf("model '%s' (%s)\n", m->modelname, m->path);
    printf("  bodies %d, joints %d (nq %d, nv %d, trees %d), geoms %d, pairs %d, excludes %d, "
           "keys %d, actuators %d (activations %d)\n\n", m->nbody, m->njnt, m->nq, m->nv,
           m->ntree, m->ngeom, m->npair, m->nexclude, m->nkey, m->nactuator, m->na);
    printf("options\n");
    printf("  timestep %g  gravity (%g, %g, %g)\n", o->timestep, o->gravity[0], o->gravity[1],
           o->gravity[2]);
    static const char *const INTEG[] = {"Euler", "RK4", "implicit", "implicitfast"};
    printf("  integrator %s\n", INTEG[o->integrator & 3]);
    printf("  cone %s  solver %s  iterations %d  tolerance %g  ls_iterations %d  "
           "ls_tolerance %g  impratio %g\n",
           o->cone == CS_CONE_ELLIPTIC ? "elliptic" : "pyramidal",
           o->solver == CS_SOLVER_PGS ? "PGS" : o->solver == CS_SOLVER_NEWTON ? "Newton" : "CG",
           o->iterations, o->tolerance, o->ls_iterations, o->ls_tolerance, o->impratio);
    if (o->noslip_iterations > 0)
        printf("  noslip_iterations %d  noslip_tolerance %g\n", o->noslip_iterations,
               o->noslip_tolerance);
    if (o->viscosity > 0)
        printf("  viscosity %g  wind (%g, %g, %g)\n", o->viscosity, o->wind[0], o->wind[1],
               o->wind[2]);
    printf("  contact %s\n", o->contact == CS_CONTACT_COULOMB
                                ? "coulomb (hard Signorini normal, exact Coulomb friction; solver, "
                                  "impratio and solimp unused)"
                                : "soft (MuJoCo's soft convex model)");
    if (o->contact == CS_CONTACT_COULOMB)
        printf("  coulomb_solver %s\n",
               o->coulomb_solver == CS_COULOMB_SOLVER_NSGS
                   ? "nsgs (block Gauss-Seidel on every island)"
                   : o->coulomb_solver == CS_COULOMB_SOLVER_NEWTON
                         ? "newton (proximal Newton on every island; the pyramid: Gauss-Seidel)"
                         : "auto (proximal Newton on islands of more than two contacts, "
                           "Gauss-Seidel on the others and with the pyramid)");
    char sleep[64] = "off";
    if (o->enableflags & CS_ENBL_SLEEP)
        snprintf(sleep, sizeof sleep, "on (tolerance %g)", o->sleep_tolerance);
    printf("  flags: contact %s, gravity %s, constraint %s, warmstart %s, refsafe %s, "
           "filterparent %s, override %s, island %s, multiccd %s, energy %s, sleep %s\n\n",
           o->disableflags & CS_DSBL_CONTACT ? "off" : "on",
           o->disableflags & CS_DSBL_GRAVITY ? "off" : "on",
           o->disableflags & CS_DSBL_CONSTRAINT ? "off" : "on",
           o->disableflags & CS_DSBL_WARMSTART ? "off" : "on",
           o->disableflags & CS_DSBL_REFSAFE ? "off" : "on",
           o->disableflags & CS_DSBL_FILTERPARENT ? "off" : "on",
           o->enableflags & CS_ENBL_OVERRIDE ? "on" : "off",
           o->disableflags & CS_DSBL_ISLAND ? "off (one problem)" : "on",
           o->disableflags & CS_DSBL_MULTICCD ? "off" : "on",
           o->enableflags & CS_ENBL_ENERGY ? "on" : "off", sleep);

    printf("bodies\n");
    printf("  %3s %-16s %-6s %-6s %11s  %-32s %-36s %s\n", "id", "name", "parent", "joint",
           "mass", "COM (body frame)", "principal inertia", "invweight0");
    for (int b = 0; b < m->nbody; b++) {
        const double *c = m->body_ipos + 3 * b, *I = m->body_inertia + 3 * b;
        printf("  %3d %-16s %-6d %-6s %11.5g  (%9.4g, %9.4g, %9.4g)  (%10.4g, %10.4g, %10.4g)  "
               "(%.4g, %.4g)\n",
               b, cs_body_label(m, b, buf, sizeof buf), m->body_parent[b],
               body_kind(m, b), m->body_mass[b], c[0], c[1],
               c[2], I[0], I[1], I[2], m->body_invweight0[2 * b], m->body_invweight0[2 * b + 1]);
    }
    if (m->njnt) print_joints(m);
    printf("\ngeoms\n");
    printf("  %3s %-14s %-10s %-14s %-28s %-5s %-6s %-22s %-14s %-28s %-9s %s\n", "id", "name",
           "type", "body", "size", "cdim", "ct/ca", "friction", "solref", "solimp",
           "margin/gap", "prio/solmix mass");
    for (int g = 0; g < m->ngeom; g++) {
        const double *s = m->geom_size + 3 * g, *f = m->geom_friction + 3 * g;
        const double *sr = m->geom_solref + 2 * g, *si = m->geom_solimp + 5 * g;
        printf("  %3d %-14s %-10s %-14s (%7.4g, %7.4g, %7.4g) %-5d %d/%-4d (%g, %g, %g) (%g, %g) "
               "(%g, %g, %g, %g, %g) %g/%g %d/%g %.5g\n",
               g, cs_geom_label(m, g, buf, sizeof buf), GEOMTYPE[m->geom_type[g]],
               cs_body_label(m, m->geom_body[g], buf2, sizeof buf2), s[0], s[1], s[2],
               m->geom_condim[g], m->geom_contype[g], m->geom_conaffinity[g], f[0], f[1], f[2],
               sr[0], sr[1], si[0], si[1], si[2], si[3], si[4], m->geom_margin[g], m->geom_gap[g],
               m->geom_priority[g], m->geom_solmix[g], m->geom_mass[g]);
    }
    int adh = 0; /* adhesion, where there is any: a contact's is its two geoms' sum */
    for (int g = 0; g < m->ngeom; g++) {
        if (m->geom_adhesion[g] == 0) continue;
        printf(adh++ ? ", %s %g" : "  adhesion (N): %s %g", cs_geom_label(m, g, buf, sizeof buf),
               m->geom_adhesion[g]);
    }
    if (adh) printf("\n");
    if (m->nmesh) {
        printf("\nmeshes (frame: centre of mass and principal axes of the vertex data)\n");
        printf("  %3s %-14s %8s %8s %10s %10s %-12s %-30s %s\n", "id", "name", "vertices",
               "faces", "hull verts", "hull faces", "volume", "frame pos", "frame quat");
        for (int k = 0; k < m->nmesh; k++) {
            static const int nohull[2] = {0, 0}; /* a mesh only visual geoms use */
            const int *gr = m->mesh_graphadr[k] >= 0 ? m->mesh_graph + m->mesh_graphadr[k]
                                                     : nohull;
            const double *p = m->mesh_pos + 3 * k, *q = m->mesh_quat + 4 * k;
            printf("  %3d %-14s %8d %8d %10d %10d %-12.6g (%8.4g, %8.4g, %8.4g) (%.4g, %.4g, %.4g, %.4g)\n",
                   k, m->mesh_name[k], m->mesh_vertnum[k], m->mesh_facenum[k], gr[0], gr[1],
                   m->mesh_volume[k], p[0], p[1], p[2], q[0], q[1], q[2], q[3]);
        }
        printf("  mesh geoms: mass = density * volume (or the geom's mass); the body table "
               "shows the inertia\n");
    }
    if (m->nhfield) {
        printf("\nheight fields (grid over [-x, x] x [-y, y]; surface at elevation z x data in "
               "[0, 1], base at -base)\n");
        printf("  %3s %-14s %5s %5s %10s %10s %10s %10s %10s %10s\n", "id", "name", "rows", "cols",
               "x", "y", "elevation", "base", "data min", "data max");
        for (int k = 0; k < m->nhfield; k++) {
            const double *s = m->hfield_size + 4 * k, *z = m->hfield_data + m->hfield_adr[k];
            double lo = z[0], hi = z[0];
            for (int i = 1; i < m->hfield_nrow[k] * m->hfield_ncol[k]; i++) {
                lo = z[i] < lo ? z[i] : lo;
                hi = z[i] > hi ? z[i] : hi;
            }
            printf("  %3d %-14s %5d %5d %10.4g %10.4g %10.4g %10.4g %10.4g %10.4g\n", k,
                   m->hfield_name[k] ? m->hfield_name[k] : "-", m->hfield_nrow[k],
                   m->hfield_ncol[k], s[0], s[1], s[2], s[3], lo, hi);
        }
        printf("  hfield geoms: mass and inertia of the box of the geom's size (MuJoCo's rule)\n");
    }
    if (m->npair) {
        printf("\ncontact pairs\n");
        for (int p = 0; p < m->npair; p++) {
            const double *f = m->pair_friction + 5 * p;
            printf("  %3d %-12s %s - %s  condim %d  friction (%g, %g, %g, %g, %g)  solref (%g, %g)"
                   "  solreffriction (%g, %g)  solimp (%g, %g, %g, %g, %g)  margin %g gap %g\n",
                   p, m->pair_name[p] ? m->pair_name[p] : "-",
                   cs_geom_label(m, m->pair_geom1[p], buf, sizeof buf),
                   cs_geom_label(m, m->pair_geom2[p], buf2, sizeof buf2), m->pair_condim[p],
                   f[0], f[1], f[2], f[3], f[4], m->pair_solref[2 * p], m->pair_solref[2 * p + 1],
                   m->pair_solreffriction[2 * p], m->pair_solreffriction[2 * p + 1],
                   m->pair_solimp[5 * p], m->pair_solimp[5 * p + 1], m->pair_solimp[5 * p + 2],
                   m->pair_solimp[5 * p + 3], m->pair_solimp[5 * p + 4], m->pair_margin[p],
                   m->pair_gap[p]);
            if (m->pair_adhesion[p] != 0) printf("      adhesion %g\n", m->pair_adhesion[p]);
        }
    }
    if (m->nexclude) {
        printf("\nexcluded body pairs\n");
        for (int e = 0; e < m->nexclude; e++)
            printf("  %s - %s\n", cs_body_label(m, m->exclude_body1[e], buf, sizeof buf),
                   cs_body_label(m, m->exclude_body2[e], buf2, sizeof buf2));
    }
    if (m->ntendon) print_tendons(m);
    if (m->neq) print_equalities(m);
    if (m->nsensor) print_sensors(m);
    if (m->nactuator) print_actuators(m);
    if (m->nhistory) print_history(m);
    if (m->nkey) {
        printf("\nkeyframes\n");
        for (int k = 0; k < m->nkey; k++) {
            printf("  %d %s time %g", k, m->key_name[k] ? m->key_name[k] : "-", m->key_time[k]);
            if (m->nu) {
                printf("  ctrl");
                for (int i = 0; i < m->nu; i++) printf(" %g", m->key_ctrl[(size_t)k * m->nu + i]);
            }
            if (m->na) {
                printf("  act");
                for (int i = 0; i < m->na; i++) printf(" %g", m->key_act[(size_t)k * m->na + i]);
            }
            putchar('\n');
        }
    }
}

static int run_info(int argc, char **argv)
{
    if (argc != 2 || argv[1][0] == '-') {
        fprintf(stderr, "usage: conesim info SCENE\n");
        return CS_EXIT_USAGE;
    }
    char err[1024], *ign = NULL;
    size_t len = 0;
    FILE *warn = open_memstream(&ign, &len); /* the list of what was ignored */
    char path[4096];
    const char *file = cs_scene_path(argv[1], path, sizeof path);
    cs_model *m = cs_load_xml(file, warn, err, sizeof err);
    int e = errno;
    if (!m && file == argv[1]) cs_scene_missing(argv[1], err, sizeof err);
    if (warn) fclose(warn);
    errno = e;
    if (!m) {
        free(ign);
        return cs_load_exit(err);
    }
    print_model(m);
    /* "conesim: FILE: ignored (...): a, b, c" -> one line per item */
    const char *items = ign ? strstr(ign, "): ") : NULL;
    printf("\nignored (elements and attributes without effect on the physics)\n");
    if (!items) printf("  none\n");
    else
        for (const char *p = items + 3; *p && *p != '\n';) {
            size_t n = strcspn(p, ",\n");
            printf("  %.*s\n", (int)n, p);
            p += n;
            while (*p == ',' || *p == ' ') p++;
        }
    free(ign);
    cs_free_model(m);
    return CS_EXIT_OK;
}

const cs_command cs_cmd_info = {
    "info", "info SCENE: model summary",
    "usage: conesim info SCENE\n\n"
    "Prints the compiled model: options, bodies (mass, COM in the body frame, principal\n"
    "inertia, invweight0), geoms with their contact parameters, explicit pairs, excludes,\n"
    "tendons, equality constraints, actuators, history buffers (delays), keyframes, and what the loader ignored (elements and attributes without\n"
    "effect on the physics: sensors, cameras, lights, materials, ...). A bad scene prints FILE:LINE: what is wrong and exits 3; out of memory\n"
    "exits 6.\n",
    run_info,
};
