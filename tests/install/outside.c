/* A program outside the tree, built against the installed library with pkg-config only:
 * a resting sphere's normal force is its weight. argv[1]: scenes/sphere_plane.xml. */
#include <conesim/conesim.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: outside SCENE\n");
        return 2;
    }
    /* the headers and the library linked are the same version */
    if (strcmp(cs_version(), CS_VERSION) != 0) {
        fprintf(stderr, "library %s, headers %s\n", cs_version(), CS_VERSION);
        return 1;
    }
    char err[512];
    cs_model *m = cs_load_xml(argv[1], NULL, err, sizeof err);
    if (!m) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    cs_data *d = cs_make_data(m);
    if (!d) return 1;
    for (int i = 0; i < 500; i++) cs_step(m, d);
    int ball = cs_name2id_body(m, "ball");
    double g = sqrt(m->opt.gravity[0] * m->opt.gravity[0] + m->opt.gravity[1] * m->opt.gravity[1] +
                    m->opt.gravity[2] * m->opt.gravity[2]);
    double weight = m->body_mass[ball] * g, fn = 0;
    for (int i = 0; i < d->ncon; i++) {
        double f[6];
        cs_contact_force(m, d, i, f);
        fn += f[0];
    }
    printf("ncon %d  f_n %.6f N  m g %.6f N  (conesim %s)\n", d->ncon, fn, weight, cs_version());
    int ok = d->ncon == 1 && fabs(fn - weight) < 1e-6 * weight;
    cs_free_data(d);
    cs_free_model(m);
    return ok ? 0 : 1;
}
