"""OCR → ANALYZE → RETRIEVE → SOLVE → QUICK_VERIFY → (retry?) → ENRICH, compiled once."""

from __future__ import annotations

from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph

from app.pipeline.context import PipelineContext
from app.pipeline.nodes.analyze import analyze
from app.pipeline.nodes.enrich import enrich
from app.pipeline.nodes.ocr import ocr
from app.pipeline.nodes.quick_verify import quick_verify
from app.pipeline.nodes.retrieve import retrieve
from app.pipeline.nodes.solve import solve
from app.pipeline.routing import route_after_ocr, route_after_solve, should_retry_after_verify
from app.pipeline.state import SolveState

# The compiled graph: SolveState in and out, PipelineContext as the run's context.
SolveGraph = CompiledStateGraph[SolveState, PipelineContext, SolveState, SolveState]


def build_graph() -> SolveGraph:
    graph = StateGraph(SolveState, context_schema=PipelineContext)
    graph.add_node("ocr", ocr)
    graph.add_node("analyze", analyze)
    graph.add_node("retrieve", retrieve)
    graph.add_node("solve", solve)
    graph.add_node("quick_verify", quick_verify)
    graph.add_node("enrich", enrich)

    graph.add_edge(START, "ocr")
    graph.add_conditional_edges("ocr", route_after_ocr, ["analyze", END])
    graph.add_edge("analyze", "retrieve")
    graph.add_edge("retrieve", "solve")
    graph.add_conditional_edges("solve", route_after_solve, ["quick_verify", "enrich"])
    graph.add_conditional_edges("quick_verify", should_retry_after_verify, ["solve", "enrich"])
    graph.add_edge("enrich", END)
    return graph.compile(name="solve_and_verify")


async def run_pipeline(
    graph: SolveGraph, context: PipelineContext, state: SolveState
) -> SolveState:
    with context.for_run() as run:
        result = await graph.ainvoke(state, context=run)
    return SolveState(**result)
