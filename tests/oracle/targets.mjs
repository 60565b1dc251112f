// The agreement targets between conesim and MuJoCo, as maxima of compare.mjs's quantities.
//   pos_abs       body position error, m (max over steps and bodies)
//   height_rel    body height error / height
//   fn_rel, f_rel per-contact normal force / whole force error, relative (contacts matched
//                 by geom pair and nearest position)
//   netf_rel      net contact force on each body (one geom per body), relative
//   displacement_rel  |d_ours - d_ref| / d_ref, d = distance travelled over the run
//   nocontact_frac_diff  difference in the fraction of steps without an active contact
//   stop_steps    difference in the step from which the body stays still (speed < 1 mm/s)
//   f_sameset_abs per-contact force error, N, over steps whose contact sets coincide
//   limit_f_rel, friction_f_rel  joint limit / dry-friction row force error, relative (rows
//                 of the --limits CSVs matched per step by kind, joint and dof)
//   jrow_unmatched  joint rows that one run has and the other has not
// scenes compared over less than the usual 2 s (seconds)
export const DURATION = { cubelets: 0.5 };
export const CONFIGS = [
  { name: 'newton/elliptic', solver: 'newton', cone: 'elliptic' },
  { name: 'newton/pyramidal', solver: 'newton', cone: 'pyramidal' },
  { name: 'pgs/elliptic', solver: 'pgs', cone: 'elliptic' },
  { name: 'pgs/pyramidal', solver: 'pgs', cone: 'pyramidal' },
];

const MG = 9.81; // the aniso boxes weigh 1 kg
const RULES = {
  sphere_plane: [{ q: 'fn_rel', max: 1e-9 }, { q: 'height_rel', max: 1e-9 }],
  box_rest: [{ q: 'pos_abs', max: 1e-6 }, { q: 'f_rel', max: 1e-6 }],
  incline_stick: [{ q: 'pos_abs', max: 1e-6 }, { q: 'f_rel', max: 1e-6 }],
  box_stack: [{ q: 'pos_abs', max: 1e-6 }, { q: 'netf_rel', max: 1e-6 }],
  box_stack_gap: [{ q: 'pos_abs', max: 1e-6 }, { q: 'netf_rel', max: 1e-6 }],
  incline_slide: [{ q: 'displacement_rel', max: 0.005 }, { q: 'nocontact_frac_diff', max: 0.05 }],
  aniso_box_condim3: [{ q: 'pos_abs', max: 1e-3 }, { q: 'stop_steps', max: 10 }, { q: 'f_sameset_abs', max: 1e-4 * MG }],
  ball_roll: [{ q: 'pos_abs', max: 1e-6 }, { q: 'f_rel', max: 1e-6 }],
  welded_feet: [{ q: 'pos_abs', max: 1e-9 }, { q: 'height_rel', max: 1e-9 }],
  mesh_rock: [{ q: 'pos_abs', max: 1e-6 }],
  // articulated scenes (hinge, slide and ball joints, springs, damping, limits): every moving
  // body's state, every contact force and every joint limit and friction row, with both cones
  pendulum_strike: [{ q: 'pos_abs', max: 1e-9 }, { q: 'f_rel', max: 1e-6 },
    { q: 'jrow_unmatched', max: 0 }, { q: 'limit_f_rel', max: 1e-6 }, { q: 'friction_f_rel', max: 1e-6 }],
};
// oracle-only: a capsule chain draped over a box's edges (MuJoCo's capsule-box contact set)
RULES.capsule_drape = [{ q: 'pos_abs', max: 1e-9 }, { q: 'f_rel', max: 1e-6 }];
// oracle-only: one arm model (its own angle unit, classes, tendon, actuators, key) attached
// twice with prefixes, into a body and into a turned frame, the forearms striking the post
// (2e-15 m); a pebble of MuJoCo's builtin sphere mesh, scaled, rocking on the ground on up to
// three vertex contacts (1.2e-8 m after 2 s: the solvers' tolerance, as mesh_plane's)
RULES.attach_arms = [{ q: 'pos_abs', max: 1e-7 }, { q: 'f_rel', max: 1e-5 }];
// oracle-only: limits of every kind (both sides of a slide at once) and dry friction on hinge,
// slide and ball dofs, no contacts
RULES.joint_friction = RULES.pendulum_strike.filter((r) => r.q !== 'f_rel');
RULES.gripper_hold = RULES.pendulum_strike;
RULES.cart_incline = RULES.pendulum_strike;
RULES.ball_chain_step = RULES.pendulum_strike;
RULES.slide_pusher = RULES.pendulum_strike;
// actuated: position servos (dampratio, inheritrange, forcerange) under implicitfast, standing
// on elliptic or pyramidal contacts; gripper_lift is left without targets here: its fingers
// press with forces clamped by forcerange, whose velocity derivative MuJoCo 3.12 drops from
// implicitfast (conesim does too, and agrees with native 3.12 to 7e-16 m) and 3.3.8 keeps
RULES.walker = RULES.pendulum_strike;
// tendons and equality constraints: tendon_gripper (fingers coupled by a joint equality,
// driven through a fixed tendon, squeezing a box: contact forces within 1e-5, reached 9.7e-7
// with pyramidal cones, where a sticking pad's force passes near its friction bound) and the
// oracle-only tendon_rows (connect, weld, joint and tendon equalities, a fixed tendon with
// range, frictionloss, spring and damper, a limited spatial tendon)
RULES.tendon_gripper = [{ q: 'pos_abs', max: 1e-9 }, { q: 'f_rel', max: 1e-5 },
  { q: 'jrow_unmatched', max: 0 }, { q: 'limit_f_rel', max: 1e-6 }, { q: 'friction_f_rel', max: 1e-6 }];
