"""POST /v1/checks and `solveverify check`: correct / incorrect / unknown, never a guess."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest

from app.llm.registry import Provider
from solveverify_bench.fake_llm import FakeLLMServer, Reply
from tests.fixtures.checks import check
from tests.fixtures.fake_llm import sdk_model
from tests.fixtures.images import draw_text
from tests.fixtures.processes import run_cli
from tests.fixtures.providers import verdict_json

LINEAR = "If 7 - 4x = 15, what is the value of 8x + 2?"
WORD_PROBLEM = (
    "A baker fills 7 trays with 13 muffins each and sells all but 5 muffins. "
    "How many muffins does the baker sell?"
)
# GSM8K train, line 1: in the problem bank, answer 72.
BANK_PROBLEM = (
    "Natalia sold clips to 48 of her friends in April, and then she sold half as many clips "
    "in May. How many clips did Natalia sell altogether in April and May?"
)


# ------------------------------------------------------------------ acceptance


@pytest.mark.parametrize(
    ("problem", "answer", "verdict"),
    [
        (LINEAR, "-14", "correct"),
        (LINEAR, "-2", "incorrect"),
        ("sqrt(x) = 3", "9", "correct"),
    ],
)
async def test_acceptance(client: httpx.AsyncClient, problem: str, answer: str, verdict: str):
    body = await check(client, problem, answer)
    assert body["verdict"] == verdict, body
    assert body["method"] == "programmatic"


async def test_programmatic_verdicts_carry_the_expected_answer(client: httpx.AsyncClient):
    right = await check(client, "Solve 2x + 3 = 11", "x = 4")
    assert right["verdict"] == "correct" and right["confidence"] == 1.0
    wrong = await check(client, "Solve 2x + 3 = 11", "5")
    assert wrong["verdict"] == "incorrect" and wrong["method"] == "programmatic"
    assert wrong["expected"] is not None and "4" in wrong["expected"]
    assert wrong["confidence"] >= 0.95
    assert set(wrong) == {"verdict", "method", "expected", "detail", "confidence"}


async def test_ground_truth_from_the_problem_bank(client: httpx.AsyncClient):
    right = await check(client, BANK_PROBLEM, "72")
    assert (right["verdict"], right["method"], right["expected"]) == (
        "correct",
        "ground_truth",
        "72",
    )
    wrong = await check(client, BANK_PROBLEM, "96")
    assert (wrong["verdict"], wrong["method"]) == ("incorrect", "ground_truth")


async def test_a_bank_answer_is_not_left_to_a_model(
    client: httpx.AsyncClient, with_clients, fake_llm: FakeLLMServer
):
    """With the known answer 72, "72, 73" or "circa 72" (unread) was `correct` on an echoing
    verifier's word (the fourth tester round): an answer the bank's cannot be compared with is
    not approved by anyone."""
    fake_llm.reset()
    with_clients(sdk_model(fake_llm))
    for answer in ("72, 73", "circa 72", "72 at minimum"):
        fake_llm.default = Reply(verdict_json(True, 0.99, answer))
        body = await check(client, BANK_PROBLEM, answer)
        assert body["verdict"] == "unknown", (answer, body)


async def test_unknown_when_nothing_can_tell(client: httpx.AsyncClient):
    body = await check(client, WORD_PROBLEM, "86")
    assert body["verdict"] == "unknown"
    assert body["confidence"] is None and body["expected"] is None
    assert body["detail"]


# ------------------------------------------------------------------ a model verifier


async def test_admitted_model_verifier_decides_a_word_problem(
    client: httpx.AsyncClient, with_clients, fake_llm: FakeLLMServer
):
    fake_llm.reset()
    with_clients(sdk_model(fake_llm))
    fake_llm.then(Reply(verdict_json(True, 0.9, "86")))
    right = await check(client, WORD_PROBLEM, "86")
    assert (right["verdict"], right["method"], right["confidence"]) == ("correct", "llm", 0.9)
    assert right["expected"] is None  # a model's answer is not a known answer

    # It says "correct" but computes 86: the 90 is incorrect, whatever is_correct says.
    fake_llm.then(Reply(verdict_json(True, 0.99, "86")))
    contradicted = await check(client, WORD_PROBLEM, "90")
    assert contradicted["verdict"] == "unknown"  # a self-contradiction is no sure rejection
    fake_llm.then(Reply(verdict_json(False, 0.9, "86")))
    wrong = await check(client, WORD_PROBLEM, "90")
    assert (wrong["verdict"], wrong["method"]) == ("incorrect", "llm")
    # the user's message names the problem and the answer, as data
    prompt = fake_llm.requests[-1]["body"]["messages"][-1]["content"]
    assert WORD_PROBLEM in prompt and "90" in prompt


async def test_a_hedge_the_verifier_echoes_is_never_correct(
    client: httpx.AsyncClient, with_clients, fake_llm: FakeLLMServer
):
    """A verifier that echoes "86 or 87" agrees with both halves at once (an independent
    tester's finding on the model path); the guess stays unknown, a wrong one incorrect."""
    fake_llm.reset()
    with_clients(sdk_model(fake_llm))
    for guess in ("86 or 87", "maybe 86", "86 还是 87", r"86 \text{ or } 87", "86?"):
        fake_llm.then(Reply(verdict_json(True, 0.95, guess)))
        body = await check(client, WORD_PROBLEM, guess)
        assert (body["verdict"], body["confidence"]) == ("unknown", None), (guess, body)
        assert "hedges" in body["detail"]
    fake_llm.then(Reply(verdict_json(False, 0.9, "86")))
    wrong = await check(client, WORD_PROBLEM, "90 or 91")
    assert (wrong["verdict"], wrong["method"]) == ("incorrect", "llm")
    # nor is a wording that does not plainly state one value (tests/llm/test_plain_answers.py)
    for wording in ("circa 86", "86 at minimum", "eighty-six-ish", "86 (could be 87)"):
        fake_llm.then(Reply(verdict_json(True, 0.99, wording)))
        body = await check(client, WORD_PROBLEM, wording)
        assert body["verdict"] == "unknown", (wording, body)
    fake_llm.then(Reply(verdict_json(True, 0.99, "86")))
    assert (await check(client, WORD_PROBLEM, "86 muffins"))["verdict"] == "correct"


async def test_the_sandbox_reads_no_words_around_a_value(
    client: httpx.AsyncClient, with_clients, fake_llm: FakeLLMServer
):
    """The fourth tester round: "不是56" ("not 56"), "也许是56" were `correct` by the sandbox,
    which read the 56; an unconverted quantity and an annotated value ("56 (7 × 8)", read as a
    product: `incorrect`) were left to a model that echoed them."""
    fake_llm.reset()
    with_clients(sdk_model(fake_llm))
    for answer in ("不是56", "也许是56", "56 is wrong", "56 (7 × 8)"):
        fake_llm.default = Reply(verdict_json(True, 0.99, answer))
        body = await check(client, "What is 7 × 8?", answer)
        assert body["verdict"] == "unknown", (answer, body)
    for problem, answer in (
        ("Convert 72 km/h to m/s", "72 km/h"),
        ("3.5米等于多少厘米？", "3.5米"),
    ):
        fake_llm.default = Reply(verdict_json(True, 0.99, answer))
        body = await check(client, problem, answer)
        assert body["verdict"] == "unknown", (answer, body)
    fake_llm.default = Reply(verdict_json(True, 0.99, "about 56"))
    body = await check(client, "What is 7 × 8?", "≈ 56")  # a rounded value, as the sandbox reads it
    assert (body["verdict"], body["method"]) == ("correct", "programmatic")


async def test_model_verifier_not_admitted_is_not_asked(
    client: httpx.AsyncClient, with_clients, fake_llm: FakeLLMServer
):
    fake_llm.reset()
    tiny = Provider("llamacpp", {"strong": sdk_model(fake_llm)}, operator_chosen=False)
    with_clients(tiny)
    fake_llm.then(Reply(verdict_json(True, 1.0, "86")))
    body = await check(client, WORD_PROBLEM, "86")
    assert body["verdict"] == "unknown"
    assert fake_llm.requests == []


# ------------------------------------------------------------------ input and errors


async def test_photo_of_the_problem(client: httpx.AsyncClient):
    png = draw_text("2x + 3 = 11")
    response = await client.post(
        "/v1/checks", files={"image": ("p.png", png, "image/png")}, data={"answer": "4"}
    )
    assert response.status_code == 200, response.text
    assert response.json()["verdict"] == "correct"


@pytest.mark.parametrize(
    ("kwargs", "status", "code"),
    [
        ({"json": {"problem": "1+1=?", "answer": "   "}}, 422, "invalid_request"),
        ({"json": {"problem": "", "answer": "2"}}, 422, "invalid_request"),
        ({"json": {"problem": "1+1=?"}}, 422, "invalid_request"),
        ({"json": {"problem": "1+1=?", "answer": "2" * 201}}, 422, "invalid_request"),
        ({"json": {"problem": "x" * 4001, "answer": "2"}}, 422, "invalid_request"),
        (
            {"content": b"{not json", "headers": {"content-type": "application/json"}},
            422,
            "invalid_request",
        ),
        ({"content": b"problem", "headers": {"content-type": "text/plain"}}, 415, None),
        (
            {"files": {"image": ("p.png", b"%PDF-1.4 not an image", "image/png")},
             "data": {"answer": "4"}},
            415,
            "unsupported_media_type",
        ),
        ({"files": {"image": ("p.png", b"", "image/png")}, "data": {}}, 422, "invalid_request"),
        ({"files": {"other": ("a.txt", b"x", "text/plain")}, "data": {"answer": "4"}}, 422,
         "missing_image"),
    ],
)  # fmt: skip
async def test_bad_input_is_a_4xx_envelope(client: httpx.AsyncClient, kwargs, status, code):
    response = await client.post("/v1/checks", **kwargs)
    assert response.status_code == status, response.text
    error = response.json()["error"]
    assert set(error) >= {"code", "message"}
    if code is not None:
        assert error["code"] == code


async def test_an_image_without_text_is_a_422(client: httpx.AsyncClient):
    from tests.fixtures.images import blank_png

    response = await client.post(
        "/v1/checks", files={"image": ("p.png", blank_png(), "image/png")}, data={"answer": "4"}
    )
    assert response.status_code == 422
    assert response.json()["error"]["code"] == "no_text_found"


# ------------------------------------------------------------------ the command line


def test_cli_acceptance(tmp_path: Path) -> None:
    env = {"SOLVEVERIFY_LLAMACPP_ENABLED": "false"}
    for problem, answer, verdict in [
        (LINEAR, "-14", "correct"),
        (LINEAR, "-2", "incorrect"),
        ("sqrt(x) = 3", "9", "correct"),
    ]:
        result = run_cli("check", "--problem", problem, "--answer", answer, cwd=tmp_path, env=env)
        assert result.returncode == 0, result.stderr
        body = json.loads(result.stdout)
        assert body["verdict"] == verdict, (problem, answer, body)


def test_cli_bad_input_is_an_error_envelope(tmp_path: Path) -> None:
    result = run_cli("check", "--problem", "1+1=?", "--answer", " ", cwd=tmp_path)
    assert result.returncode == 2
    assert json.loads(result.stderr)["error"]["code"] == "invalid_request"


# ------------------------------------------------------------------ the student's steps


async def check_steps(client: httpx.AsyncClient, problem: str, answer: str, steps: list[str]):
    response = await client.post(
        "/v1/checks", json={"problem": problem, "answer": answer, "steps": steps}
    )
    assert response.status_code == 200, response.text
    return response.json()


async def test_steps_point_at_the_first_wrong_calculation(client: httpx.AsyncClient):
    problem = "Tom has 18 apples and gives away 6. Then he buys twice as many as he has left."
    body = await check_steps(client, problem, "34", ["18 - 6 = 12", "12 × 2 = 22", "12 + 22 = 34"])
    assert body["first_error_step"] == 1
    verdicts = [(s["index"], s["verdict"], s["method"]) for s in body["steps"]]
    assert verdicts == [
        (0, "ok", "arithmetic"),
        (1, "wrong", "arithmetic"),
        (2, "ok", "arithmetic"),
    ]
    explanation = body["steps"][1]["explanation"]
    assert explanation.startswith("Step 2") and "12 × 2 = 22" in explanation
    assert "24" not in explanation  # the right value is not given away
    assert all(s["explanation"] is None for s in body["steps"] if s["verdict"] != "wrong")


async def test_a_derivation_that_loses_the_solution(client: httpx.AsyncClient):
    body = await check_steps(
        client, LINEAR, "-26", ["7 - 4x = 15", "-4x = 22", "x = -5.5", "8x + 2 = -42"]
    )
    assert body["verdict"] == "incorrect"
    assert body["first_error_step"] == 1
    assert [s["verdict"] for s in body["steps"]] == ["ok", "wrong", "ok", "ok"]
    assert body["steps"][1]["method"] == "equation"
    assert "-2" not in body["steps"][1]["explanation"]  # x = -2 is not given away


async def test_right_work_is_never_flagged(client: httpx.AsyncClient):
    body = await check_steps(
        client, LINEAR, "-14", ["7 - 4x = 15", "-4x = 8", "x = -2", "8(-2) + 2 = -14"]
    )
    assert body["verdict"] == "correct" and body["first_error_step"] is None
    assert [s["verdict"] for s in body["steps"]] == ["ok"] * 4
    assert [s["method"] for s in body["steps"]] == ["equation"] * 3 + ["arithmetic"]


async def test_prose_steps_nothing_can_read_are_unchecked(client: httpx.AsyncClient):
    body = await check_steps(
        client, WORD_PROBLEM, "86", ["First find how many muffins there are.", "Then subtract."]
    )
    assert body["first_error_step"] is None
    assert [(s["verdict"], s["method"]) for s in body["steps"]] == [("unchecked", None)] * 2


@pytest.mark.parametrize(
    ("problem", "steps", "opening"),
    [
        ("Tom has 18 apples and gives away 6. Then he buys twice as many as he has left.",
         ["He works out how many are left.", "18 - 6 = 11", "11 × 2 = 22"], "Step 2"),
        ("小明有18个苹果，送给同学6个，又买了剩下的2倍。现在有多少个？",
         ["先算剩下的苹果。", "18-6=11（个）", "11×2=22（个）"], "第2步"),
    ],
)  # fmt: skip
async def test_a_flag_after_an_unread_step_is_not_claimed_first(
    client: httpx.AsyncClient, problem: str, steps: list[str], opening: str
):
    """The false calculation is wrong and explained, but an earlier step nothing could read
    may hold the first mistake: `first_error_step` stays null, `first_flagged_step` says 1."""
    body = await check_steps(client, problem, "22", steps)
    assert body["first_error_step"] is None and body["first_flagged_step"] == 1
    assert [(s["verdict"], s["method"]) for s in body["steps"]] == [
        ("unchecked", None),
        ("wrong", "arithmetic"),
        ("ok", "arithmetic"),
    ]
    assert body["steps"][1]["explanation"].startswith(opening)
    assert "12" not in body["steps"][1]["explanation"]


async def test_explanation_in_the_students_language(client: httpx.AsyncClient):
    body = await check_steps(
        client,
        "小明有18个苹果，送给同学6个，还剩几个？",
        "13",
        ["18-6=13（个）"],
    )
    assert body["first_error_step"] == 0
    assert body["steps"][0]["explanation"].startswith("第1步")
    assert "12" not in body["steps"][0]["explanation"]


async def test_steps_in_a_multipart_form(client: httpx.AsyncClient):
    png = draw_text("2x + 3 = 11")
    response = await client.post(
        "/v1/checks",
        files={"image": ("p.png", png, "image/png")},
        data={"answer": "4", "steps": "2x = 11 - 3\n\n2x = 8\nx = 5"},
    )
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["first_error_step"] == 2
    assert [s["verdict"] for s in body["steps"]] == ["ok", "ok", "wrong"]


@pytest.mark.parametrize(
    "steps",
    [[], ["   "], ["x" * 1001], ["1 + 1 = 2"] * 41, "18 - 6 = 12", [1, 2], ["a\x00b"]],
)
async def test_bad_steps_are_a_422(client: httpx.AsyncClient, steps):
    response = await client.post(
        "/v1/checks", json={"problem": LINEAR, "answer": "-14", "steps": steps}
    )
    assert response.status_code == 422, response.text
    assert response.json()["error"]["code"] == "invalid_request"


async def test_model_critique_finds_what_arithmetic_cannot(
    client: httpx.AsyncClient, with_clients, fake_llm: FakeLLMServer
):
    """An admitted model verifier reads the steps (ProcessBench's critique). Both the answer's
    verifier and the critique ask the same model at once, so each reply carries both JSONs'
    keys; each reader takes its own."""
    fake_llm.reset()
    with_clients(sdk_model(fake_llm))
    reply = {
        "independent_answer": "86",
        "is_correct": False,
        "error_description": "subtracted the wrong number",
        "confidence": 0.9,
        "earliest_error_step": 1,
        "explanation": "It should subtract the 5 muffins kept, the answer is 86.",
    }
    fake_llm.then(Reply(json.dumps(reply))).then(Reply(json.dumps(reply)))
    steps = ["7 × 13 = 91", "91 - 7 = 84"]
    body = await check_steps(client, WORD_PROBLEM, "84", steps)
    assert body["first_error_step"] == 1
    assert [(s["verdict"], s["method"]) for s in body["steps"]] == [
        ("ok", "arithmetic"),
        ("wrong", "llm"),
    ]
    explanation = body["steps"][1]["explanation"]
    assert explanation.startswith("Step 2") and "86" not in explanation
    prompts = [r["body"]["messages"][-1]["content"] for r in fake_llm.requests]
    critique = next(p for p in prompts if "<paragraph_1>" in p)
    assert "91 - 7 = 84" in critique and WORD_PROBLEM in critique


async def test_a_proof_overrules_the_model(
    client: httpx.AsyncClient, with_clients, fake_llm: FakeLLMServer
):
    fake_llm.reset()
    with_clients(sdk_model(fake_llm))
    reply = {
        "independent_answer": "86",
        "is_correct": True,
        "confidence": 0.95,
        "earliest_error_step": -1,
        "explanation": "all fine",
    }
    fake_llm.then(Reply(json.dumps(reply))).then(Reply(json.dumps(reply)))
    body = await check_steps(client, WORD_PROBLEM, "86", ["7 × 13 = 92", "92 - 5 = 87"])
    # The model calls every step right; step 0's arithmetic says otherwise: the model's
    # verdicts are set aside, the proof stands.
    assert body["first_error_step"] == 0
    assert [(s["verdict"], s["method"]) for s in body["steps"]] == [
        ("wrong", "arithmetic"),
        ("ok", "arithmetic"),
    ]


async def test_the_critique_stands_only_through_its_calibrator(
    client: httpx.AsyncClient, with_clients, fake_llm: FakeLLMServer, services, monkeypatch
):
    """No private bar: a step critique calibrator whose promise no threshold keeps yet (too
    little labelled evidence) lets no model claim stand, however sure the model says it is;
    the proofs are reported alone."""
    from dataclasses import replace

    from app.verification.calibration import Calibrator

    fake_llm.reset()
    with_clients(sdk_model(fake_llm))
    monkeypatch.setattr(
        services,
        "pipeline",
        replace(services.pipeline, step_calibrator=Calibrator(target_precision=0.95)),
    )
    reply = {"independent_answer": "86", "is_correct": False, "confidence": 0.99,
             "earliest_error_step": 1}  # fmt: skip
    fake_llm.then(Reply(json.dumps(reply))).then(Reply(json.dumps(reply)))
    body = await check_steps(client, WORD_PROBLEM, "84", ["7 × 13 = 91", "91 - 7 = 84"])
    assert body["first_error_step"] is None and body["first_flagged_step"] is None
    assert [(s["verdict"], s["method"]) for s in body["steps"]] == [("ok", "arithmetic")] * 2


def test_cli_steps(tmp_path: Path) -> None:
    env = {"SOLVEVERIFY_LLAMACPP_ENABLED": "false"}
    result = run_cli(
        "check", "--problem", LINEAR, "--answer", "-10",
        "--step", "7 - 4x = 15", "--step", "-4x = 8", "--step", "x = -2",
        "--step", "8(-2) + 2 = -10",
        cwd=tmp_path, env=env,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    body = json.loads(result.stdout)
    assert body["verdict"] == "incorrect" and body["first_error_step"] == 3
    assert body["steps"][3]["method"] == "arithmetic"


def draw_lines(lines: list[str], size: int = 56, gap: int = 60) -> bytes:
    """Work written one step per line, with room between the lines (tightly stacked lines
    read as stacked notation, and the reader rightly abstains)."""
    import io

    from PIL import Image, ImageDraw

    from tests.fixtures.images import font

    typeface = font(size)
    probe = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    boxes = [probe.textbbox((0, 0), line, font=typeface) for line in lines]
    width = int(max(b[2] - b[0] for b in boxes)) + 80
    height = int(sum(b[3] - b[1] for b in boxes)) + gap * (len(lines) - 1) + 80
    image = Image.new("RGB", (width, height), "white")
    draw, y = ImageDraw.Draw(image), 40
    for line, box in zip(lines, boxes, strict=True):
        draw.text((40 - box[0], y - box[1]), line, fill="black", font=typeface)
        y += int(box[3] - box[1]) + gap
    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    return buffer.getvalue()


async def test_a_photo_of_the_work(client: httpx.AsyncClient):
    png = draw_lines(["7 - 4x = 15", "-4x = 22", "x = -5.5"])
    response = await client.post(
        "/v1/checks",
        files={"image": ("work.png", png, "image/png")},
        data={"answer": "-5.5", "problem": "Solve 7 - 4x = 15", "image_of": "work"},
    )
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["verdict"] == "incorrect"
    assert body["first_error_step"] == 1 and len(body["steps"]) == 3
    assert body["steps"][1]["method"] == "equation"
    # what the reader read, so a student can see a misreading
    assert [s["text"] for s in body["steps"]] == ["7 - 4x = 15", "-4x = 22", "x = -5.5"]


@pytest.mark.parametrize(
    ("data", "code"),
    [
        ({"answer": "4", "image_of": "work"}, "invalid_request"),  # no problem text
        ({"answer": "4", "image_of": "work", "problem": "Solve 2x = 8", "steps": "x = 4"},
         "invalid_request"),  # steps twice
        ({"answer": "4", "image_of": "homework", "problem": "Solve 2x = 8"}, "invalid_request"),
    ],
)  # fmt: skip
async def test_a_photo_of_the_work_needs_the_problem_as_text(
    client: httpx.AsyncClient, data: dict, code: str
):
    png = draw_text("x = 4")
    response = await client.post(
        "/v1/checks", files={"image": ("work.png", png, "image/png")}, data=data
    )
    assert response.status_code == 422, response.text
    assert response.json()["error"]["code"] == code


async def test_a_blank_photo_of_the_work_is_a_422(client: httpx.AsyncClient):
    from tests.fixtures.images import blank_png

    response = await client.post(
        "/v1/checks",
        files={"image": ("work.png", blank_png(), "image/png")},
        data={"answer": "4", "problem": "Solve 2x = 8", "image_of": "work"},
    )
    assert response.status_code == 422
    assert response.json()["error"]["code"] == "no_text_found"


def test_cli_photo_of_the_work(tmp_path: Path) -> None:
    work = tmp_path / "work.png"
    work.write_bytes(draw_lines(["2x = 11 - 3", "2x = 8", "x = 5"]))
    env = {"SOLVEVERIFY_LLAMACPP_ENABLED": "false"}
    result = run_cli(
        "check", "--problem", "Solve 2x + 3 = 11", "--answer", "5",
        "--work-image", str(work), cwd=tmp_path, env=env,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    body = json.loads(result.stdout)
    assert body["first_error_step"] == 2
    assert [s["verdict"] for s in body["steps"]] == ["ok", "ok", "wrong"]


async def test_the_largest_work_is_checked_in_time(client: httpx.AsyncClient):
    """40 steps of 1,000 characters of calculation-shaped text: every step gets a verdict."""
    import time

    unit = "(12 + 3) × 4 = 60, \\frac{1}{3} × 18 = 6 and 2^{10} = 1024; "
    noisy = unit * (1000 // len(unit))
    steps = [noisy] * 39 + ["(" * 400 + "1" + ")" * 400 + " = 2"]
    started = time.perf_counter()
    body = await check_steps(client, LINEAR, "-14", steps)
    assert time.perf_counter() - started < 30
    assert len(body["steps"]) == 40 and body["first_error_step"] is None
    assert body["steps"][0]["verdict"] == "ok" and body["steps"][39]["verdict"] == "unchecked"


@pytest.mark.parametrize(
    ("problem", "answer", "steps", "right"),
    [
        ("What is 18 - 6?", "11", ["18 - 6 = 11"], "12"),
        ("Solve 2x + 3 = 11", "x = 5", ["2x = 8", "x = 5"], "4"),
    ],
)
async def test_with_steps_an_incorrect_answer_gets_no_right_value(
    client: httpx.AsyncClient, problem: str, answer: str, steps: list[str], right: str
):
    """ "Where did I go wrong?" points at the step; the response does not hand over the answer
    (without steps, `expected` carries it: test_programmatic_verdicts_carry_the_expected_answer)."""
    body = await check_steps(client, problem, answer, steps)
    assert body["verdict"] == "incorrect" and body["expected"] is None
    assert body["first_error_step"] == len(steps) - 1
    assert right not in json.dumps({k: v for k, v in body.items() if k != "check_id"})


async def test_with_steps_an_undecided_check_does_not_state_the_verifiers_answer(
    client: httpx.AsyncClient, with_clients, fake_llm: FakeLLMServer
):
    """A verifier that approves with its own, different answer is undecided (`unknown`); its
    reason names that answer ('independent answer 86'): with steps, it is withheld too (an
    independent tester's finding: the detail handed the answer over)."""
    fake_llm.reset()
    with_clients(sdk_model(fake_llm))
    reply = {
        "independent_answer": "86",
        "is_correct": True,
        "error_description": None,
        "confidence": 0.9,
        "earliest_error_step": -1,
        "explanation": "Fine.",
    }
    fake_llm.then(Reply(json.dumps(reply))).then(Reply(json.dumps(reply)))
    body = await check_steps(client, WORD_PROBLEM, "84", ["She has some.", "So 84."])
    assert body["verdict"] == "unknown" and body["expected"] is None
    assert "86" not in json.dumps({k: v for k, v in body.items() if k != "check_id"})
    fake_llm.then(Reply(json.dumps(reply)))
    without_steps = await check(client, WORD_PROBLEM, "84")  # no steps: the reason is kept
    assert without_steps["verdict"] == "unknown" and "86" in without_steps["detail"]
