/* conesim cone: the chapter's teaching calculator over solver/cone (docs/contact-math.md §2-§7). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "args.h"
#include "commands.h"
#include "cone.h"

#define BOUNDARY_TOL 1e-9
static const double DEG = 57.295779513082320876798154814105; /* 180/pi */

static const char cone_help[] =
    "usage: conesim cone VERB [options] [--json]: the friction-cone calculator\n"
    "\n"
    "Lists are comma-separated, matrices row-major. r = number of friction components\n"
    "(condim - 1, in condim order t1, t2, spin, roll1, roll2; up to 5). --mu takes r\n"
    "scales, or one scale used for all r (isotropic). Scales and f_n must be >= 0.\n"
    "\n"
    "verbs:\n"
    "  check   --fn F --mu M1[,M2..] --f PHI1[,PHI2..]\n"
    "          inside / boundary / outside of the cone f_n >= 0, ||D^-1 phi|| <= f_n\n"
    "          (D = diag(mu)); boundary when the normalised radius ||D^-1 phi||/f_n is within\n"
    "          1e-9 of 1. Without --f and --mu: condim 1 (the normal alone).\n"
    "  slide   --fn F --mu M1[,M2..] --v V1[,V2..]\n"
    "          maximum-dissipation friction f = -f_n D^2 v/||D v|| and its power -f_n ||D v||\n"
    "  pyramid --fn F --mu M1[,M2..] --f PHI1[,PHI2..]\n"
    "          pyramidal edge coefficients (alpha_1+, alpha_1-, alpha_2+, ...) of the\n"
    "          full-domain encoding and of MuJoCo's mju_encodePyramid, each decoded back\n"
    "  qcqp    --H H11,H12,.. --b B1,.. --mu M1,.. --fn F\n"
    "          fixed-normal QCQP: minimise 1/2 x^T H x + b^T x s.t. ||D^-1 x|| <= f_n\n"
    "          (H n x n symmetric positive definite, n = number of --b values, 1..5)\n"
    "  soft    --j JN,JT1,.. --Rn R [--mu M1,..] [--impratio ETA | --kappa K]\n"
    "          soft-cone zone (top/bottom/middle), force, cost and cost Hessian of the\n"
    "          residual j (r+1 values); mu are the physical friction scales, R_n > 0;\n"
    "          kappa = R_n mu_1^2/ETA (ETA > 0, default 1; mu_1 = first positive scale)\n"
    "          unless --kappa K > 0 is given. Zero scales are fixed at 0 and left out.\n"
    "\n"
    "--json prints one JSON object with every number computed; a quantity that is\n"
    "undefined is null (never inf or NaN). Keys (inputs are echoed under their names:\n"
    "fn, mu, f, v, H, b, j, Rn, impratio):\n"
    "  all:     verb, r (qcqp: n)\n"
    "  check:   where (\"inside\"|\"boundary\"|\"outside\"), radius (null at f_n = 0 or when\n"
    "           a zero scale carries force), scaled_norm ||D^-1 phi|| over positive scales,\n"
    "           signed_dist = scaled_norm - f_n (null when a zero scale carries force),\n"
    "           zero_mu_violated, tolerance, semi_axes [mu_j f_n],\n"
    "           capacity (largest |phi| along phi's direction; null for phi = 0)\n"
    "  slide:   defined (false when D v = 0: no unique force), f (null if not defined),\n"
    "           power, dv_norm ||D v||, radius ||D^-1 f||/f_n (null if undefined),\n"
    "           f_angle_deg, minus_v_angle_deg (atan2 in the t1,t2 plane; null if r < 2\n"
    "           or the vector is 0)\n"
    "  pyramid: in_pyramid, slack = f_n - sum |phi_j|/mu_j (null when a zero scale carries\n"
    "           force), full {alpha, representable, fn, f}, mujoco {alpha, fn, f, exact,\n"
    "           nonnegative}; fn and f there are the decoded values, exact = decode matches\n"
    "           the input to 1e-12\n"
    "  qcqp:    x, lambda, active, iterations, feasibility, stationarity,\n"
    "           stationarity_rel (over ||H|| ||x|| + ||b|| + lambda ||D^-2 x||),\n"
    "           complementarity, objective, scaled_norm ||D^-1 x||,\n"
    "           radius (null at f_n = 0), unconstrained {x, scaled_norm, radius, objective};\n"
    "           at f_n = 0 (the apex) x = 0, lambda = 0 and stationarity is ||b|| over the\n"
    "           free components: no finite multiplier need exist there\n"
    "  soft:    impratio (with --kappa: the one it amounts to), kappa, mu_bar =\n"
    "           sqrt(kappa/R_n), R [R_n, R_1..] (null for zero scales; impratio, kappa,\n"
    "           mu_bar null without a positive scale), u = mu_j j_tj, T = ||u||,\n"
    "           zone, f, cost, hessian (r+1 rows), top_border_jn = T,\n"
    "           bottom_border_jn = -R_n T/kappa\n"
    "\n"
    "Bad arguments (wrong counts, non-numbers, negative f_n or scales, an H that is not\n"
    "symmetric positive definite, unknown verbs or options): a message on stderr, exit 2.\n"
    "\n"
    "examples:\n"
    "  conesim cone check --fn 20 --mu 0.8,0.4 --f 9.6,6.4\n"
    "  conesim cone slide --fn 20 --mu 0.8,0.4 --v 1,1 --json\n"
    "  conesim cone qcqp --H 1,0,0,4 --b -2,-2 --mu 1,0.5 --fn 1\n"
    "  conesim cone soft --j 0,1,0 --Rn 1 --mu 1,1 --kappa 1\n";

