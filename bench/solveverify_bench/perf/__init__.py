"""`solveverify bench perf` and `bench load`: the service's own cost next to the model calls."""