RULES.tendon_rows = RULES.joint_friction;
RULES.incline_33 = RULES.incline_slide;
RULES.aniso_box_condim4 = RULES.aniso_box_condim3;
// oracle-only: MuJoCo's noslip pass after the solver (contact friction in both cones, dry
// joint friction)
RULES.noslip_incline = RULES.pendulum_strike;
RULES.aniso_box_condim6 = RULES.aniso_box_condim3;
// oracle-only: MuJoCo 3.12's polynomial springs and dampers on every joint type and a
// spatial tendon (no contacts)
RULES.poly_springs = [{ q: 'pos_abs', max: 1e-9 }];
// oracle-only: convex meshes landing on a floor through MuJoCo 3.12's plane-mesh contacts
// (meshes under 10 vertices and over; 1.6e-9 m reached over 2 s)
RULES.mesh_plane = [{ q: 'pos_abs', max: 1e-8 }];
// oracle-only: margins and gaps of both geoms summed (MuJoCo 3.5+), a negative margin
RULES.margin_gap = [{ q: 'pos_abs', max: 1e-9 }, { q: 'f_rel', max: 1e-6 }];
// oracle-only: spatial tendons wrapped over a cylinder and spheres (sidesites outside and
// inside), a pulley tendon with a limit, a motor on a wrapped tendon (no contacts)
RULES.tendon_wrap = RULES.joint_friction;
// oracle-only: a limited spatial tendon with dry friction over three free boxes on a floor
// (one row over three trees), their contacts and friction; the tendon's dry-friction row
// force reaches 1.0e-6 relative at its worst step (the positions 1.6e-11 m)
RULES.tendon_trees = [{ q: 'pos_abs', max: 1e-9 }, { q: 'jrow_unmatched', max: 0 },
  { q: 'limit_f_rel', max: 1e-6 }, { q: 'friction_f_rel', max: 1e-5 }];
