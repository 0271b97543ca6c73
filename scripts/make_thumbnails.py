"""Make the small card pictures the web app ships: one WebP per card from one art set.

The picker shows these by default (players match cards far faster by picture than by name).
Only the thumbnails go into the project; the art sets stay in ``../shared/cards/art``.  The set
must be one whose licence allows it: Louie Mantia, Jr.'s deck (``mantia``) and the Hwatu deck
(``hwatu``) are CC BY-SA 4.0, so the thumbnails, an adaptation (rasterised and scaled down),
are CC BY-SA 4.0 too, and ``ATTRIBUTION.txt`` beside them (shown on the Credits page) says so.

    python scripts/make_thumbnails.py [ART_DIR] [--set mantia] [--out templates/static/cards] [--height 131]

Needs cairosvg (the ``vision`` or ``test`` extra) and Pillow with WebP.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
from pathlib import Path

from PIL import Image

ROOT = Path(__file__).resolve().parents[1]
#: Sets the project may ship thumbnails of, with the licence their attribution states.
LICENSED = {"mantia": "CC BY-SA 4.0", "hwatu": "CC BY-SA 4.0"}


def thumbnail(svg: Path, height: int) -> bytes:
    """One card face as a WebP ``height`` pixels tall (its own aspect), on white."""
    import cairosvg  # lazily: only this script needs it

    png = cairosvg.svg2png(url=str(svg), output_height=height * 2)
    im = Image.open(io.BytesIO(png)).convert("RGBA")
    flat = Image.new("RGB", im.size, "white")
    flat.paste(im, mask=im.getchannel("A"))
    flat = flat.resize((round(flat.width * height / flat.height), height), Image.LANCZOS)
    out = io.BytesIO()
    flat.save(out, "WEBP", quality=72, method=6)
    return out.getvalue()


def attribution(folder: Path, name: str) -> str:
    """The credit the thumbnails carry: the set's author, licence and source, and what was done, then the
    set's own notice as it is (Markdown, which the Credits page renders: ``referee.web.art.credit_html``)."""
    source = folder / "CREDITS.json"
    credits = json.loads(source.read_text(encoding="utf-8")) if source.is_file() else {}
    notice = next((folder / f for f in ("ATTRIBUTION.txt", "NOTICE.md") if (folder / f).is_file()), None)
    lines = [
        f"Card pictures: the {name!r} art set, {credits.get('author', 'see below')}, "
        f"{credits.get('license', LICENSED[name])} ({credits.get('licenseUrl', 'https://creativecommons.org/licenses/by-sa/4.0/')}).",
        f"Source: {credits.get('source', 'see below')}.",
        "Adapted: rasterised and scaled down to small WebP thumbnails by scripts/make_thumbnails.py; the",
        f"thumbnails are released under {LICENSED[name]} as well.",
    ]
    if notice is not None:
        lines += ["", f"The set's {notice.name}:", "", notice.read_text(encoding="utf-8").strip()]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("art", nargs="?", default=str(ROOT.parent / "shared" / "cards" / "art"))
    ap.add_argument("--set", default="mantia", choices=sorted(LICENSED))
    ap.add_argument("--out", default=str(ROOT / "templates" / "static" / "cards"))
    ap.add_argument("--height", type=int, default=131, help="pixels (the picker draws a face at most 92 px tall)")
    args = ap.parse_args(argv)
    folder = Path(args.art) / args.set
    rows = list(csv.DictReader((folder / "MAPPING.tsv").read_text(encoding="utf-8").splitlines(), delimiter="\t"))
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    mapping = ["file\tid"]
    for row in rows:
        name = f"{row['id']}.webp"
        (out / name).write_bytes(thumbnail(folder / row["file"], args.height))
        mapping.append(f"{name}\t{row['id']}")
    (out / "MAPPING.tsv").write_text("\n".join(mapping) + "\n", encoding="utf-8")
    (out / "ATTRIBUTION.txt").write_text(attribution(folder, args.set), encoding="utf-8")
    print(f"{len(rows)} thumbnails in {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
