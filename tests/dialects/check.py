"""Home-engine oracle for Python's `re`: full match of base64 lines (see README.md)."""
import base64
import re
import sys

pattern = None
out = []
for line in sys.stdin:
    kind, _, data = line.rstrip("\n").partition(" ")
    if not kind:
        continue
    text = base64.b64decode(data).decode("utf-8")
    if kind == "P":
        try:
            pattern = re.compile(text)
            out.append("ok")
        except re.error:
            pattern = None
            out.append("E")
    else:
        out.append("1" if pattern is not None and pattern.fullmatch(text) else "0")
sys.stdout.write("\n".join(out) + "\n")