// oracle-only: slider-crank transmissions, a slider axis that turns, a rod out of reach at
// times, under implicitfast (no contacts)
RULES.slider_crank = [{ q: 'pos_abs', max: 1e-9 }];
// oracle-only: actuators on ball and free joints (joint and jointinparent gears, a position
// servo with dampratio on a ball) and on sites; implicitfast, no contacts
RULES.ball_free_actuators = [{ q: 'pos_abs', max: 1e-9 }, { q: 'quat_abs', max: 1e-9 }];
RULES.site_actuators = [{ q: 'pos_abs', max: 1e-9 }, { q: 'quat_abs', max: 1e-9 }];
// oracle-only: sleeping islands (<flag sleep>): a stack settles and sleeps, a falling ball
// wakes it, it sleeps again; the sleep and wake steps must be MuJoCo's for this to hold
RULES.sleep_wake = [{ q: 'pos_abs', max: 1e-9 }, { q: 'f_rel', max: 1e-6 }];
RULES.sleep_wake_rk4 = RULES.sleep_wake;
// oracle-only: a sphere and a capsule on a bumpy height field (MuJoCo 3.12's prisms, one
// contact each; 6e-14 m reached over 2 s)
RULES.hfield_bumpy = [{ q: 'pos_abs', max: 1e-9 }, { q: 'f_rel', max: 1e-6 }];
// oracle-only: a box, a mesh, an ellipsoid and a cylinder on the same field (known-gaps:
// the rock mesh's geom frame from the compiler)
RULES.hfield_convex = [{ q: 'pos_abs', max: 1e-6 }];
// oracle-only: convex pairs through MuJoCo 3.12's native collider on a box-mesh slab (a
// capsule lying, cylinders standing and rolling, a box and a box mesh on a face, an ellipsoid)
RULES.convex_native = [{ q: 'pos_abs', max: 1e-9 }, { q: 'f_rel', max: 1e-6 }];
// oracle-only: 26 bevelled mesh cubes on ball joints, face to face, settling: every contact
// found where MuJoCo finds it (geom frames made as MuJoCo makes them, to the last bit); over
// 0.5 s, as multi-point contacts between faces a micrometre apart switch corners on the
// rounding of the dynamics later on
RULES.cubelets = [{ q: 'quat_abs', max: 1e-9 }, { q: 'f_rel', max: 1e-5 }];
// oracle-only: the implicit integrator on a fast-spinning free base with a damped chain,
// velocity servos on a joint and a tendon, ellipsoid fluid forces (no contacts)
RULES.implicit_spin = [{ q: 'pos_abs', max: 1e-9 }, { q: 'quat_abs', max: 1e-9 }];
RULES.implicitfast_simple = [{ q: 'pos_abs', max: 1e-9 }, { q: 'quat_abs', max: 1e-9 }];
// oracle-only: muscles (an arm26-like arm on wrapped spatial tendons, a slider, muscle
// dynamics and gain on <general>), length ranges from the compiler's simulation and from a
// limit, the implicit integrator with the force-velocity slope (no contacts)
RULES.muscle_arm = [{ q: 'pos_abs', max: 1e-9 }, { q: 'quat_abs', max: 1e-9 }];
// oracle-only: DC motors on their voltage input (stateless, with a current state, nominal
// ratings, saturation, cogging), implicitfast (no contacts)
RULES.dcmotor_voltage = [{ q: 'pos_abs', max: 1e-9 }, { q: 'quat_abs', max: 1e-9 }];
// oracle-only: MuJoCo 3.12's servos with several controls (pids of every input subset, ki with
// imax, slewmax, per-control ranges; DC motors with the on-board controller, without inputs,
// with LuGre friction), keyframe controls, implicitfast; a slide's ball lands on the floor
RULES.servo_inputs = [{ q: 'pos_abs', max: 1e-9 }, { q: 'quat_abs', max: 1e-9 },
  { q: 'f_rel', max: 1e-6 }];
// oracle-only: MuJoCo 3.12's orientation servos (rotation-vector and quaternion charts, a
// norm-bounded torque, the integrator variant, a site servo turning a free body), implicitfast
RULES.orientation_servos = [{ q: 'pos_abs', max: 1e-9 }, { q: 'quat_abs', max: 1e-9 }];
// oracle-only: MuJoCo 3.12's contact adhesion (a ball hanging under a ceiling by it and a
// heavier one falling, boxes on an incline with and without it, a magnet pulled from the gap
// band, a pair's own adhesion) and <adhesion> actuators (a pad lifting a box, a sphere pad
// pulling a ball from its gap band); contact forces are the net ones (mj_contactForce)
RULES.adhesion_boxes = [{ q: 'pos_abs', max: 1e-9 }, { q: 'quat_abs', max: 1e-9 }, { q: 'f_rel', max: 1e-6 }];
RULES.adhesion_gripper = RULES.adhesion_boxes;

// Targets hold against MuJoCo's Newton solver (converged); its PGS stops on its tolerance and
// ours solves each block exactly, so PGS rows are shown for information only -- except
// sphere_plane with elliptic cones (its own options): one contact block, where both PGS runs
// agree exactly (with pyramidal cones MuJoCo's PGS sweeps 4 scalar rows and stops on its
// tolerance, 6e-6 away from our exact block solution).
export function targetsFor(scene, cfg) {
  if (cfg.solver !== 'newton')
    return scene === 'sphere_plane' && cfg.cone === 'elliptic' ? RULES.sphere_plane : [];
  return RULES[scene] || [];
}

export function hasRules(scene) { return scene in RULES; }
