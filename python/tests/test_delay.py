"""History buffers and delays (MuJoCo 3.12's nsample, interp, delay, interval) from Python:
read_ctrl, read_sensor, init_ctrl_history and init_sensor_history as MuJoCo's bindings give
mj_readCtrl, mj_readSensor, mj_initCtrlHistory and mj_initSensorHistory (the numbers of
MuJoCo's bindings_test), and the history as part of the state."""
import numpy as np
import pytest

import conesim

HINGE = """<mujoco><worldbody><body><geom type="sphere" size="0.1"/>
  <joint name="hinge" type="hinge"/><site name="site"/></body></worldbody>
  <actuator><position name="actuator" joint="hinge" delay="0.01" nsample="4"/></actuator>
  <sensor><accelerometer name="accel" site="site" delay="0.01" nsample="3"/></sensor>
</mujoco>"""


def test_read_ctrl_after_init():
    m = conesim.Model.from_xml_string(HINGE)
    d = conesim.Data(m)
    assert m.actuator_history[0, 0] == 4 and m.actuator_history[0, 1] == 0
    conesim.init_ctrl_history(m, d, 0, [0.0, 0.01, 0.02, 0.03], [1.0, 2.0, 3.0, 4.0])
    # read at 0.02 - delay 0.01: the sample at 0.01
    assert conesim.read_ctrl(m, d, 0, 0.02, interp=0) == 2.0
    # halfway between the samples at 0.01 and 0.02
    assert conesim.read_ctrl(m, d, "actuator", 0.025, interp=1) == pytest.approx(2.5, abs=1e-12)
    conesim.init_ctrl_history(m, d, 0, None, [5.0, 6.0, 7.0, 8.0])  # the times kept
    assert conesim.read_ctrl(m, d, 0, 0.02, interp=0) == 6.0
    with pytest.raises(TypeError):
        conesim.init_ctrl_history(m, d, 0, np.zeros(3), [1.0, 2.0, 3.0, 4.0])
    with pytest.raises(TypeError):
        conesim.init_ctrl_history(m, d, 0, [0.0, 0.01, 0.02, 0.03], np.zeros(5))
    with pytest.raises(ValueError):  # times must increase
        conesim.init_ctrl_history(m, d, 0, [0.0, 0.02, 0.01, 0.03], np.zeros(4))


def test_read_sensor_after_init():
    m = conesim.Model.from_xml_string(HINGE)
    d = conesim.Data(m)
    assert m.sensor_history[0, 0] == 3 and m.sensor_dim[0] == 3
    values = np.array([[1, 2, 3], [4, 5, 6], [7, 8, 9]], dtype=float)
    conesim.init_sensor_history(m, d, 0, [0.0, 0.01, 0.02], values, phase=0.0)
    result = np.zeros(3)
    out = conesim.read_sensor(m, d, 0, 0.02, result, interp=0)
    assert out is result
    np.testing.assert_array_equal(result, [4, 5, 6])
    conesim.init_sensor_history(m, d, "accel", None, values + 9)
    np.testing.assert_array_equal(conesim.read_sensor(m, d, 0, 0.02, interp=0), [13, 14, 15])
    # linear halfway between the samples at 0 and 0.01 (read at 0.015 - delay)
    np.testing.assert_allclose(conesim.read_sensor(m, d, 0, 0.015, interp=1),
                               [11.5, 12.5, 13.5], atol=1e-12)
    with pytest.raises(TypeError):
        conesim.read_sensor(m, d, 0, 0.02, np.zeros(2), interp=0)
    with pytest.raises(TypeError):
        conesim.init_sensor_history(m, d, 0, np.zeros(2), values)
    with pytest.raises(TypeError):
        conesim.init_sensor_history(m, d, 0, [0.0, 0.01, 0.02], np.zeros((4, 3)))


def test_delayed_motor_and_state():
    """a motor delayed by two steps applies the control of two steps before; the history
    is part of the state, so a data given it steps alike"""
    m = conesim.Model.from_xml_string(
        """<mujoco><option timestep="0.01" gravity="0 0 0"/><worldbody><body>
        <joint name="s" type="slide"/><geom size="0.1" mass="1"/></body></worldbody>
        <actuator><motor joint="s" delay="0.02" nsample="2"/></actuator></mujoco>""")
    d = conesim.Data(m)
    assert m.nhistory == 2 + 2 * 2 and d.history.shape == (m.nhistory,)
    forces = []
    for k in range(6):
        d.ctrl[0] = 10.0 * (k + 1)
        conesim.step(m, d)
        forces.append(d.actuator_force[0])
    assert forces == [0.0, 0.0, 10.0, 20.0, 30.0, 40.0]
    s = conesim.get_state(m, d, conesim.STATE_INTEGRATION)
    e = conesim.Data(m)
    conesim.set_state(m, e, s, conesim.STATE_INTEGRATION)
    for x in (d, e):
        x.ctrl[0] = -3.0
        conesim.step(m, x)
    assert e.actuator_force[0] == d.actuator_force[0] == 50.0
    assert np.array_equal(e.qvel, d.qvel)
    with pytest.raises(ValueError):  # MuJoCo's mjd_transitionFD refuses delays
        conesim.transition_fd(m, d)


def test_state_bits_are_mujocos():
    assert (conesim.STATE_HISTORY, conesim.STATE_WARMSTART, conesim.STATE_MOCAP_QUAT) == \
        (1 << 4, 1 << 5, 1 << 11)
    assert conesim.STATE_PHYSICS & conesim.STATE_HISTORY


def _oracle():
    import os
    import shutil
    d = os.path.join(os.path.dirname(os.environ.get("CONESIM_SCENES", "scenes")), "tests",
                     "oracle")
    if not shutil.which("node") or not os.path.exists(
            os.path.join(d, "node_modules", "@mujoco", "mujoco", "package.json")):
        pytest.skip("MuJoCo's WebAssembly build (tests/oracle, npm ci) is not installed")
    return d


def test_controls_agree_with_mujoco():
    """tests/data/sensors_delay.xml with a control set before every step (delay_ctrl.mjs's
    sequence), 300 steps: the forces, the sensors and the buffers are MuJoCo 3.12's"""
    import json
    import math
    import os
    import subprocess
    oracle = _oracle()
    scene = os.path.join(os.path.dirname(oracle), "data", "sensors_delay.xml")
    n = 300
    out = subprocess.run(["node", os.path.join(oracle, "delay_ctrl.mjs"), scene, str(n)],
                         cwd=oracle, capture_output=True, text=True, check=True).stdout
    ref = [json.loads(line) for line in out.splitlines()]
    m = conesim.Model.from_xml_path(scene)
    d = conesim.Data(m)
    conesim.reset_data_keyframe(m, d, 0)
    worst = {}
    for k in range(n):
        for u in range(m.nu):
            d.ctrl[u] = math.sin(0.3 * k) * 5 + (k % 3) + u
        conesim.step(m, d)
        for f, ours in (("qpos", d.qpos), ("force", d.actuator_force),
                        ("sensordata", d.sensordata), ("history", d.history)):
            e = float(np.max(np.abs(np.asarray(ref[k][f]) - ours)))
            worst[f] = max(worst.get(f, 0.0), e)
    print("worst differences:", worst)
    # the ball's contact is solved to the solver's tolerance: its accelerometer, reading the
    # impact, differs most
    assert worst["qpos"] < 1e-10 and worst["force"] < 1e-9
    assert worst["sensordata"] < 1e-6 and worst["history"] < 1e-6
