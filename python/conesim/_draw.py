"""What the plots and figures share: matplotlib on the Agg backend (no display), saving by
the file's extension, the CSV of numbers, and the command-line exit codes."""
import csv
import os
import sys

FORMATS = (".png", ".svg", ".pdf")
# the exit codes of the conesim command
EXIT_USAGE, EXIT_INPUT, EXIT_OUTPUT, EXIT_NOPLOT = 2, 3, 4, 5


class DrawError(ValueError):
    """Bad arguments, input or output, with the exit code the command reports it with."""

    def __init__(self, code, message):
        super().__init__(message)
        self.code = code


def _mpl():
    try:
        import matplotlib
    except ImportError:
        raise DrawError(EXIT_NOPLOT, "matplotlib is missing: install it (Debian: "
                        "apt-get install python3-matplotlib)") from None
    matplotlib.use("Agg", force=True)
    return matplotlib


def figure(size):
    """A figure not tied to any window."""
    _mpl()
    from matplotlib.figure import Figure
    return Figure(figsize=size, layout="constrained")


def colormap(name):
    return _mpl().colormaps[name]


def check_out(path):
    ext = os.path.splitext(str(path))[1].lower()
    if ext not in FORMATS:
        raise DrawError(EXIT_USAGE, f"{path}: the output must end in .png, .svg or .pdf")


DPI = 110  # raster resolution; the commands' --dpi


def save(fig, path, dpi=None):
    dpi = dpi or DPI
    check_out(path)
    try:
        fig.savefig(path, dpi=dpi)
    except OSError as e:
        raise DrawError(EXIT_OUTPUT, f"{path}: cannot write: {e.strerror or e}") from None


def write_data(path, rows):
    if not path:
        return
    try:
        with open(path, "w", newline="") as fh:
            w = csv.writer(fh, lineterminator="\n")
            w.writerow(("name", "value"))
            for name, value in rows:
                if isinstance(value, float):
                    value = repr(value)
                w.writerow((name, "" if value is None else value))
    except OSError as e:
        raise DrawError(EXIT_OUTPUT, f"{path}: cannot write: {e.strerror or e}") from None


def fail(e, prog):
    print(f"{prog}: {e}", file=sys.stderr)
    sys.exit(e.code)
