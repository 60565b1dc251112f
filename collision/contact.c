/* Contact frames and MuJoCo's parameter mixing. */
#include <math.h>

#include "internal.h"
#include "minval.h"

/* MuJoCo's mju_makeFrame: the normal and the tangent scaled by their inverse norms (its
 * arithmetic, not division), a tangent hint of norm >= 0.5 made orthogonal, else world y
 * (world z when the normal is near y). Degenerate hints along the normal fall back to
 * world x, then to the default rule, so the frame stays orthonormal. */
static inline void scale3(double v[3], double len)
{
    double inv = 1 / len;
    v[0] *= inv;
    v[1] *= inv;
    v[2] *= inv;
}

static inline double orthogonal(double t[3], const double f[3])
{
    double tn = cs_dot3(f, t);
    for (int i = 0; i < 3; i++)
        t[i] -= f[i] * tn;
    return sqrt(cs_dot3(t, t));
}

void cs_make_frame(double f[9])
{
    double len = sqrt(cs_dot3(f, f));
    if (len > 0)
        scale3(f, len);
    else {
        f[0] = 1;
        f[1] = f[2] = 0;
    }
    double t[3] = {f[3], f[4], f[5]};
    int hinted = cs_dot3(t, t) >= 0.25;
    double tl = hinted ? orthogonal(t, f) : 0;
    if (hinted && tl < 1e-10) {
        /* a hint along the normal (a capsule standing on a plane): MuJoCo's normalize of the
         * zero vector yields world x */
        t[0] = 1;
        t[1] = t[2] = 0;
        tl = orthogonal(t, f);
    }
    if (tl < 1e-10) {
        t[0] = 0;
        t[1] = (f[1] < 0.5 && f[1] > -0.5) ? 1 : 0;
        t[2] = 1 - t[1];
        tl = orthogonal(t, f);
    }
    scale3(t, tl);
    f[3] = t[0];
    f[4] = t[1];
    f[5] = t[2];
    cs_cross3(f + 6, f, f + 3);
}

void cs_mix_params(const cs_collision_geom *g1, const cs_collision_geom *g2, cs_geom_contact *c)
{
    double fr[3];
    c->adhesion = g1->adhesion + g2->adhesion; /* each surface pulls with its own */
    if (g1->priority != g2->priority) {
        const cs_collision_geom *g = g1->priority > g2->priority ? g1 : g2;
        c->dim = g->condim;
        c->adhesion = g->adhesion;
        for (int i = 0; i < 2; i++)
            c->solref[i] = g->solref[i];
        for (int i = 0; i < 5; i++)
            c->solimp[i] = g->solimp[i];
        for (int i = 0; i < 3; i++)
            fr[i] = g->friction[i];
    } else {
        c->dim = g1->condim > g2->condim ? g1->condim : g2->condim;
        double s1 = g1->solmix, s2 = g2->solmix, mix;
        if (s1 >= CS_MINVAL && s2 >= CS_MINVAL)
            mix = s1 / (s1 + s2);
        else if (s1 < CS_MINVAL && s2 < CS_MINVAL)
            mix = 0.5;
        else
            mix = s1 < CS_MINVAL ? 0.0 : 1.0;
        if (g1->solref[0] > 0 && g2->solref[0] > 0)
            for (int i = 0; i < 2; i++)
                c->solref[i] = mix * g1->solref[i] + (1 - mix) * g2->solref[i];
        else /* direct (negative) references: the smaller, per component */
            for (int i = 0; i < 2; i++)
                c->solref[i] = fmin(g1->solref[i], g2->solref[i]);
        for (int i = 0; i < 5; i++)
            c->solimp[i] = mix * g1->solimp[i] + (1 - mix) * g2->solimp[i];
        for (int i = 0; i < 3; i++)
            fr[i] = cs_fmax(g1->friction[i], g2->friction[i]);
    }
    c->friction[0] = c->friction[1] = cs_fmax(fr[0], CS_MINMU);
    c->friction[2] = cs_fmax(fr[1], CS_MINMU);
    c->friction[3] = c->friction[4] = cs_fmax(fr[2], CS_MINMU);
    c->solreffriction[0] = c->solreffriction[1] = 0;
}

void cs_contact_flip(cs_geom_contact *c)
{
    int g = c->geom1;
    c->geom1 = c->geom2;
    c->geom2 = g;
    for (int i = 0; i < 3; i++) {
        c->frame[i] = -c->frame[i];
        c->frame[6 + i] = -c->frame[6 + i];
    }
}