/* ------------------------------------------------------------------ options */

enum { O_FN, O_MU, O_F, O_V, O_H, O_B, O_J, O_RN, O_ETA, O_KAPPA, O_COUNT };
static const char *const opt_name[O_COUNT] = {"fn", "mu", "f", "v", "H", "b",
                                              "j", "Rn", "impratio", "kappa"};
static const int opt_max[O_COUNT] = {1, CS_MAXFRIC, CS_MAXFRIC, CS_MAXFRIC,
                                     CS_MAXFRIC * CS_MAXFRIC, CS_MAXFRIC, CS_MAXDIM, 1, 1, 1};
static const int opt_list[O_COUNT] = {0, 1, 1, 1, 1, 1, 1, 0, 0, 0};

typedef struct {
    const char *verb;
    int given[O_COUNT];
    int count[O_COUNT];
    double val[O_COUNT][CS_MAXFRIC * CS_MAXFRIC];
    int json;
} args;

static int usage_error(const args *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int usage_error(const args *a, const char *fmt, ...)
{
    fprintf(stderr, "conesim cone%s%s: ", a->verb ? " " : "", a->verb ? a->verb : "");
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, " (see 'conesim help cone')\n");
    return CS_EXIT_USAGE;
}

/* allowed: bit mask of O_* for this verb */
static int parse(args *a, int argc, char **argv, unsigned allowed)
{
    for (int i = 2; i < argc; i++) {
        const char *s = argv[i];
        if (strcmp(s, "--json") == 0) {
            a->json = 1;
            continue;
        }
        if (strncmp(s, "--", 2) != 0)
            return usage_error(a, "unexpected argument '%s'", s);
        const char *name = s + 2, *eq = strchr(name, '=');
        size_t nlen = eq ? (size_t)(eq - name) : strlen(name);
        int o = -1;
        for (int k = 0; k < O_COUNT; k++)
            if (strlen(opt_name[k]) == nlen && strncmp(opt_name[k], name, nlen) == 0) o = k;
        if (o < 0 || !(allowed & (1u << o)))
            return usage_error(a, "unknown option '%s'", s);
        const char *value = eq ? eq + 1 : (i + 1 < argc ? argv[++i] : NULL);
        if (!value) return usage_error(a, "--%s needs a value", opt_name[o]);
        if (a->given[o]) return usage_error(a, "--%s given twice", opt_name[o]);
        a->given[o] = 1;
        int rc, bad = 0;
        if (opt_list[o]) {
            rc = cs_arg_list(value, a->val[o], opt_max[o], &a->count[o], &bad);
        } else {
            rc = cs_arg_number(value, a->val[o]);
            a->count[o] = 1;
        }
        if (rc != CS_ARG_OK) {
            char what[160];
            if (rc == CS_ARG_MANY)
                snprintf(what, sizeof what, "--%s takes at most %d values", opt_name[o], opt_max[o]);
            else if (opt_list[o])
                snprintf(what, sizeof what, "--%s: item %d of '%s' %s", opt_name[o], bad, value,
                         cs_arg_error(rc));
            else
                snprintf(what, sizeof what, "--%s: '%s' %s", opt_name[o], value, cs_arg_error(rc));
            return usage_error(a, "%s", what);
        }
    }
    return 0;
}

