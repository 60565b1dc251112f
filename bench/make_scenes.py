#!/usr/bin/env python3
"""Writes the benchmark scenes in bench/ (MJCF). Run from anywhere: python3 bench/make_scenes.py

The scenes are committed; this script is how they were made, so a size can be changed and the
file regenerated. Random placements use a fixed seed per scene, so the output is the same on
every run. Only the MJCF subset conesim reads is used (it runs unchanged in MuJoCo).
"""
import math
import os
import random

HERE = os.path.dirname(os.path.abspath(__file__))
OPTION = '<option timestep="0.002" cone="elliptic" solver="PGS"/>'
FLOOR = '<geom name="floor" type="plane" size="0 0 0.1" rgba="0.8 0.8 0.8 1"/>'
COLORS = ["0.85 0.3 0.25 1", "0.3 0.7 0.35 1", "0.25 0.45 0.85 1", "0.85 0.7 0.2 1"]


def f(x):
    return "%.6g" % x


def rand_quat(rng):
    # uniform random rotation (Shoemake)
    u1, u2, u3 = rng.random(), rng.random(), rng.random()
    a, b = math.sqrt(1 - u1), math.sqrt(u1)
    q = (b * math.cos(2 * math.pi * u3), a * math.sin(2 * math.pi * u2),
         a * math.cos(2 * math.pi * u2), b * math.sin(2 * math.pi * u3))
    return " ".join(f(c) for c in q)


def bin_walls(half, height, thick=0.02):
    """Four static box walls around [-half, half]^2, standing on the floor."""
    h, t, z = half + thick, thick, height / 2
    return [
        '<geom name="wall_px" type="box" pos="%s 0 %s" size="%s %s %s" rgba="0.6 0.6 0.65 0.3"/>'
        % (f(h), f(z), f(t), f(h + t), f(z)),
        '<geom name="wall_nx" type="box" pos="%s 0 %s" size="%s %s %s" rgba="0.6 0.6 0.65 0.3"/>'
        % (f(-h), f(z), f(t), f(h + t), f(z)),
        '<geom name="wall_py" type="box" pos="0 %s %s" size="%s %s %s" rgba="0.6 0.6 0.65 0.3"/>'
        % (f(h), f(z), f(h), f(t), f(z)),
        '<geom name="wall_ny" type="box" pos="0 %s %s" size="%s %s %s" rgba="0.6 0.6 0.65 0.3"/>'
        % (f(-h), f(z), f(h), f(t), f(z)),
    ]


def body(name, pos, geom, quat=None):
    q = ' quat="%s"' % quat if quat else ""
    return ('<body name="%s" pos="%s"%s>\n      <freejoint/>\n      %s\n    </body>'
            % (name, " ".join(f(c) for c in pos), q, geom))


def write(name, header, world, nconmax=None, assets=None, option=OPTION):
    size = '\n  <size nconmax="%d"/>' % nconmax if nconmax else ""
    if assets:
        size += "\n  <asset>\n    %s\n  </asset>" % "\n    ".join(assets)
    text = "<!-- %s -->\n<mujoco model=\"%s\">\n  %s%s\n  <worldbody>\n    %s\n  </worldbody>\n</mujoco>\n" % (
        header.strip().replace("\n", "\n     "), name, option, size, "\n    ".join(world))
    with open(os.path.join(HERE, name + ".xml"), "w") as out:
        out.write(text)


def shape(kind, i, r):
    c = COLORS[i % len(COLORS)]
    if kind == "sphere":
        return '<geom type="sphere" size="%s" rgba="%s"/>' % (f(r), c)
    if kind == "box":
        return '<geom type="box" size="%s %s %s" rgba="%s"/>' % (f(0.8 * r), f(0.8 * r), f(0.8 * r), c)
    return '<geom type="capsule" size="%s %s" rgba="%s"/>' % (f(0.6 * r), f(r), c)


def lattice_drop(name, n, kinds, header, spacing=0.12, r=0.05, seed=1):
    """n x n x n bodies on a jittered lattice above the floor, inside a bin, falling."""
    rng = random.Random(seed)
    half = n * spacing / 2
    world = [FLOOR] + bin_walls(half + 0.02, max(0.3, n * spacing))
    k = 0
    for iz in range(n):
        for iy in range(n):
            for ix in range(n):
                x = (ix - (n - 1) / 2) * spacing + rng.uniform(-0.01, 0.01)
                y = (iy - (n - 1) / 2) * spacing + rng.uniform(-0.01, 0.01)
                z = 0.1 + iz * spacing
                kind = kinds[k % len(kinds)]
                quat = rand_quat(rng) if kind != "sphere" else None
                world.append(body("b%d" % k, (x, y, z), shape(kind, k, r), quat))
                k += 1
    write(name, header, world)


