"""`symbolic`: a provider that solves by computation (sympy), not by language modelling.

It answers SOLVE prompts for the problems the symbolic solver reads (equations, arithmetic) and
raises CannotAnswer for everything else, so the pipeline moves on to a model provider.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from typing import Any

import sympy

from app.llm.base import Capability
from app.llm.delimit import unwrap
from app.llm.errors import CannotAnswer, ProviderTimeout
from app.llm.outputs import SolveOutput, SolveStep
from app.llm.types import Message, ModelResponse
from app.symbolic.sandbox import SandboxTimeout, SandboxUnavailable, SymbolicSandbox


class SymbolicClient:
    provider = "symbolic"
    model = f"sympy-{sympy.__version__}"
    capabilities: frozenset[Capability] = frozenset({"solve"})

    def __init__(self, sandbox: SymbolicSandbox) -> None:
        self._sandbox = sandbox

    async def generate(
        self,
        messages: Sequence[Message],
        *,
        json_schema: dict[str, Any] | None = None,
        temperature: float = 0.0,
        max_tokens: int = 1024,
        timeout: float | None = None,
        seed: int | None = None,
    ) -> ModelResponse:
        if not json_schema or json_schema.get("title") != SolveOutput.__name__:
            raise CannotAnswer(self.provider, "only solves; it does not verify or evaluate")
        problem = unwrap("problem", messages[-1].content) if messages else None
        if not problem:
            raise CannotAnswer(self.provider, "no <problem> block in the prompt")
        started = time.perf_counter()
        try:
            solution = await self._sandbox.solve(problem)
        except SandboxTimeout as exc:
            raise ProviderTimeout(self.provider, str(exc)) from exc
        except SandboxUnavailable as exc:
            raise CannotAnswer(self.provider, f"sandbox unavailable: {exc}") from exc
        except Exception as exc:  # a solver bug on odd input: skip this provider, never a 500
            raise CannotAnswer(self.provider, f"solver failed ({type(exc).__name__})") from exc
        if solution is None:
            raise CannotAnswer(self.provider, "not an equation or arithmetic expression it reads")
        output = SolveOutput(
            steps=[SolveStep(description=s.description, latex=s.latex) for s in solution.steps],
            final_answer=solution.final_answer,
        )
        data = output.model_dump()
        return ModelResponse(
            text=json.dumps(data, ensure_ascii=False),
            provider=self.provider,
            model=self.model,
            latency_s=time.perf_counter() - started,
            data=data,
        )
