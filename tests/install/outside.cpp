// A C++ program outside the tree, built with g++ against the installed library with
// pkg-config only: the header's declarations have C linkage, so the cs_ names resolve.
// A resting sphere's normal force is its weight. argv[1]: scenes/sphere_plane.xml.
#include <conesim/conesim.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>

int main(int argc, char **argv)
{
    if (argc != 2) {
        std::fprintf(stderr, "usage: outside-cpp SCENE\n");
        return 2;
    }
    if (std::string(cs_version()) != CS_VERSION) {
        std::fprintf(stderr, "library %s, headers %s\n", cs_version(), CS_VERSION);
        return 1;
    }
    char err[512];
    std::unique_ptr<cs_model, void (*)(cs_model *)> m(cs_load_xml(argv[1], nullptr, err, sizeof err),
                                                      cs_free_model);
    if (!m) {
        std::fprintf(stderr, "%s\n", err);
        return 1;
    }
    std::unique_ptr<cs_data, void (*)(cs_data *)> d(cs_make_data(m.get()), cs_free_data);
    if (!d) return 1;
    for (int i = 0; i < 500; i++) cs_step(m.get(), d.get());
    int ball = cs_name2id_body(m.get(), "ball");
    const double *g = m->opt.gravity;
    double weight = m->body_mass[ball] * std::sqrt(g[0] * g[0] + g[1] * g[1] + g[2] * g[2]);
    double fn = 0;
    for (int i = 0; i < d->ncon; i++) {
        double f[6];
        cs_contact_force(m.get(), d.get(), i, f);
        fn += f[0];
    }
    std::printf("C++: ncon %d  f_n %.6f N  m g %.6f N  (conesim %s)\n", d->ncon, fn, weight,
                cs_version());
    return d->ncon == 1 && std::fabs(fn - weight) < 1e-6 * weight ? 0 : 1;
}