# an irregular 12-vertex polyhedron about 2 r across (the same shape as scenes/meshes/rock.obj)
ROCK = [(1.0, 0.1, 0.0), (-0.9, 0.2, 0.1), (0.1, 1.1, -0.1), (0.0, -1.0, 0.2), (0.2, 0.0, 0.8),
        (-0.1, 0.1, -0.9), (0.6, 0.6, 0.5), (-0.5, 0.6, -0.4), (0.5, -0.6, -0.5), (-0.6, -0.5, 0.5),
        (0.7, -0.2, 0.6), (-0.3, -0.7, -0.6)]


def bin_drop(name, nxy, nz, kind, header, spacing=0.12, r=0.05, seed=5):
    """nxy x nxy x nz bodies of one kind, random orientations, falling into a bin."""
    rng = random.Random(seed)
    half = nxy * spacing / 2
    world = [FLOOR] + bin_walls(half + 0.02, max(0.3, nz * spacing))
    assets = None
    if kind == "mesh":
        assets = ['<mesh name="rock" scale="%s %s %s" vertex="%s"/>'
                  % (f(r), f(r), f(r), "  ".join(" ".join(f(c) for c in v) for v in ROCK))]
    k = 0
    for iz in range(nz):
        for iy in range(nxy):
            for ix in range(nxy):
                x = (ix - (nxy - 1) / 2) * spacing + rng.uniform(-0.01, 0.01)
                y = (iy - (nxy - 1) / 2) * spacing + rng.uniform(-0.01, 0.01)
                z = 0.1 + iz * spacing
                c = COLORS[k % len(COLORS)]
                g = ('<geom type="mesh" mesh="rock" rgba="%s"/>' % c if kind == "mesh"
                     else shape(kind, k, r))
                world.append(body("b%d" % k, (x, y, z), g, rand_quat(rng)))
                k += 1
    write(name, header, world, assets=assets)


def tower(name, n, header, h=0.05):
    """n boxes of half-size h stacked exactly face to face on the floor, at rest."""
    world = [FLOOR]
    for k in range(n):
        g = '<geom type="box" size="%s %s %s" rgba="%s"/>' % (f(h), f(h), f(h), COLORS[k % 4])
        world.append(body("box%d" % k, (0, 0, h + 2 * h * k), g))
    write(name, header, world)


def pyramid(name, base, header, h=0.05):
    """A 2D pyramid of boxes (base boxes in the bottom row), small gaps along x."""
    world = [FLOOR]
    k = 0
    for row in range(base):
        m = base - row
        for i in range(m):
            x = (i - (m - 1) / 2) * (2 * h + 0.002)
            g = '<geom type="box" size="%s %s %s" rgba="%s"/>' % (f(h), f(h), f(h), COLORS[row % 4])
            world.append(body("box%d" % k, (x, 0, h + 2 * h * row), g))
            k += 1
    write(name, header, world)


def grid(name, n, kind, header, spacing=0.12, r=0.05):
    """n x n bodies resting on the floor, not touching each other."""
    world = [FLOOR]
    k = 0
    for iy in range(n):
        for ix in range(n):
            x = (ix - (n - 1) / 2) * spacing
            y = (iy - (n - 1) / 2) * spacing
            z = r if kind == "sphere" else 0.8 * r
            world.append(body("b%d" % k, (x, y, z), shape(kind, k, r)))
            k += 1
    write(name, header, world)


