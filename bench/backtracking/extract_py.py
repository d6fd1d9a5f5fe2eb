"""Literal patterns of `re` calls in Python sources, one JSON line each (dialect python)."""
import ast, json, os, sys

FUNCS = {"compile", "match", "fullmatch", "search", "sub", "subn", "split", "findall", "finditer"}
FLAG_NAMES = {"I": "i", "IGNORECASE": "i", "M": "m", "MULTILINE": "m", "S": "s", "DOTALL": "s",
              "X": "x", "VERBOSE": "x", "A": "a", "ASCII": "a", "U": "", "UNICODE": ""}

def flags_of(node):
    if node is None:
        return ""
    if isinstance(node, ast.Attribute) and node.attr in FLAG_NAMES:
        return FLAG_NAMES[node.attr]
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        left, right = flags_of(node.left), flags_of(node.right)
        return None if left is None or right is None else left + right
    return None

def main(root, label):
    seen = set()
    for dirpath, dirs, names in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in ("test", "tests", "idlelib", "site-packages", "__pycache__"))
        for name in sorted(names):
            if not name.endswith(".py"):
                continue
            path = os.path.join(dirpath, name)
            try:
                tree = ast.parse(open(path, encoding="utf-8").read())
            except Exception:
                continue
            for node in ast.walk(tree):
                if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                        and node.func.attr in FUNCS and isinstance(node.func.value, ast.Name)
                        and node.func.value.id == "re" and node.args
                        and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
                    continue
                flag_arg = None
                if node.func.attr in ("compile",) and len(node.args) > 1:
                    flag_arg = node.args[1]
                elif node.func.attr in ("match", "fullmatch", "search", "findall", "finditer") and len(node.args) > 2:
                    flag_arg = node.args[2]
                for kw in node.keywords:
                    if kw.arg == "flags":
                        flag_arg = kw.value
                flags = flags_of(flag_arg)
                if flags is None:
                    continue
                pattern = node.args[0].value
                if (pattern, flags) in seen:
                    continue
                seen.add((pattern, flags))
                rel = os.path.relpath(path, root)
                print(json.dumps({"dialect": "python", "pattern": pattern, "flags": flags,
                                  "source": f"{label} {rel}:{node.lineno}"}))

main(sys.argv[1], sys.argv[2])
