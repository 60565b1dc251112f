"""Mesh texture coordinates (OBJ vt, MSH, the texcoord attribute): the model arrays as the
file gives them, and the pictures showing a 2D texture where the coordinates put it.
The pictures are skipped when no GL context can be had."""
import os
import re
import struct

import numpy as np
import pytest

import conesim

MESHES = os.path.join(os.path.dirname(__file__), "../../tests/data/good/meshes")

# the cube of side 2 about the origin (uvcube.obj) seen from straight above by a fixed camera
# whose image right is +x and image up is +y
SCENE = """<mujoco>
  <compiler meshdir="{dir}"/>
  <asset>
    <mesh name="cube" file="uvcube.obj"/>
    {texture}
    <material name="m" texture="t"/>
  </asset>
  <worldbody>
    <camera name="top" pos="0 0 6" xyaxes="1 0 0 0 1 0" fovy="45"/>
    <geom type="mesh" mesh="cube" material="m" rgba="1 1 1 1"/>
  </worldbody>
</mujoco>"""

# MuJoCo's checker: rgb1 in the image's top-left and bottom-right quarters
CHECKER = ('<texture name="t" type="2d" builtin="checker" rgb1="1 0 0" rgb2="0 0 1" '
           'width="64" height="64"/>')
FLAT = '<texture name="t" type="2d" builtin="flat" rgb1="0 0.8 0" width="8" height="8"/>'


def load(texture):
    return conesim.Model.from_xml_string(SCENE.format(dir=MESHES, texture=texture))


def picture(m, size=160):
    try:
        r = conesim.Renderer(m, size, size)
    except RuntimeError as e:  # no render library, or neither EGL nor a display
        pytest.skip(str(e))
    d = conesim.Data(m)
    conesim.forward(m, d)
    r.update_scene(d, camera="top")
    img = r.render()
    r.close()
    return img


def pixel_of(x, y, size=160, height=6.0 - 1.0, fovy=45.0):
    """Pixel (column, row) of the world point (x, y) on the cube's top face (z = 1)."""
    f = (size / 2) / np.tan(np.radians(fovy / 2))
    return int(round(size / 2 + f * x / height - 0.5)), int(round(size / 2 - f * y / height - 0.5))


def mean(img, c, r):
    return img[r - 2:r + 3, c - 2:c + 3].reshape(-1, 3).mean(axis=0)


def dominant(c):
    """The channel that clearly outweighs the others, else None."""
    k = int(np.argmax(c))
    others = [c[i] for i in range(3) if i != k]
    return k if c[k] > 100 and c[k] > 3 * max(others) + 10 else None


def test_obj_texcoords_are_the_files():
    m = load(CHECKER)
    assert m.nmeshtexcoord == 4
    assert m.mesh_texcoordadr[0] == 0 and m.mesh_texcoordnum[0] == 4
    # vt u v becomes (u, 1 - v): MuJoCo counts v from the image's top row
    assert np.array_equal(m.mesh_texcoord, [[0, 1], [1, 1], [1, 0], [0, 0]])
    # the quads fan into (0 1 2) (0 2 3); every face names vt 1 2 3 4 in order
    assert m.mesh_facetexcoord.shape == (12, 3)
    for f in range(6):
        assert list(m.mesh_facetexcoord[2 * f]) == [0, 1, 2]
        assert list(m.mesh_facetexcoord[2 * f + 1]) == [0, 2, 3]


def test_checker_shows_both_colours_where_the_coordinates_put_them():
    img = picture(load(CHECKER))
    # top face: corner (-1, 1) has vt (0, 1), the image's top-left texel; (1, 1) vt (1, 1)
    expect = {(-0.5, 0.5): 0, (0.5, -0.5): 0, (0.5, 0.5): 2, (-0.5, -0.5): 2}
    for (x, y), channel in expect.items():
        c = mean(img, *pixel_of(x, y))
        assert dominant(c) == channel, ((x, y), c)


def test_flat_texture_shows_its_colour():
    img = picture(load(FLAT))
    for x, y in ((-0.5, 0.5), (0.5, -0.5), (0, 0)):
        c = mean(img, *pixel_of(x, y))
        assert dominant(c) == 1, ((x, y), c)
    # beyond the cube: the sky, not the texture's green
    assert dominant(mean(img, 4, 4)) != 1


def test_texcoord_attribute_and_msh(tmp_path):
    # a tetrahedron with faces and one coordinate per vertex
    xml = """<mujoco><asset><mesh name="t" vertex="0 0 0 1 0 0 0 1 0 0 0 1"
      face="0 2 1 0 1 3 0 3 2 1 2 3" texcoord="0 0 1 0 0 1 0.5 0.5"/></asset>
      <worldbody><geom type="mesh" mesh="t"/></worldbody></mujoco>"""
    m = conesim.Model.from_xml_string(xml)
    assert m.mesh_texcoordnum[0] == 4
    assert np.allclose(m.mesh_texcoord, [[0, 0], [1, 0], [0, 1], [0.5, 0.5]])
    # a vertex's coordinate is the one of the same index
    assert np.array_equal(m.mesh_facetexcoord, m.mesh_face)
    # MSH: 4 vertices, no normals, 4 coordinates, 4 faces
    vert = [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1]
    tex = [0.25, 0.75, 1, 0, 0, 1, 0.5, 0.5]
    face = [0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3]
    p = tmp_path / "tet.msh"
    p.write_bytes(struct.pack("4i", 4, 0, 4, 4) + struct.pack("12f", *vert) +
                  struct.pack("8f", *tex) + struct.pack("12i", *face))
    m = conesim.Model.from_xml_string(
        f'<mujoco><asset><mesh file="{p}"/></asset><worldbody><geom type="mesh" mesh="tet"/>'
        '</worldbody></mujoco>')
    assert np.allclose(m.mesh_texcoord, np.reshape(tex, (4, 2)))
    assert np.array_equal(m.mesh_facetexcoord, m.mesh_face)


