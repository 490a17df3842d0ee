"""`bench steps` with every backend: stub, a live OpenAI-compatible critic (a loopback server
speaking the wire protocol, through the OpenAI SDK), its replies recorded, and the recording
replayed offline with the same results; a critique calibrator fitted on the run's labelled
claims and then used as the judge's bar."""

from __future__ import annotations

import json
from pathlib import Path

from app.verification.calibration import Calibrator
from app.verification.step_critique import critique_messages
from solveverify_bench.fake_llm import FakeLLMServer, Reply
from solveverify_bench.steps_replay import RecordedCritique, load_critiques, prompt_key
from tests.fixtures.processes import run_cli

PROBLEM = "A baker fills 7 trays with 13 muffins each and sells all but 5. How many are sold?"
PROSE = [
    "First count the muffins on the trays.",
    "Then take away the ones that are kept.",
    "That leaves the number sold.",
]
ENV = {"SOLVEVERIFY_LLAMACPP_ENABLED": "false"}


def samples(n: int) -> list[dict]:
    """Prose steps the symbolic checks cannot read, so the critique decides; labels cycle
    through "no error" and each step."""
    return [
        {
            "id": f"gsm8k-{i}",
            "problem": f"{PROBLEM} (tray set {i})",
            "steps": PROSE,
            "label": (i % 4) - 1,
            "generator": "Qwen2.5-Math-7B-Instruct",
        }
        for i in range(n)
    ]


def write(tmp_path: Path, items: list[dict]) -> Path:
    data = tmp_path / "pb.json"
    data.write_text(json.dumps(items))
    return data