static int need(const args *a, int o)
{
    if (a->given[o]) return 0;
    return usage_error(a, "--%s is required", opt_name[o]);
}

static int nonneg(const args *a, int o, const char *what)
{
    for (int k = 0; k < a->count[o]; k++)
        if (a->val[o][k] < 0) return usage_error(a, "%s must be >= 0", what);
    return 0;
}

/* mu with r entries, or one broadcast to all r */
static int get_mu(const args *a, int r, double *mu, const char *against)
{
    int c = a->given[O_MU] ? a->count[O_MU] : 0;
    if (r == 0 && c == 0) return 0;
    if (c == 0) return usage_error(a, "--mu is required");
    if (c != r && !(c == 1 && r >= 1)) {
        char what[160];
        snprintf(what, sizeof what, "--mu has %d value(s) but %s has %d friction component(s)", c,
                 against, r);
        return usage_error(a, "%s", what);
    }
    if (nonneg(a, O_MU, "friction scales (--mu)")) return CS_EXIT_USAGE;
    for (int k = 0; k < r; k++) mu[k] = a->val[O_MU][c == 1 ? 0 : k];
    return 0;
}

/* ------------------------------------------------------------------- output */

static void jnum(double v)
{
    if (isfinite(v))
        printf("%.17g", v + 0.0); /* + 0.0: no "-0" */
    else
        printf("null");
}
static void jkey(const char *k, int *first)
{
    printf("%s\"%s\": ", *first ? "" : ", ", k);
    *first = 0;
}
static void jarr(const double *v, int n)
{
    printf("[");
    for (int i = 0; i < n; i++) {
        if (i) printf(", ");
        jnum(v[i]);
    }
    printf("]");
}
static void kn(const char *k, double v, int *first) { jkey(k, first), jnum(v); }
static void kn_or_null(const char *k, int defined, double v, int *first)
{
    jkey(k, first);
    if (defined)
        jnum(v);
    else
        printf("null");
}
static void ka(const char *k, const double *v, int n, int *first) { jkey(k, first), jarr(v, n); }
static void kb(const char *k, int b, int *first) { jkey(k, first), printf(b ? "true" : "false"); }
static void ks(const char *k, const char *s, int *first) { jkey(k, first), printf("\"%s\"", s); }
static void kint(const char *k, int v, int *first) { jkey(k, first), printf("%d", v); }

static void tlist(const double *v, int n)
{
    printf("(");
    for (int i = 0; i < n; i++) printf("%s%.10g", i ? ", " : "", v[i] + 0.0);
    printf(")");
}

/* -------------------------------------------------------------------- verbs */

static int fn_arg(const args *a, double *fn)
{
    if (need(a, O_FN)) return CS_EXIT_USAGE;
    *fn = a->val[O_FN][0];
    if (*fn < 0) return usage_error(a, "the normal force --fn must be >= 0");
    return 0;
}

