"""Error labels of grounded answers (design-notes, the verifier benchmark harness).

The schema's labels: `supported` (correct, cites the evidence that carries it), `unsupported`
(states what the evidence does not), `wrong_citation` (true, but cites the wrong passage),
`omission` (leaves out the evidence or the citation the answer needs). A dataset labels its
candidate answers; an answer it does not label (a generated one) falls back to token F1
against the gold answer plus the gold citations, and the record says which source decided.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from solveverify_bench.datasets import ErrorLabel, GroundedExample

ERROR_LABELS: tuple[ErrorLabel, ...] = ("supported", "unsupported", "wrong_citation", "omission")
# The failure bucket each error label falls into (the harness's failure modes).
BUCKETS: dict[str, str] = {
    "unsupported": "unsupported claim",
    "wrong_citation": "wrong citation",
    "omission": "evidence omission",
}
F1_THRESHOLD = 0.5

CITE = re.compile(r"\[cite:\s*([^\]\s]+)\s*\]")


def tokens(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+|[\u4e00-\u9fff]", text.lower())


def token_f1(prediction: str, gold: str) -> float:
    p, g = tokens(CITE.sub("", prediction)), tokens(gold)
    common = sum(min(p.count(t), g.count(t)) for t in set(p))
    if not p or not g or not common:
        return 0.0
    precision, recall = common / len(p), common / len(g)
    return 2 * precision * recall / (precision + recall)


def _key(answer: str) -> str:
    return " ".join(tokens(answer)) + "|" + ",".join(sorted(CITE.findall(answer)))


def fallback_label(example: GroundedExample, answer: str) -> ErrorLabel:
    """Token F1 ≥ 0.5 for the content; the citations decide between the error kinds."""
    if token_f1(answer, example.gold_answer) < F1_THRESHOLD:
        return "unsupported"
    cited = set(CITE.findall(answer))
    gold = {g.evidence_id for g in example.gold_citations}
    if not cited:
        return "omission"
    if gold and not gold & cited:
        return "wrong_citation"
    return "supported"


def label_answers(
    example: GroundedExample, answers: Sequence[str]
) -> tuple[list[ErrorLabel], list[str]]:
    """Each answer's error label and where it came from ("dataset" or "token_f1")."""
    known = {_key(c.answer): c.label for c in example.candidates}
    labels: list[ErrorLabel] = []
    sources: list[str] = []
    for answer in answers:
        label = known.get(_key(answer))
        labels.append(label if label is not None else fallback_label(example, answer))
        sources.append("dataset" if label is not None else "token_f1")
    return labels, sources
