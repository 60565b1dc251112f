"""The README's Python examples for the model written in place, sites and keyframes by name,
and Jacobians, inverse dynamics and derivatives run as printed (from the source tree)."""
import os
import re

import pytest

ROOT = os.path.dirname(os.environ["CONESIM_SCENES"])
README = os.path.join(ROOT, "README.md")


def blocks(after):
    """The ```python blocks of the README section whose heading is `after` (up to the next
    heading of the same or a higher level)."""
    with open(README, encoding="utf-8") as f:
        text = f.read()
    lines = text[text.index(after) + len(after):].split("\n")
    level, fenced, section = len(after.split(" ")[0]), False, []
    for line in lines:  # up to the next heading outside the code blocks
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and re.match(r"#{1,%d} " % level, line):
            break
        section.append(line)
    section = "\n".join(section)
    return re.findall(r"```python\n(.*?)```", section, re.S)


def conesim_call(env, name, *args, **kw):
    return getattr(env["conesim"], name)(*args, **kw)


@pytest.mark.parametrize("heading,index", [
    ("#### Writing the model's arrays in place", 0),
    ("#### Jacobians, inverse dynamics and derivatives", 0),
    ("#### Jacobians, inverse dynamics and derivatives", 1),
    ("#### Named access", 1),
])
def test_readme_example_runs(heading, index, monkeypatch, capsys):
    code = blocks(heading)[index]
    monkeypatch.chdir(ROOT)
    env = {}
    exec(compile("import conesim\nimport numpy as np\n" + code, f"README {heading}", "exec"),
         env)
    if "jac_body" in code:  # what the example says it shows
        assert env["A"].shape == (2 * env["m"].nv + env["m"].na,) * 2
        assert env["np"].allclose(env["d"].qfrc_inverse,
                                  env["d"].qfrc_applied + env["d"].qfrc_actuator, atol=1e-8)
    if "read_ctrl" in code:  # the values its comments give
        m, d = env["m"], env["d"]
        assert conesim_call(env, "read_ctrl", m, d, "u", 0.035) == pytest.approx(2.5, abs=1e-12)
        assert conesim_call(env, "read_ctrl", m, d, "u", 0.035, interp=0) == 2.0
        assert list(conesim_call(env, "read_sensor", m, d, "q", 0.0)) == [1, 0, 0, 0]
    if "reset_data_keyframe" in code:
        assert env["d"].tendon("t").length[0] == pytest.approx(-2.4)
    if "must not be negative" in code:
        assert "must not be negative" in capsys.readouterr().out