static int verb_check(const args *a)
{
    double fn, mu[CS_MAXFRIC], *phi = (double *)a->val[O_F];
    if (fn_arg(a, &fn)) return CS_EXIT_USAGE;
    int r = a->given[O_F] ? a->count[O_F] : 0;
    if (get_mu(a, r, mu, "--f")) return CS_EXIT_USAGE;
    cs_cone_check c;
    cs_cone_classify(r, mu, fn, phi, BOUNDARY_TOL, &c);
    double axes[CS_MAXFRIC];
    for (int k = 0; k < r; k++) axes[k] = mu[k] * fn;
    double cap = r > 0 ? cs_cone_capacity_dir(r, mu, fn, phi) : -1;
    if (a->json) {
        int first = 1;
        printf("{");
        ks("verb", "check", &first);
        kint("r", r, &first);
        kn("fn", fn, &first);
        ka("mu", mu, r, &first);
        ka("f", phi, r, &first);
        ks("where", cs_cone_where_name(c.where), &first);
        kn_or_null("radius", c.radius_defined, c.radius, &first);
        kn("scaled_norm", c.scaled_norm, &first);
        kn_or_null("signed_dist", !c.zero_mu_violated, c.signed_dist, &first);
        kb("zero_mu_violated", c.zero_mu_violated, &first);
        kn("tolerance", BOUNDARY_TOL, &first);
        ka("semi_axes", axes, r, &first);
        kn_or_null("capacity", cap >= 0, cap, &first);
        printf("}\n");
        return CS_EXIT_OK;
    }
    printf("%s\n", cs_cone_where_name(c.where));
    if (c.radius_defined)
        printf("normalised radius ||D^-1 phi||/fn = %.10g\n", c.radius);
    else
        printf("normalised radius: undefined (%s)\n",
               c.zero_mu_violated ? "force along a zero friction scale" : "fn = 0");
    printf("scaled norm ||D^-1 phi|| = %.10g, fn = %.10g", c.scaled_norm, fn);
    if (!c.zero_mu_violated) printf(", signed distance = %.10g", c.signed_dist);
    printf("\n");
    if (r > 0) {
        printf("semi-axes mu_j fn = ");
        tlist(axes, r);
        printf("\n");
    }
    if (cap >= 0) printf("capacity along phi's direction = %.10g\n", cap);
    return CS_EXIT_OK;
}

static int verb_slide(const args *a)
{
    double fn, mu[CS_MAXFRIC], f[CS_MAXFRIC], p;
    const double *v = a->val[O_V];
    if (fn_arg(a, &fn) || need(a, O_V)) return CS_EXIT_USAGE;
    int r = a->count[O_V];
    if (get_mu(a, r, mu, "--v")) return CS_EXIT_USAGE;
    int ok = cs_cone_slide(r, mu, fn, v, f, &p);
    double dv = 0;
    for (int k = 0; k < r; k++) dv += mu[k] * v[k] * mu[k] * v[k];
    dv = sqrt(dv);
    cs_cone_check c;
    cs_cone_classify(r, mu, fn, f, BOUNDARY_TOL, &c);
    int fang = ok && r >= 2 && (f[0] != 0 || f[1] != 0);
    int vang = r >= 2 && (v[0] != 0 || v[1] != 0);
    double fa = fang ? atan2(f[1], f[0]) * DEG : 0;
    double va = vang ? atan2(-v[1], -v[0]) * DEG : 0;
    if (a->json) {
        int first = 1;
        printf("{");
        ks("verb", "slide", &first);
        kint("r", r, &first);
        kn("fn", fn, &first);
        ka("mu", mu, r, &first);
        ka("v", v, r, &first);
        kb("defined", ok, &first);
        jkey("f", &first);
        if (ok)
            jarr(f, r);
        else
            printf("null");
        kn("power", p, &first);
        kn("dv_norm", dv, &first);
        kn_or_null("radius", ok && c.radius_defined, c.radius, &first);
        kn_or_null("f_angle_deg", fang, fa, &first);
        kn_or_null("minus_v_angle_deg", vang, va, &first);
        printf("}\n");
        return CS_EXIT_OK;
    }
    if (!ok) {
        printf("D v = 0: no sliding against the friction scales; the maximum-dissipation "
               "force is not unique (power 0)\n");
        return CS_EXIT_OK;
    }
    printf("friction force f = ");
    tlist(f, r);
    printf("\npower f.v = %.10g (||D v|| = %.10g)\n", p, dv);
    if (c.radius_defined) printf("normalised radius ||D^-1 f||/fn = %.10g\n", c.radius);
    if (fang && vang) printf("f points at %.4f deg, -v at %.4f deg\n", fa, va);
    return CS_EXIT_OK;
}

static int decoded_equal(int r, double fn, const double *phi, double fn2, const double *phi2)
{
    if (fabs(fn2 - fn) > 1e-12 * (1 + fabs(fn))) return 0;
    for (int k = 0; k < r; k++)
        if (fabs(phi2[k] - phi[k]) > 1e-12 * (1 + fabs(phi[k]))) return 0;
    return 1;
}

