#!/usr/bin/env python3
"""Memory one photo decode takes, per kind of file, against the cost the header promised.

For each kind (phone JPEGs, a progressive JPEG, HEIC, big PNGs in 8 and 16 bits and with
alpha, WebP, a palette GIF, the issue's crafted PNGs) the file is made once, then decoded
by ``vision.imageio.load_image`` in a fresh subprocess: peak RSS growth (``VmHWM`` after
the decode minus before), wall time, and ``probe``'s cost (the memory reserved for it, or
the refusal).  With ``--base REV`` the same files also go through that revision's
``load_image`` (``git archive``), for a before/after.

Kinds that would take gigabytes before (the issue's 10950 x 10950 PNGs) are left out of
the base run unless ``--base-all``.

Example: nice -n 19 python scripts/bench_decode.py --base main --json runs/bench_decode.json
"""

from __future__ import annotations

import argparse
import io
import json
import os
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

CHILD = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
def hwm():
    return next(int(x.split()[1]) for x in open("/proc/self/status") if x.startswith("VmHWM:")) / 1024
import numpy, PIL.Image
from vision.imageio import load_image
import vision.imageio as vio
try:
    import pillow_heif
    pillow_heif.register_heif_opener()
except ImportError:
    pass
data = open(sys.argv[2], "rb").read()
out = {}
if hasattr(vio, "probe"):
    try:
        out["cost_mib"] = vio.probe(data).cost / 2**20
    except Exception as e:
        out["refused"] = str(e)
if "refused" not in out:
    before = hwm()
    t = time.perf_counter()
    try:
        a = load_image(data)
        out["shape"] = list(getattr(a, "array", None).shape if hasattr(a, "array") else a.image.size)
    except Exception as e:
        out["error"] = str(e)[:200]
    out["seconds"] = time.perf_counter() - t
    out["grew_mib"] = hwm() - before
print(json.dumps(out))
"""

HEAVY = ("png16-crafted", "png8-crafted")


def _photo(w: int, h: int):
    import numpy as np
    from PIL import Image

    rng = np.random.default_rng(0)
    small = rng.integers(0, 255, (h // 16 + 1, w // 16 + 1, 3), dtype=np.uint8)
    return Image.fromarray(small).resize((w, h), Image.Resampling.BILINEAR)


def _save(im, fmt: str, **kw) -> bytes:
    buf = io.BytesIO()
    im.save(buf, fmt, **kw)
    return buf.getvalue()


def kinds() -> dict[str, tuple[str, object]]:
    """name -> (description, a function making the file's bytes)."""
    from bench_uploads import png_header
    from PIL import Image

    def heic(w, h):
        import pillow_heif

        pillow_heif.register_heif_opener()
        return _save(_photo(w, h), "HEIF", quality=80)

    return {
        "jpeg12": ("12 MP JPEG (4032x3024)", lambda: _save(_photo(4032, 3024), "JPEG", quality=90)),
        "jpeg48": ("48 MP JPEG (8064x6048)", lambda: _save(_photo(8064, 6048), "JPEG", quality=90)),
        "prog48": ("48 MP progressive JPEG (8064x6048)",
                   lambda: _save(_photo(8064, 6048), "JPEG", quality=90, progressive=True)),
        "heic12": ("12 MP HEIC (4032x3024)", lambda: heic(4032, 3024)),
        "heic24": ("24 MP HEIC (5712x4284)", lambda: heic(5712, 4284)),
        "png-rgb24": ("24 MP RGB PNG (5712x4284)", lambda: _save(_photo(5712, 4284), "PNG", compress_level=1)),
        "png-rgba12": ("12 MP RGBA PNG (4032x3024)",
                       lambda: _save(_photo(4032, 3024).convert("RGBA"), "PNG", compress_level=1)),
        "png16-36": ("36 MP 16-bit greyscale PNG (6000x6000)",
                     lambda: _save(Image.new("I;16", (6000, 6000), 30000), "PNG")),
        "webp16": ("16 MP WebP (4608x3456)", lambda: _save(_photo(4608, 3456), "WEBP", quality=80)),
        "gif48": ("48 MP palette GIF (8000x6000)", lambda: _save(Image.new("P", (8000, 6000)), "GIF")),
        "png8-crafted": ("the issue's 117 KB 8-bit greyscale PNG (10950x10950)",
                         lambda: png_header(10950, 10950, 8, 0)),
        "png16-crafted": ("the issue's 233 KB 16-bit greyscale PNG (10950x10950)",
                          lambda: png_header(10950, 10950, 16, 0)),
    }


def export_tree(rev: str, dest: Path) -> Path:
    blob = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", rev, "vision", "referee"],
                          check=True, capture_output=True).stdout
    with tarfile.open(fileobj=io.BytesIO(blob)) as tar:
        tar.extractall(dest, filter="data")
    return dest


def measure(tree: Path, path: Path) -> dict:
    env = dict(os.environ, PYTHONPATH="")
    r = subprocess.run([sys.executable, "-c", CHILD, str(tree), str(path)], capture_output=True, text=True,
                       env=env, cwd=tree, timeout=600, check=False)
    if r.returncode != 0:
        return {"crashed": (r.stderr.strip().splitlines() or ["?"])[-1]}
    return json.loads(r.stdout.strip().splitlines()[-1])


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--base", default=None, help="also measure this git revision's load_image")
    p.add_argument("--base-all", action="store_true", help="include the kinds that take gigabytes before")
    p.add_argument("--only", nargs="*", default=None, help="kinds to run (default: all)")
    p.add_argument("--json", type=Path, default=None)
    a = p.parse_args(argv)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        base = export_tree(a.base, tmp / "base") if a.base else None
        for name, (desc, make) in kinds().items():
            if a.only and name not in a.only:
                continue
            path = tmp / name
            path.write_bytes(make())
            row = {"kind": name, "file": desc, "bytes": path.stat().st_size, "after": measure(ROOT, path)}
            if base is not None and (a.base_all or name not in HEAVY):
                row["before"] = measure(base, path)
            rows.append(row)
            print(json.dumps(row), flush=True)
    if a.json:
        a.json.parent.mkdir(parents=True, exist_ok=True)
        a.json.write_text(json.dumps({"base": a.base, "rows": rows}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
