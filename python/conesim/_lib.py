"""Finds libconesim and declares the C functions the package calls (ctypes, no compiler)."""
import ctypes
import ctypes.util
import os

try:
    from ._install import LIBDIR  # written by meson install
except ImportError:  # a source tree: CONESIM_LIBRARY or the loader's path
    LIBDIR = None


def _open():
    names = []
    if os.environ.get("CONESIM_LIBRARY"):
        names.append(os.environ["CONESIM_LIBRARY"])
    if LIBDIR:
        names.append(os.path.join(LIBDIR, "libconesim.so.0"))
    names.append("libconesim.so.0")
    found = ctypes.util.find_library("conesim")
    if found:
        names.append(found)
    errors = []
    for n in names:
        try:
            return ctypes.CDLL(n)
        except OSError as e:
            errors.append(str(e))
    raise ImportError("conesim: cannot load libconesim (set CONESIM_LIBRARY): "
                      + "; ".join(errors))


lib = _open()


class Field(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("type", ctypes.c_int), ("ndim", ctypes.c_int),
                ("shape", ctypes.c_int * 2), ("stride", ctypes.c_int),
                ("ptr", ctypes.c_void_p)]


P = ctypes.c_void_p
I = ctypes.c_int
D = ctypes.c_double
S = ctypes.c_char_p
DP = ctypes.POINTER(ctypes.c_double)
FP = ctypes.POINTER(Field)


def _decl(name, res, *args):
    f = getattr(lib, name)
    f.restype = res
    f.argtypes = list(args)


_decl("cs_version", S)
_decl("cs_load_xml", P, S, P, ctypes.c_char_p, ctypes.c_size_t)
_decl("cs_load_xml_string", P, S, S, P, ctypes.c_char_p, ctypes.c_size_t)
_decl("cs_free_model", None, P)
_decl("cs_make_data", P, P)
_decl("cs_free_data", None, P)
_decl("cs_reset", None, P, P)
_decl("cs_reset_key", I, P, P, I)
_decl("cs_step", None, P, P)
_decl("cs_forward", None, P, P)
_decl("cs_contact_force", None, P, P, I, DP)
_decl("cs_name2id_body", I, P, S)
_decl("cs_name2id_geom", I, P, S)
_decl("cs_name2id_joint", I, P, S)
_decl("cs_name2id_actuator", I, P, S)
_decl("cs_name2id_ctrl", I, P, S)
_decl("cs_ctrl_label", S, P, I, ctypes.c_char_p, ctypes.c_size_t)
_decl("cs_option_set", I, P, S, S, ctypes.c_char_p, ctypes.c_size_t)
_decl("cs_model_field", I, P, I, FP)
_decl("cs_data_field", I, P, P, I, FP)
_decl("cs_option_field", I, P, I, FP)
_decl("cs_model_option", P, P)
_decl("cs_contact_field", I, P, I, I, FP)
_decl("cs_energy_kinetic", D, P, P)
_decl("cs_energy_potential", D, P, P)
_decl("cs_cone_capacity", D, D, D, D, D)
_decl("cs_id2name", S, P, S, I)
_decl("cs_name2id", I, P, S, S)
_decl("cs_contact_array_field", I, P, I, FP)
_decl("cs_rollout_nstate", I, P)
_decl("cs_rollout", I, P, I, DP, DP, I, I, DP)
_decl("cs_copy_model", P, P)
_decl("cs_state_size", I, P, I)
_decl("cs_get_state", I, P, P, DP, I)
_decl("cs_set_state", I, P, P, DP, I)
_decl("cs_rollout_spec", I, P, I, I, DP, DP, I, I, DP)
_decl("cs_rollout_sensors", I, P, I, I, DP, DP, I, I, DP, DP)
_decl("cs_copy_data", P, P, P)
_decl("cs_check_finite", I, P, P)
_decl("cs_setv", I, P, S, DP, I, ctypes.c_char_p, ctypes.c_size_t)
_decl("cs_getv", I, P, S, DP, I, ctypes.c_char_p, ctypes.c_size_t)
_decl("cs_set_count", I, P, S)
_decl("cs_set_text", I, P, S, S, ctypes.c_char_p, ctypes.c_size_t)
_decl("cs_load_xml_edit", P, S, I, ctypes.POINTER(S), ctypes.POINTER(S), P, ctypes.c_char_p,
      ctypes.c_size_t)
_decl("cs_load_xml_flags", P, S, ctypes.c_uint, I, ctypes.POINTER(S), ctypes.POINTER(S), P,
      ctypes.c_char_p, ctypes.c_size_t)
LOAD_NO_TEXELS = 1  # conesim.h CS_LOAD_NO_TEXELS
_decl("cs_watch_model", P, P)
_decl("cs_watch_commit", I, P, P, ctypes.c_char_p, ctypes.c_size_t)
_decl("cs_watch_free", None, P)
_decl("cs_settable_field", S, I)
_decl("cs_contact_zone_name", S, I)
_decl("cs_jac", None, P, P, I, DP, DP, DP)
_decl("cs_jac_body", None, P, P, I, DP, DP)
_decl("cs_jac_body_com", None, P, P, I, DP, DP)
_decl("cs_jac_site", None, P, P, I, DP, DP)
_decl("cs_inverse", I, P, P, ctypes.c_char_p, ctypes.c_size_t)
_decl("cs_transition_fd", I, P, P, D, I, DP, DP)
_decl("cs_differentiate_pos", None, P, DP, D, DP, DP)
_decl("cs_read_ctrl", D, P, P, I, D, I)
_decl("cs_read_sensor", I, P, P, I, D, DP, I)
_decl("cs_init_ctrl_history", I, P, P, I, DP, DP)
_decl("cs_init_sensor_history", I, P, P, I, DP, DP, D)