static int verb_pyramid(const args *a)
{
    double fn, mu[CS_MAXFRIC];
    const double *phi = a->val[O_F];
    if (fn_arg(a, &fn) || need(a, O_F)) return CS_EXIT_USAGE;
    int r = a->count[O_F];
    if (get_mu(a, r, mu, "--f")) return CS_EXIT_USAGE;
    double af[2 * CS_MAXFRIC], am[2 * CS_MAXFRIC], fnf, fnm, pf[CS_MAXFRIC], pm[CS_MAXFRIC];
    int rep = cs_pyramid_encode_full(r, mu, fn, phi, af);
    cs_pyramid_decode(r, mu, af, &fnf, pf);
    cs_pyramid_encode_mujoco(r, mu, fn, phi, am);
    cs_pyramid_decode(r, mu, am, &fnm, pm);
    double used = 0;
    int zero_viol = 0, nonneg_m = 1;
    for (int k = 0; k < r; k++) {
        if (mu[k] > 0)
            used += fabs(phi[k]) / mu[k];
        else if (phi[k] != 0)
            zero_viol = 1;
    }
    for (int k = 0; k < 2 * r; k++) nonneg_m &= am[k] >= 0;
    int exact = decoded_equal(r, fn, phi, fnm, pm);
    if (a->json) {
        int first = 1;
        printf("{");
        ks("verb", "pyramid", &first);
        kint("r", r, &first);
        kn("fn", fn, &first);
        ka("mu", mu, r, &first);
        ka("f", phi, r, &first);
        kb("in_pyramid", rep, &first);
        kn_or_null("slack", !zero_viol, fn - used, &first);
        jkey("full", &first);
        int f2 = 1;
        printf("{");
        ka("alpha", af, 2 * r, &f2);
        kb("representable", rep, &f2);
        kn("fn", fnf, &f2);
        ka("f", pf, r, &f2);
        printf("}");
        jkey("mujoco", &first);
        f2 = 1;
        printf("{");
        ka("alpha", am, 2 * r, &f2);
        kn("fn", fnm, &f2);
        ka("f", pm, r, &f2);
        kb("exact", exact, &f2);
        kb("nonnegative", nonneg_m, &f2);
        printf("}}\n");
        return CS_EXIT_OK;
    }
    printf("%s the pyramid sum |phi_j|/mu_j <= fn", rep ? "inside" : "outside");
    if (!zero_viol) printf(" (slack %.10g)", fn - used);
    printf("\nfull-domain encoding:  alpha = ");
    tlist(af, 2 * r);
    printf("%s\n  decodes to fn = %.10g, f = ", rep ? "" : "  (not representable)", fnf);
    tlist(pf, r);
    printf("\nMuJoCo encoding:       alpha = ");
    tlist(am, 2 * r);
    printf("%s\n  decodes to fn = %.10g, f = ", nonneg_m ? "" : "  (negative edge coefficient)", fnm);
    tlist(pm, r);
    printf("%s\n", exact ? "" : "  (not the input: clipped)");
    return CS_EXIT_OK;
}

static double objective(int n, const double *H, const double *b, const double *x)
{
    double s = 0;
    for (int i = 0; i < n; i++) {
        s += b[i] * x[i];
        for (int k = 0; k < n; k++) s += 0.5 * x[i] * H[i * n + k] * x[k];
    }
    return s;
}

