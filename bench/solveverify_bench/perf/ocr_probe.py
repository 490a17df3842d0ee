"""Seconds per image of the OCR reader, in a process of its own
(`python -m solveverify_bench.perf.ocr_probe --images 5`): a runtime that crashes takes this process
down, not `bench perf`, which reports it and goes on."""

from __future__ import annotations

import argparse
import json
import time


def seconds_per_image(images: int) -> float:
    from app.ocr.rapid import RapidOcrReader
    from solveverify_bench.images import draw_text

    reader = RapidOcrReader()
    drawn = [draw_text(f"{n}x + {n + 3} = {5 * n + 3}") for n in range(1, images + 1)]
    reader.read_sync(drawn[0])  # model load is not per image
    started = time.perf_counter()
    for image in drawn:
        reader.read_sync(image)
    return (time.perf_counter() - started) / len(drawn)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--images", type=int, default=5)
    args = parser.parse_args()
    print(json.dumps({"seconds_per_image": seconds_per_image(max(1, args.images))}))


if __name__ == "__main__":
    main()
