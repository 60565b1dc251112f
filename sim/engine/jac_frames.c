/* Jacobians of the frames a body carries (MuJoCo's mj_jacBody, mj_jacBodyCom, mj_jacSite):
 * cs_jac at the frame's point, from the last kinematics. */
#include "conesim.h"

void cs_jac_body(const cs_model *m, const cs_data *d, int body, double *jacp, double *jacr)
{
    cs_jac(m, d, body, d->xpos + 3 * body, jacp, jacr);
}

void cs_jac_body_com(const cs_model *m, const cs_data *d, int body, double *jacp,
                     double *jacr)
{
    cs_jac(m, d, body, d->xipos + 3 * body, jacp, jacr);
}

void cs_jac_site(const cs_model *m, const cs_data *d, int site, double *jacp, double *jacr)
{
    cs_jac(m, d, m->site_bodyid[site], d->site_xpos + 3 * site, jacp, jacr);
}
