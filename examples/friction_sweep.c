/* Sweep the friction coefficient of a box on a slope and say whether it sticks or slides.
 *
 *   cc friction_sweep.c $(pkg-config --cflags --libs conesim) -lm -o friction_sweep
 *   ./friction_sweep
 *
 * The slope is tilted to tan(gamma) = 0.45: Coulomb says the box slides for mu < 0.45 and
 * sticks above. Each coefficient is a scene of its own, loaded from a string. */
#include <conesim/conesim.h>

#include <math.h>
#include <stdio.h>

/* the slope of scenes/incline_stick.xml: tilted to tan(gamma) = 0.45, a 1 kg box on it;
 * %g is the friction coefficient of both geoms */
static const char scene[] =
    "<mujoco model='incline'>"
    " <option timestep='0.002' cone='elliptic' impratio='10'/>"
    " <worldbody>"
    "  <geom name='slope' type='plane' size='2 2 0.1' euler='24.22774531795417 0 0'"
    "        friction='%g 0.005 0.0001'/>"
    "  <body name='box' pos='0 -0.041446832410208592 0.092104072022685751'"
    "        euler='24.22774531795417 0 0'>"
    "   <freejoint/>"
    "   <geom type='box' size='0.1 0.1 0.1' mass='1' condim='3' friction='%g 0.005 0.0001'/>"
    "  </body>"
    " </worldbody>"
    "</mujoco>";

int main(void)
{
    const double mus[] = {0.3, 0.4, 0.5, 0.6};
    for (int k = 0; k < 4; k++) {
        char xml[1024], err[512];
        snprintf(xml, sizeof xml, scene, mus[k], mus[k]);
        cs_model *m = cs_load_xml_string(xml, "incline", NULL, err, sizeof err);
        if (!m) {
            fprintf(stderr, "%s\n", err);
            return 3;
        }
        cs_data *d = cs_make_data(m);
        if (!d) return 6;
        double start[3] = {d->xpos[3], d->xpos[4], d->xpos[5]}; /* body 1: the box */
        int steps = (int)lround(1.0 / m->opt.timestep);         /* one second */
        for (int i = 0; i < steps; i++) cs_step(m, d);
        double dx = d->xpos[3] - start[0], dy = d->xpos[4] - start[1], dz = d->xpos[5] - start[2];
        double moved = sqrt(dx * dx + dy * dy + dz * dz);
        printf("mu %.2f %s (moved %.4f m in 1 s)\n", mus[k], moved > 0.01 ? "slide" : "stick",
               moved);
        cs_free_data(d);
        cs_free_model(m);
    }
    return 0;
}