def test_mesh_without_coordinates():
    xml = """<mujoco><asset><mesh name="t" vertex="0 0 0 1 0 0 0 1 0 0 0 1"
      face="0 2 1 0 1 3 0 3 2 1 2 3"/></asset>
      <worldbody><geom type="mesh" mesh="t"/></worldbody></mujoco>"""
    m = conesim.Model.from_xml_string(xml)
    assert m.nmeshtexcoord == 0
    assert m.mesh_texcoordadr[0] == -1 and m.mesh_texcoordnum[0] == 0
    assert not m.mesh_facetexcoord.any()


@pytest.mark.parametrize("attr, phrase", [
    ('texcoord="0 0 1 0 0 1"', "expects 2 numbers per vertex (4 vertices)"),
    ('texcoord="0 0 1"', "expects 2 numbers per vertex, got 3"),
])
def test_bad_texcoord_attribute(attr, phrase):
    xml = f"""<mujoco><asset>
<mesh name="t" vertex="0 0 0 1 0 0 0 1 0 0 0 1" face="0 2 1 0 1 3 0 3 2 1 2 3" {attr}/>
</asset><worldbody><geom type="mesh" mesh="t"/></worldbody></mujoco>"""
    with pytest.raises(ValueError, match=r":2: .*" + re.escape(phrase)):
        conesim.Model.from_xml_string(xml)


def load_obj(tmp_path, text):
    p = tmp_path / "m.obj"
    p.write_text(text)
    return conesim.Model.from_xml_string(
        f'<mujoco><asset><mesh file="{p}"/></asset><worldbody><geom type="mesh" mesh="m"/>'
        '</worldbody></mujoco>')


TET = "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\n"


def test_obj_relative_indices_normals_and_unused_vt(tmp_path):
    # relative (negative) vt indices count back from the 'vt' records read so far; v/vt/vn
    m = load_obj(tmp_path, TET + "vt 0.25 0.5\nvt 1 0.75 0\nvn 0 0 1\n"
                 "f 1/-2/1 3/-1/1 2/1/1\nf 1/1 2/2 4/1\nf 1/2 4/1 3/2\nf 2/1 3/2 4/2\n")
    assert np.allclose(m.mesh_texcoord, [[0.25, 0.5], [1, 0.25]])
    assert list(m.mesh_facetexcoord[0]) == [0, 1, 0]
    # 'vt' records no face names: the mesh has no coordinates
    m = load_obj(tmp_path, TET + "vt 0 0\nf 1//1 3//1 2//1\nf 1 2 4\nf 1 4 3\nf 2 3 4\n")
    assert m.nmeshtexcoord == 0 and m.mesh_texcoordadr[0] == -1
    # vt indices in a file without 'vt' records name nothing (MuJoCo reads the corners'
    # coordinates only from a file that has some): no coordinates, no error
    m = load_obj(tmp_path, TET + "f 1/1 3/1 2/1\nf 1/1 2/1 4/1\nf 1 4 3\nf 2 3 4\n")
    assert m.nmeshtexcoord == 0 and m.mesh_texcoordadr[0] == -1


@pytest.mark.parametrize("body, phrase", [
    ("vt 0 0\nf 1/2 3/1 2/1\n",
     "m.obj:6: texture coordinate index 2 out of range (1 'vt' records)"),
    ("vt 0 0\nf 1/-2 3/1 2/1\n", "m.obj:6: relative texture coordinate index before the first"),
    ("vt 0 0 0 0\nf 1/1 3/1 2/1\n", "m.obj:5: 'vt' needs 1 to 3 finite numbers"),
    ("vt nan 0\nf 1/1 3/1 2/1\n", "m.obj:5: 'vt' needs 1 to 3 finite numbers"),
    ("vt 0 0\nf 1/1 3/x 2/1\n", "m.obj:6: 'f' has a malformed index"),
])
def test_obj_bad_texture_coordinates(tmp_path, body, phrase):
    with pytest.raises(ValueError, match=re.escape(phrase)):
        load_obj(tmp_path, TET + body)


def test_textured_mesh_in_segmentation_and_depth():
    m = load(CHECKER)
    try:
        r = conesim.Renderer(m, 160, 160)
    except RuntimeError as e:
        pytest.skip(str(e))
    d = conesim.Data(m)
    conesim.forward(m, d)
    r.update_scene(d, camera="top")
    r.enable_segmentation_rendering()
    seg = r.render()
    r.disable_segmentation_rendering()
    r.enable_depth_rendering()
    depth = r.render()
    r.close()
    c, row = pixel_of(0.5, 0.5)
    assert list(seg[row, c]) == [0, 5]  # geom 0, MuJoCo's mjOBJ_GEOM
    assert list(seg[2, 2]) == [-1, -1]
    assert depth[row, c] == pytest.approx(5.0, abs=1e-3)  # the top face, 5 m below