def capsule_heap(name, n, header, seed=3):
    """Capsules in random orientations on a 5x5 lattice of columns, 0.3 m apart (more than a
    capsule's length, so none overlap), falling onto the floor: a jumbled heap."""
    rng = random.Random(seed)
    world = [FLOOR]
    for k in range(n):
        ix, iy, iz = k % 5, (k // 5) % 5, k // 25
        x = (ix - 2) * 0.3 + rng.uniform(-0.02, 0.02)
        y = (iy - 2) * 0.3 + rng.uniform(-0.02, 0.02)
        z = 0.15 + 0.3 * iz
        g = '<geom type="capsule" size="0.03 0.1" rgba="%s"/>' % COLORS[k % 4]
        world.append(body("cap%d" % k, (x, y, z), g, rand_quat(rng)))
    write(name, header, world)


# ---- articulated scenes: MuJoCo's default solver (Newton), elliptic cones ----------------------
ARTIC_OPTION = '<option timestep="0.002" cone="elliptic" solver="Newton"/>'


def nest(lines, depth):
    return ["  " * depth + x for x in lines]


def chain(name, n, header, length=0.1, r=0.02, bend=9.0, drop=0.005, damping=0.02):
    """n capsule links in a planar arc lying on the floor, released `drop` above it. The first
    link is a free body; each later one hangs on a hinge, the axes alternating vertical (the arc
    bends in the floor's plane) and horizontal across the chain (it bends up off the floor). Each
    link is turned `bend` degrees about z from its parent, so the chain starts as an arc."""
    half = math.radians(bend) / 2
    quat = "%s 0 0 %s" % (f(math.cos(half)), f(math.sin(half)))
    lines = []
    for k in range(n):
        pos = "0 0 %s" % f(r + drop) if k == 0 else "%s 0 0" % f(length)
        q = "" if k == 0 else ' quat="%s"' % quat
        lines += nest(['<body name="link%d" pos="%s"%s>' % (k, pos, q)], k)
        if k == 0:
            lines += nest(["  <freejoint/>"], k)
        else:
            axis = "0 0 1" if k % 2 else "0 1 0"
            lines += nest(['  <joint name="j%d" type="hinge" axis="%s" damping="%s" range="-60 60"/>'
                           % (k, axis, f(damping))], k)
        lines += nest(['  <geom type="capsule" fromto="0 0 0 %s 0 0" size="%s" rgba="%s"/>'
                       % (f(length), f(r), COLORS[k % 4])], k)
    for k in reversed(range(n)):
        lines += nest(["</body>"], k)
    write(name, header, [FLOOR] + lines, option=ARTIC_OPTION)


def comb(name, n, header, pitch=0.05, reach=0.06, drop=0.08, r=0.012, stiffness=5.0,
         damping=0.05, lift=0.002):
    """A base on a vertical slide carrying n fingers on hinges (axis x, springs holding each
    finger reaching `reach` out and `drop` down); the fingertips rest on a free box lying on the
    floor, so the base's and fingers' weight presses the box down through the springs. The base
    starts `lift` above the height at which the tips touch the box."""
    bx, by, bz = (n * pitch) / 2 + 0.02, 0.06, 0.05   # box half-sizes
    top = 2 * bz
    base_z = top + drop + r + lift
    world = [FLOOR,
             '<body name="box" pos="0 0 %s">' % f(bz),
             '  <freejoint/>',
             '  <geom type="box" size="%s %s %s" mass="1" rgba="%s"/>' % (f(bx), f(by), f(bz), COLORS[2]),
             '</body>',
             '<body name="base" pos="0 %s %s">' % (f(-reach / 2), f(base_z)),
             '  <joint name="lift" type="slide" axis="0 0 1" damping="1" range="-0.05 0.05"/>',
             '  <geom type="box" size="%s 0.02 0.015" pos="0 0 0.02" mass="1" rgba="%s"/>'
             % (f(n * pitch / 2 + 0.01), COLORS[0])]
    for i in range(n):
        x = (i - (n - 1) / 2) * pitch
        world += ['  <body name="finger%d" pos="%s 0 0">' % (i, f(x)),
                  '    <joint name="f%d" type="hinge" axis="1 0 0" stiffness="%s" damping="%s" range="-20 40"/>'
                  % (i, f(stiffness), f(damping)),
                  '    <geom type="capsule" fromto="0 0 0 0 %s %s" size="%s" mass="0.03" rgba="%s"/>'
                  % (f(reach), f(-drop), f(r), COLORS[1 + i % 3]),
                  '  </body>']
    world.append('</body>')
    write(name, header, world, option=ARTIC_OPTION)


def quadruped(name, header, thigh=(0.06, -0.14), shin=(-0.06, -0.14), r=0.02, stiffness=30.0,
              damping=1.0, drop=0.005):
    """A box torso on a free joint with 4 legs of two links (hip and knee hinges about y, springs
    holding the modelled pose, damping); the lower links' ends are the feet. Released `drop`
    above the floor in the standing pose."""
    hx, hy = 0.15, 0.13
    z = -(thigh[1] + shin[1]) + r + drop
    world = [FLOOR,
             '<body name="torso" pos="0 0 %s">' % f(z),
             '  <freejoint/>',
             '  <geom type="box" size="0.2 0.1 0.04" mass="2" rgba="%s"/>' % COLORS[0]]
    for i, (sx, sy) in enumerate([(1, 1), (1, -1), (-1, 1), (-1, -1)]):
        spring = 'stiffness="%s" damping="%s" range="-60 60"' % (f(stiffness), f(damping))
        world += ['  <body name="thigh%d" pos="%s %s 0">' % (i, f(sx * hx), f(sy * hy)),
                  '    <joint name="hip%d" type="hinge" axis="0 1 0" %s/>' % (i, spring),
                  '    <geom type="capsule" fromto="0 0 0 %s 0 %s" size="%s" mass="0.2" rgba="%s"/>'
                  % (f(thigh[0]), f(thigh[1]), f(r), COLORS[1]),
                  '    <body name="shin%d" pos="%s 0 %s">' % (i, f(thigh[0]), f(thigh[1])),
                  '      <joint name="knee%d" type="hinge" axis="0 1 0" %s/>' % (i, spring),
                  '      <geom type="capsule" fromto="0 0 0 %s 0 %s" size="%s" mass="0.15" rgba="%s"/>'
                  % (f(shin[0]), f(shin[1]), f(0.9 * r), COLORS[2]),
                  '    </body>',
                  '  </body>']
    world.append('</body>')
    write(name, header, world, option=ARTIC_OPTION)


def main():
    lattice_drop("spheres_bin_64", 4, ["sphere"], """
spheres_bin_64: 64 spheres (r 0.05, 1000 kg/m^3) on a jittered 4x4x4 lattice fall into a bin
(floor plane + 4 static box walls) and settle. Elliptic cones, PGS.
What it measures: sphere-sphere/plane/box narrow phase and a small pile's solve.
What to look for: the layers land between 0.1 and 0.3 s, then the pile settles; no divergence.""")
    lattice_drop("spheres_bin_512", 8, ["sphere"], """
spheres_bin_512: 512 spheres (r 0.05) on a jittered 8x8x8 lattice fall into a bin and settle
into a deep pile. Elliptic cones, PGS.
What it measures: broad phase and PGS on one large island (hundreds of bodies touching).
What to look for: iterations near the limit once the pile forms; about 1000 contacts.""")
    lattice_drop("mixed_pile_125", 5, ["sphere", "box", "capsule"], """
mixed_pile_125: 125 bodies, spheres, boxes (half-size 0.04) and capsules (r 0.03, half-length
0.05) in random orientations on a jittered 5x5x5 lattice, falling into a bin.
What it measures: every narrow-phase path (analytic sphere/plane/box pairs, box-box manifolds,
libccd for capsule-box and the like) in one scene.
What to look for: the collision stage's share of the step; box-box contacts have several points.""")
    lattice_drop("mixed_pile_343", 7, ["sphere", "box", "capsule"], """
mixed_pile_343: as mixed_pile_125 with 343 bodies on a 7x7x7 lattice.
What it measures: how collision and the solve scale from 125 to 343 mixed bodies.
What to look for: roughly linear growth of collision time per step with the contact count.""")
    for n in (4, 6, 8):
        lattice_drop("mixed_pile_%d" % n ** 3, n, ["sphere", "box", "capsule"], """
mixed_pile_%d: as mixed_pile_125 with %d bodies on a %dx%dx%d lattice, one of the pile series
(64, 125, 216, 343, 512 bodies) over which bench/scaling.py measures cost against contacts.
What it measures: how the step's cost grows with the pile.
What to look for: cost per step in proportion to the contacts per step.""" % (n ** 3, n ** 3, n, n, n))
    tower("tower_10", 10, """
tower_10: 10 boxes (half-size 0.05, 1 kg) stacked face to face on the floor, at rest.
What it measures: a tall, thin island: PGS convergence along a chain (4 points per face).
What to look for: the tower stands; iterations per step stay well below the limit.""")
    for n in (5, 20):
        tower("tower_%d" % n, n, """
tower_%d: %d boxes (half-size 0.05, 1 kg) stacked face to face on the floor, at rest; with
tower_10 and tower_40 the stack-height series of the Coulomb model's iteration counts.
What it measures: how a solver's iterations grow with the height of a stack.
What to look for: the tower stands; the floor carries %d m g once settled.""" % (n, n, n))
    tower("tower_40", 40, """
tower_40: 40 boxes (half-size 0.05, 1 kg) stacked face to face, 4 m tall, at rest.
What it measures: PGS on a long chain, where information travels one box per sweep.
What to look for: the floor contacts carry 40 m g = 392.4 N once settled (5 s). PGS hits its limit
and the tower sways (it falls within 3 s at 100 iterations); Newton holds it upright.""")
    pyramid("pyramid_55", 10, """
pyramid_55: a 2D pyramid of 55 boxes (half-size 0.05), base of 10, 2 mm gaps along x.
What it measures: the classic stacking benchmark: a wide island of box-box face manifolds.
What to look for: the pyramid stands; rows ~ 4 points x 3 per face contact.""")
    grid("grid_spheres_1024", 32, "sphere", """
grid_spheres_1024: 1024 spheres (r 0.05) resting on the floor on a 32x32 grid, 2 cm apart.
What it measures: per-body overhead at scale: 1024 islands of one contact each.
What to look for: one contact per sphere; cost per step linear in the body count.""")
    grid("grid_boxes_400", 20, "box", """
grid_boxes_400: 400 boxes (half-size 0.04) resting on the floor on a 20x20 grid, 4 cm apart.
What it measures: plane-box manifolds at scale: 400 islands of 4 contact points.
What to look for: 4 contacts per box, 1600 in all; the grid stays at rest.""")
    bin_drop("mesh_bin_100", 5, 4, "mesh", """
mesh_bin_100: 100 convex meshes (an irregular 12-vertex polyhedron about 0.1 m across) in
random orientations on a jittered 5x5x4 lattice fall into a bin and settle.
What it measures: mesh collision: the hull support climb in GJK/EPA for mesh-mesh and
mesh-wall pairs, the plane-mesh patch for the floor.
What to look for: steps per second against boxes_bin_100 (the same bin with boxes).""")
    bin_drop("boxes_bin_100", 5, 4, "box", """
boxes_bin_100: the bin of mesh_bin_100 with boxes (half-size 0.04) instead of the meshes.
What it measures: the same pile through the analytic box-box and box-plane paths.
What to look for: the reference for mesh_bin_100's speed.""")
    chain("chain_20", 20, """
chain_20: 20 capsule links (r 0.02, 0.1 m long) in a planar arc (9 degrees per joint) released
5 mm above the floor. Link 0 is free; links 1-19 hang on hinges whose axes alternate vertical
and horizontal (damping 0.02, range +-60 degrees). Elliptic cones, Newton (MuJoCo's default).
What it measures: one articulated tree of 25 dofs (a dense mass matrix: every dof is an
ancestor of the later ones) with 20 or more floor contacts in one island.
What to look for: the chain lands and lies still in its arc; no link sinks into the floor.""")
    comb("comb_10", 10, """
comb_10: a base (1 kg) on a vertical slide carries 10 fingers on hinges (springs 5 N m/rad,
damping 0.05) whose tips rest on a free box (1 kg, half-sizes 0.27 x 0.06 x 0.05 m) lying on
the floor: the base's weight presses the box down through the ten springs.
What it measures: a branching tree (11 dofs) coupled to a free body through 10 contacts, the
box's floor manifold under it: one island of 17 dofs.
What to look for: the base settles 3.5 mm (1.5 mm below where the tips first touch); every
fingertip keeps touching the box.""")
    quadruped("quadruped_legs", """
quadruped_legs: a box torso (2 kg) on a free joint with 4 legs of two capsule links (hip and
knee hinges about y, springs 30 N m/rad holding the modelled pose, damping 1), released 5 mm
above the floor standing on its 4 feet.
What it measures: a floating-base tree of 14 dofs on 4 point contacts: per-step overhead of
kinematics, the mass matrix and a small Newton solve.
What to look for: it lands and stands, the torso about 0.30 m up and level.""")
    capsule_heap("capsule_heap_100", 100, """
capsule_heap_100: 100 capsules (r 0.03, half-length 0.1) in random orientations, 4 layers of
5x5, 0.3 m apart, fall onto the floor (no walls) and tumble into a low heap.
What it measures: capsule-capsule and capsule-plane contacts; many small islands that merge.
What to look for: contacts rise in waves as each layer lands (top layer at about 0.45 s).""")


if __name__ == "__main__":
    main()
