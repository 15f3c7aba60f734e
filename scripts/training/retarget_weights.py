"""A copy of a weights file marked for another variant: how a variant tries a related variant's
network before it has one of its own (docs/experiments/training.md).

    python3 -m scripts.training.retarget_weights src/learned/russian.weights czech.weights \\
        --variant czech
    crownhead match --variant czech --engine "crownhead --eval-file czech.weights" \\
        --engine crownhead ...

The engine refuses weights marked for another variant than the one it plays, so the copy
differs from its source in the header's variant byte and the checksum only
(train_net_data.py describes the format). The copy is checked by the engine itself (`crownhead
evaluate --variant V --weights copy` of a small position) before the script says it is done,
so a variant code that disagreed with the engine's would fail here, not in a match.
"""

from __future__ import annotations

import argparse
import os
import struct
import subprocess
import sys

from scripts.training.train_net_data import VARIANTS, fnv1a, weights_body

VARIANT_BYTE = 5  # the header's variant byte


def retarget(data: bytes, variant: str) -> bytes:
    """The weights file `data` marked for `variant`, its checksum made good; a file that is not
    a whole, intact weights file is refused."""
    body = weights_body(data)
    body = body[:VARIANT_BYTE] + bytes([VARIANTS.index(variant)]) + body[VARIANT_BYTE + 1:]
    return body + struct.pack("<Q", fnv1a(body))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("source", help="a weights file (src/learned/russian.weights, say)")
    ap.add_argument("out", help="the copy to write")
    ap.add_argument("--variant", required=True, choices=VARIANTS)
    ap.add_argument("--binary", default=os.path.join("target", "release", "crownhead"),
                    help="the engine that checks the copy")
    a = ap.parse_args()
    try:
        with open(a.source, "rb") as f:
            out = retarget(f.read(), a.variant)
    except (OSError, ValueError) as e:
        print(f"error: {a.source}: {e}", file=sys.stderr)
        return 1
    with open(a.out, "wb") as f:
        f.write(out)
    check = subprocess.run([a.binary, "evaluate", "--variant", a.variant, "--weights", a.out],
                           input="W:W22:B11\n", capture_output=True, text=True)
    if check.returncode != 0:
        print(f"error: the engine refuses the copy: {check.stderr.strip()}", file=sys.stderr)
        return 1
    print(f"{a.out}: {a.source} marked {a.variant}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
