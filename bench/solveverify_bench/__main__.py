from solveverify_bench.cli import bench_app

if __name__ == "__main__":
    bench_app()
