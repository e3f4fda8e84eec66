"""Keywords as the flags of the ``tomo`` command that does the same job.

The C++ side parses them with that command's own parser, so ``center=1023.5`` means what
``tomo recon --center 1023.5`` means and a bad value gives the same message.
"""
import numbers
import os


def flag_text(value):
    """The text a flag takes for ``value``: numbers exactly (repr round-trips a double),
    sequences joined by commas, paths as strings."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, numbers.Integral):
        return str(int(value))
    if isinstance(value, numbers.Real):
        return repr(float(value))
    if isinstance(value, (str, os.PathLike)):
        return os.fspath(value)
    if isinstance(value, (tuple, list)):
        return ",".join(flag_text(v) for v in value)
    raise TypeError(f"cannot pass a {type(value).__name__} as a flag value")


def flag_name(keyword):
    """``pixel_size`` -> ``pixel-size``."""
    return keyword.replace("_", "-")


def to_flags(keywords, switches=()):
    """``{"center": 1.5, "no_log": True}`` -> ``["--center=1.5", "--no-log"]``.

    None values are left out (the flag's default). Keywords named in ``switches`` are flags
    without a value: True adds them, False leaves them out.
    """
    flags = []
    for key, value in keywords.items():
        if value is None:
            continue
        if key in switches:
            if value:
                flags.append("--" + flag_name(key))
            continue
        flags.append(f"--{flag_name(key)}={flag_text(value)}")
    return flags


def option_help(options, names):
    """Docstring lines for ``names`` from the ``tomo`` parser's option list."""
    by_name = {o["name"]: o for o in options}
    lines = []
    for name in names:
        o = by_name.get(flag_name(name))
        if o is None:
            continue
        default = f" (default: {o['default']})" if o["default"] not in (None, "") else ""
        lines.append(f"    {name}: {o['help']}{default}")
    return "\n".join(lines)