static int verb_qcqp(const args *a)
{
    double fn, mu[CS_MAXFRIC], x[CS_MAXFRIC];
    const double *H = a->val[O_H], *b = a->val[O_B];
    if (need(a, O_H) || need(a, O_B) || fn_arg(a, &fn)) return CS_EXIT_USAGE;
    int n = a->count[O_B];
    if (a->count[O_H] != n * n) {
        char what[160];
        snprintf(what, sizeof what, "--H has %d values but --b has %d, so H needs %d (row-major)",
                 a->count[O_H], n, n * n);
        return usage_error(a, "%s", what);
    }
    if (get_mu(a, n, mu, "--b")) return CS_EXIT_USAGE;
    double hmax = 0;
    for (int i = 0; i < n * n; i++) hmax = fmax(hmax, fabs(H[i]));
    for (int i = 0; i < n; i++)
        for (int k = 0; k < i; k++)
            if (fabs(H[i * n + k] - H[k * n + i]) > 1e-12 * hmax)
                return usage_error(a, "H is not symmetric");
    cs_qcqp_info in;
    int rc = cs_qcqp_solve(n, H, b, mu, fn, x, &in);
    if (rc == -1) return usage_error(a, "H is not positive definite");
    if (rc != 0) return usage_error(a, "invalid QCQP arguments");
    double sn = 0;
    for (int k = 0; k < n; k++)
        if (mu[k] > 0) sn += (x[k] / mu[k]) * (x[k] / mu[k]);
    sn = sqrt(sn);
    double obj = objective(n, H, b, x), uobj = objective(n, H, b, in.x_unc);
    if (a->json) {
        int first = 1;
        printf("{");
        ks("verb", "qcqp", &first);
        kint("n", n, &first);
        ka("H", H, n * n, &first);
        ka("b", b, n, &first);
        ka("mu", mu, n, &first);
        kn("fn", fn, &first);
        ka("x", x, n, &first);
        kn("lambda", in.lambda, &first);
        kb("active", in.active, &first);
        kint("iterations", in.iterations, &first);
        kn("feasibility", in.feasibility, &first);
        kn("stationarity", in.stationarity, &first);
        kn("stationarity_rel", in.stationarity_rel, &first);
        kn("complementarity", in.complementarity, &first);
        kn("objective", obj, &first);
        kn("scaled_norm", sn, &first);
        kn_or_null("radius", fn > 0, fn > 0 ? sn / fn : 0, &first);
        jkey("unconstrained", &first);
        int f2 = 1;
        printf("{");
        ka("x", in.x_unc, n, &f2);
        kn("scaled_norm", in.unconstrained_norm, &f2);
        kn_or_null("radius", fn > 0, fn > 0 ? in.unconstrained_norm / fn : 0, &f2);
        kn("objective", uobj, &f2);
        printf("}}\n");
        return CS_EXIT_OK;
    }
    printf("x = ");
    tlist(x, n);
    printf("\nlambda = %.10g, bound %s, %d Newton iteration%s\n", in.lambda,
           in.active ? "active" : "inactive", in.iterations, in.iterations == 1 ? "" : "s");
    printf("objective = %.10g (unconstrained minimiser ", obj);
    tlist(in.x_unc, n);
    printf(", ||D^-1 x|| = %.10g, objective %.10g)\n", in.unconstrained_norm, uobj);
    printf("residuals: feasibility %.3g, stationarity %.3g (relative %.3g), "
           "complementarity %.3g\n",
           in.feasibility, in.stationarity, in.stationarity_rel, in.complementarity);
    if (fn == 0) printf("fn = 0: the apex, x = 0 (no finite multiplier need exist)\n");
    return CS_EXIT_OK;
}