def bench(tmp_path: Path, *args: str, env: dict[str, str] | None = None) -> dict:
    result = run_cli(
        "bench", "steps", *args, "--out-dir", str(tmp_path / "out"), cwd=tmp_path,
        env={**ENV, **(env or {})},
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_a_live_run_is_recorded_and_replays_offline(tmp_path: Path) -> None:
    items = samples(6)
    data = write(tmp_path, items)
    fake = FakeLLMServer(
        default=Reply(json.dumps({"earliest_error_step": 1, "confidence": 0.9}))
    ).start()
    try:
        live = bench(
            tmp_path, "--data", str(data), "--backend", "openai_compatible",
            "--record", str(tmp_path / "critiques.jsonl"),
            env={
                "SOLVEVERIFY_OPENAI_COMPATIBLE_BASE_URL": f"{fake.url}/v1",
                "SOLVEVERIFY_OPENAI_COMPATIBLE_MODEL": "critic-model",
            },
        )  # fmt: skip
        asked = len(fake.requests)
    finally:
        fake.stop()
    assert asked == 6 and live["recorded"]["replies"] == 6
    records = load_critiques(tmp_path / "critiques.jsonl")
    keys = {prompt_key(critique_messages(i["problem"], i["steps"])): i["id"] for i in items}
    assert {r.key: r.id for r in records} == keys  # each reply under its prompt and sample
    assert {(r.provider, r.model) for r in records} == {("openai_compatible", "critic-model")}

    # The server is gone: the replay answers every critique from the recording.
    replayed = bench(
        tmp_path, "--data", str(data), "--backend", "replay",
        "--replay", str(tmp_path / "critiques.jsonl"),
    )  # fmt: skip
    live.pop("recorded")
    assert replayed == live
    assert replayed["backend"] == "openai_compatible:critic-model"
    assert replayed["overall"]["model"] == {"flagged": 6}
    # The critic names step 1 everywhere: right on the samples labelled 1.
    assert replayed["overall"]["processbench"]["accuracy_erroneous"] == round(1 / 4, 4)


def recorded_claims(items: list[dict]) -> list[RecordedCritique]:
    """A critic that is right when sure (0.9 to 0.98) and wrong when unsure (0.55 to 0.65):
    one sample in three gets an unsure, wrong claim."""
    records = []
    for n, item in enumerate(items):
        unsure = n % 3 == 0
        claimed = (item["label"] + 2) % 4 - 1 if unsure else item["label"]
        confidence = 0.55 + (n % 5) * 0.025 if unsure else 0.9 + (n % 5) * 0.02
        reply = {"earliest_error_step": claimed, "confidence": confidence}
        records.append(
            RecordedCritique(
                key=prompt_key(critique_messages(item["problem"], item["steps"])),
                provider="openai_compatible",
                model="critic-model",
                text=json.dumps(reply),
                data=reply,
                id=item["id"],
            )
        )
    return records


def test_a_calibrator_is_fitted_on_labelled_claims_and_then_judges(tmp_path: Path) -> None:
    items = samples(90)
    data = write(tmp_path, items)
    replay = tmp_path / "critiques.jsonl"
    replay.write_text("".join(r.line() + "\n" for r in recorded_claims(items)))
    calibration = tmp_path / "step_critique_calibration.json"

    raw = bench(
        tmp_path, "--data", str(data), "--backend", "replay", "--replay", str(replay),
        "--fit-calibration", str(calibration), "--target-precision", "0.8",
    )  # fmt: skip
    # Uncalibrated, a stated confidence must reach the raw verified threshold (0.8): the
    # unsure claims fall below it, the sure ones stand.
    assert raw["overall"]["model"] == {"below_bar": 30, "flagged": 45, "no_error": 15}
    assert raw["critique_calibrated"] is False
    fitted = Calibrator.load(calibration)
    assert fitted.sources == {"step_critique": 90} and fitted.target_precision == 0.8
    assert fitted.threshold is not None and fitted.precision_lower_bound is not None
    assert fitted.precision_lower_bound >= 0.8
    assert raw["fitted_calibration"]["threshold"] == fitted.threshold
    # Its claims' ranking, measured on the held-out claims, admits the critic (sure claims are
    # right, unsure ones wrong: they separate perfectly).
    assert fitted.measured_on == "openai_compatible:critic-model"
    assert fitted.auroc == 1.0 and raw["fitted_calibration"]["admitted"] is True

    judged = bench(
        tmp_path, "--data", str(data), "--backend", "replay", "--replay", str(replay),
        "--calibration", str(calibration),
    )  # fmt: skip
    assert judged["critique_calibrated"] is True
    # Under the fitted threshold the sure claims (all right) stand and the unsure (all wrong)
    # do not: every claim that stood is right.
    assert judged["overall"]["model"] == {"below_bar": 30, "flagged": 45, "no_error": 15}
    pb = judged["overall"]["processbench"]
    # 23 correct samples (8 unsure claims set aside: "no error found"), 67 erroneous.
    assert (pb["accuracy_correct"], pb["accuracy_erroneous"]) == (1.0, round(45 / 67, 4))
    results = (tmp_path / "out" / "results.jsonl").read_text().splitlines()
    rows = [json.loads(line) for line in results]
    assert rows and all(
        r["critique"]["claimed"] == r["label"] for r in rows if r["critique"]["stands"]
    )
    assert all(r["critique"]["calibrated"] for r in rows)


def test_a_critic_whose_confidence_tells_nothing_is_not_admitted(tmp_path: Path) -> None:
    """The same claims, each stated at 0.9 whether right or wrong: no claim can be told from
    another, the AUROC is 0.5, under the admission bar (0.70): the critique is not asked."""
    items = samples(90)
    data = write(tmp_path, items)
    replay = tmp_path / "critiques.jsonl"
    flat = []
    for r in recorded_claims(items):
        reply = {**r.data, "confidence": 0.9}
        flat.append(RecordedCritique(r.key, r.provider, r.model, json.dumps(reply), reply, r.id))
    replay.write_text("".join(r.line() + "\n" for r in flat))
    calibration = tmp_path / "step_critique_calibration.json"
    raw = bench(
        tmp_path, "--data", str(data), "--backend", "replay", "--replay", str(replay),
        "--fit-calibration", str(calibration), "--target-precision", "0.8",
    )  # fmt: skip
    fitted = Calibrator.load(calibration)
    assert fitted.auroc is not None and fitted.auroc < 0.7
    assert raw["fitted_calibration"]["admitted"] is False


def test_a_prompt_missing_from_the_recording_is_an_abstention(tmp_path: Path) -> None:
    items = samples(3)
    data = write(tmp_path, items)
    replay = tmp_path / "critiques.jsonl"
    replay.write_text(recorded_claims(items)[1].line() + "\n")  # only sample 1 was recorded
    summary = bench(tmp_path, "--data", str(data), "--backend", "replay", "--replay", str(replay))
    assert summary["overall"]["model"] == {"abstained": 2, "flagged": 1}


def test_replay_needs_a_recording_and_record_a_live_backend(tmp_path: Path) -> None:
    data = write(tmp_path, samples(2))
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"key": "x"}\n')
    for args in (
        ["--backend", "replay"],
        ["--backend", "stub", "--record", str(tmp_path / "r.jsonl")],
        ["--backend", "replay", "--replay", str(bad)],
    ):
        result = run_cli("bench", "steps", "--data", str(data), *args, cwd=tmp_path, env=ENV)
        assert result.returncode == 2, (args, result.stdout, result.stderr)
