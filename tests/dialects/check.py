"""Home-engine oracle for Python's `re`: full match of base64 lines (see README.md)."""
import base64
import re
import sys
import unicodedata


def parse_ranges(text):
    """The code points of `lo-hi,c,...` (hex), surrogates left out."""
    for part in filter(None, text.split(",")):
        lo, _, hi = part.partition("-")
        for code in range(int(lo, 16), int(hi or lo, 16) + 1):
            if not 0xD800 <= code <= 0xDFFF:
                yield code


def format_ranges(codes):
    """`codes` (ascending) as `lo-hi,c,...` (hex)."""
    runs = []
    for code in codes:
        if runs and runs[-1][1] + 1 == code:
            runs[-1][1] = code
        else:
            runs.append([code, code])
    return ",".join("%x" % lo if lo == hi else "%x-%x" % (lo, hi) for lo, hi in runs)


def assigned():
    """The Unicode version and the assigned code points, as the `V` answer."""
    codes = (c for c in range(0x110000) if unicodedata.category(chr(c)) not in ("Cn", "Cs"))
    return "v %s %s" % (unicodedata.unidata_version, format_ranges(codes))


def full_match(text):
    """Whether `pattern` matches all of `text`. CPython's own errors while matching (a
    `SystemError` from `re` on a capturing group's span, 3.11) answer no match, said on
    stderr once per pattern, rather than end the batch."""
    global reported
    try:
        return pattern is not None and pattern.fullmatch(text) is not None
    except Exception as err:  # noqa: BLE001 - any error of the engine itself
        if not reported:
            sys.stderr.write("check.py: matching %r failed: %r\n" % (pattern.pattern, err))
            reported = True
        return False


pattern = None
reported = False
out = []
for line in sys.stdin:
    kind, _, data = line.rstrip("\n").partition(" ")
    if not kind:
        continue
    if kind == "A":
        match = pattern.fullmatch if pattern is not None else (lambda _: None)
        codes = [c for c in parse_ranges(data) if match(chr(c))]
        out.append(("r " + format_ranges(codes)).rstrip())
        continue
    if kind == "V":
        out.append(assigned())
        continue
    text = base64.b64decode(data.split(" ")[0]).decode("utf-8")
    if kind == "P":
        reported = False
        try:
            pattern = re.compile(text)
            out.append("ok")
        # A count past `re`'s bound raises OverflowError, not re.error.
        except (re.error, OverflowError):
            pattern = None
            out.append("E")
    else:
        out.append("1" if full_match(text) else "0")
sys.stdout.write("\n".join(out) + "\n")