static int verb_soft(const args *a)
{
    double mu[CS_MAXFRIC];
    const double *j = a->val[O_J];
    if (need(a, O_J) || need(a, O_RN)) return CS_EXIT_USAGE;
    int r = a->count[O_J] - 1;
    if (get_mu(a, r, mu, "--j")) return CS_EXIT_USAGE;
    double Rn = a->val[O_RN][0];
    if (!(Rn > 0)) return usage_error(a, "--Rn must be > 0");
    if (a->given[O_ETA] && a->given[O_KAPPA])
        return usage_error(a, "give --impratio or --kappa, not both");
    double eta = a->given[O_ETA] ? a->val[O_ETA][0] : 1, kappa, mubar, R[CS_MAXDIM];
    if (!(eta > 0)) return usage_error(a, "--impratio must be > 0");
    int has = cs_soft_regularizer(r, Rn, mu, eta, R, &kappa, &mubar);
    if (a->given[O_KAPPA]) {
        kappa = a->val[O_KAPPA][0];
        if (!(kappa > 0)) return usage_error(a, "--kappa must be > 0");
        mubar = sqrt(kappa / Rn);
        for (int k = 0; k < r; k++) R[k + 1] = mu[k] > 0 ? kappa / (mu[k] * mu[k]) : 0;
        for (int k = 0; k < r && has; k++)
            if (mu[k] > 0) {
                eta = Rn * mu[k] * mu[k] / kappa; /* the impratio this kappa amounts to */
                break;
            }
    }
    double f[CS_MAXDIM], cost, hess[CS_MAXDIM * CS_MAXDIM], u[CS_MAXFRIC], T = 0;
    for (int k = 0; k < r; k++) {
        u[k] = mu[k] > 0 ? mu[k] * j[k + 1] : 0;
        T += u[k] * u[k];
    }
    T = sqrt(T);
    /* without a positive scale kappa is unused (T = 0): any positive value will do */
    cs_zone z = cs_soft_cone(r, j, Rn, mu, has || a->given[O_KAPPA] ? kappa : 1, f, &cost, hess);
    int kdef = has || a->given[O_KAPPA];
    double bottom = T > 0 ? -Rn * T / kappa : 0;
    if (a->json) {
        int first = 1;
        printf("{");
        ks("verb", "soft", &first);
        kint("r", r, &first);
        ka("j", j, r + 1, &first);
        kn("Rn", Rn, &first);
        ka("mu", mu, r, &first);
        kn_or_null("impratio", has, eta, &first);
        kn_or_null("kappa", kdef, kappa, &first);
        kn_or_null("mu_bar", kdef, mubar, &first);
        jkey("R", &first);
        printf("[");
        jnum(Rn);
        for (int k = 0; k < r; k++) {
            printf(", ");
            if (mu[k] > 0 && kdef)
                jnum(R[k + 1]);
            else
                printf("null");
        }
        printf("]");
        ka("u", u, r, &first);
        kn("T", T, &first);
        ks("zone", cs_zone_name(z), &first);
        ka("f", f, r + 1, &first);
        kn("cost", cost, &first);
        jkey("hessian", &first);
        printf("[");
        for (int i = 0; i <= r; i++) {
            if (i) printf(", ");
            jarr(hess + i * (r + 1), r + 1);
        }
        printf("]");
        kn("top_border_jn", T, &first);
        kn("bottom_border_jn", bottom, &first);
        printf("}\n");
        return CS_EXIT_OK;
    }
    printf("zone %s\n", cs_zone_name(z));
    printf("force f = ");
    tlist(f, r + 1);
    printf("\ncost = %.10g\n", cost);
    if (kdef) printf("kappa = %.10g, mu_bar = %.10g\n", kappa, mubar);
    printf("T = ||u|| = %.10g; borders: top j_n >= %.10g, bottom j_n <= %.10g\n", T, T, bottom);
    printf("Hessian of the cost:\n");
    for (int i = 0; i <= r; i++) {
        printf("  ");
        for (int k = 0; k <= r; k++) printf("%s%14.10g", k ? " " : "", hess[i * (r + 1) + k] + 0.0);
        printf("\n");
    }
    return CS_EXIT_OK;
}

typedef struct {
    const char *name;
    unsigned opts;
    int (*run)(const args *a);
} verb;

#define B(o) (1u << (o))
static const verb verbs[] = {
    {"check", B(O_FN) | B(O_MU) | B(O_F), verb_check},
    {"slide", B(O_FN) | B(O_MU) | B(O_V), verb_slide},
    {"pyramid", B(O_FN) | B(O_MU) | B(O_F), verb_pyramid},
    {"qcqp", B(O_H) | B(O_B) | B(O_MU) | B(O_FN), verb_qcqp},
    {"soft", B(O_J) | B(O_RN) | B(O_MU) | B(O_ETA) | B(O_KAPPA), verb_soft},
};

static int run_cone(int argc, char **argv)
{
    args a;
    memset(&a, 0, sizeof a);
    if (argc < 2) {
        fputs(cone_help, stderr);
        return CS_EXIT_USAGE;
    }
    const char *v = argv[1];
    if (strcmp(v, "help") == 0 || strcmp(v, "--help") == 0 || strcmp(v, "-h") == 0) {
        fputs(cone_help, stdout);
        return CS_EXIT_OK;
    }
    for (int i = 2; i < argc; i++)
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            fputs(cone_help, stdout);
            return CS_EXIT_OK;
        }
    for (size_t k = 0; k < sizeof verbs / sizeof verbs[0]; k++) {
        if (strcmp(v, verbs[k].name) != 0) continue;
        a.verb = verbs[k].name;
        if (parse(&a, argc, argv, verbs[k].opts)) return CS_EXIT_USAGE;
        return verbs[k].run(&a);
    }
    return usage_error(&a, "unknown verb '%s' (check, slide, pyramid, qcqp, soft)", v);
}

const cs_command cs_cmd_cone = {
    "cone",
    "cone VERB [options]: the friction-cone calculator (check, slide, pyramid, qcqp, soft)",
    cone_help,
    run_cone,
};
