#!/usr/bin/env python3
"""Runs Ergon's benchmarks and prints one summary table (docs/performance.md).

Google Benchmark measures the simulator in-process (tests/bench/simulator_bench.cpp); whole `ergon`
commands are timed with /usr/bin/time for wall time and peak resident memory. Simulated cycles come from
each run's own outputs (report.json, or the totals of a sweep's results.csv), so cycles per second and
PE-cycles per second (PEs x simulated cycles / wall second) are measured, not assumed.

    python3 scripts/bench_summary.py BUILD_DIR [--quick] [--markdown FILE]
"""
import argparse
import csv
import json
import os
import subprocess
import sys
import statistics
import tempfile
import time

SOURCE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PES = {"eyeriss": 12 * 14, "edge_tpu": 64 * 64, "hpc_tpu": 256 * 256, "stm32n6": 12 * 25}


def run_timed(command, scratch, with_out=True):
    """Runs a command (with a fresh `--out` folder each time); returns (median wall seconds, peak KiB, the
    last --out folder). Commands under 2 s run three times."""
    time_file = os.path.join(scratch, "time.txt")
    walls, peak_kib, out_dir = [], 0, None
    while len(walls) < (1 if walls and walls[0] >= 2 else 3):
        out_dir = os.path.join(scratch, f"out{len(walls)}")
        start = time.perf_counter()
        with open(os.path.join(scratch, "log.txt"), "w") as log:
            subprocess.run(["/usr/bin/time", "-f", "%M", "-o", time_file] + command +
                           (["--out", out_dir] if with_out else []), cwd=SOURCE, check=True, stdout=log, stderr=log)
        walls.append(time.perf_counter() - start)
        peak_kib = max(peak_kib, int(open(time_file).read().split()[-1]))
    return statistics.median(walls), peak_kib, out_dir


def report_cycles(out_dir):
    return json.load(open(os.path.join(out_dir, "report.json")))["total"]["cycles"]


def sweep_cycles(out_dir):
    with open(os.path.join(out_dir, "results.csv")) as results:
        return sum(int(row["cycles"]) for row in csv.DictReader(results) if row["layer"] == "total")


def command_jobs(ergon, quick):
    """(label, command, config name or None, cycles reader or None)."""
    run = lambda config, workload, *extra: [ergon, "run", "--config", f"configs/{config}.yaml", "--workload",
                                            workload, *extra]
    jobs = [
        ("run ResNet-50, Eyeriss, tlm", run("eyeriss", "workloads/resnet50.yaml"), "eyeriss", report_cycles),
        ("run ResNet-50, Eyeriss, tlm, banked LPDDR4",
         run("eyeriss", "workloads/resnet50.yaml", "--set", "dram.impl=banked", "--set", "dram.preset=lpddr4",
             "--set", "dram.bandwidth_gbps=~", "--set", "dram.latency_ns=~"), "eyeriss", report_cycles),
        ("run AlexNet, Eyeriss, cycle accurate", run("eyeriss", "workloads/alexnet.yaml", "--fidelity", "cycle"),
         "eyeriss", report_cycles),
        ("run MobileNetV2, Edge TPU, tlm", run("edge_tpu", "workloads/mobilenet_v2.yaml"), "edge_tpu",
         report_cycles),
        ("run VGG-16, HPC TPU, tlm", run("hpc_tpu", "workloads/vgg16.yaml"), "hpc_tpu", report_cycles),
        ("run ResNet-8, STM32N6, tlm", run("stm32n6", "workloads/resnet8.yaml"), "stm32n6", report_cycles),
        ("1.16e12-MAC layer, Edge TPU, tlm", run("edge_tpu", "tests/bench/data/synthetic_1e12.yaml"), "edge_tpu",
         report_cycles),
        ("64-point GLB sweep, AlexNet, 2 workers",
         [ergon, "sweep", "--workload", "workloads/alexnet.yaml", "--param", "glb.size_kib=8:512:8", "--jobs",
          "2"], "eyeriss", sweep_cycles),
        ("100-point sweep, DS-CNN, 2 workers",
         [ergon, "sweep", "--workload", "workloads/ds_cnn.yaml", "--param", "glb.size_kib=4:103:1", "--jobs", "2"],
         "eyeriss", sweep_cycles),
        ("ARADA grid, 396 simulations (dvfs-study)", [ergon, "dvfs-study", "--jobs", "2"], None, None),
        ("ARADA grid, SCALE-Sim traffic (dvfs-study --traffic-model scalesim)",
         [ergon, "dvfs-study", "--traffic-model", "scalesim", "--jobs", "2"], None, None),
        ("STM32N6 phases vs measurements", [ergon, "bench-phases", "--config", "configs/stm32n6.yaml",
                                            "--against-measurements"], None, None),
    ]
    if not quick:
        jobs += [
            ("1.16e12-MAC layer, Eyeriss, tlm", run("eyeriss", "tests/bench/data/synthetic_1e12.yaml"), "eyeriss",
             report_cycles),
            ("10,000-point sweep, DS-CNN, 2 workers",
             [ergon, "sweep", "--workload", "workloads/ds_cnn.yaml", "--param", "glb.size_kib=4:10003:1", "--jobs",
              "2"], "eyeriss", sweep_cycles),
            ("Blackthorn profile, Edge TPU, 1000 random layers",
             [ergon, "profile", "blackthorn", "--config", "configs/edge_tpu.yaml", "--jobs", "2"], None, None),
        ]
    return jobs


def google_benchmark_rows(bench, scratch):
    out = os.path.join(scratch, "google_benchmark.json")
    _, kib, _ = run_timed([bench, f"--benchmark_out={out}", "--benchmark_out_format=json"], scratch, with_out=False)
    rows = []
    for entry in json.load(open(out))["benchmarks"]:
        seconds = entry["real_time"] * {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}[entry["time_unit"]]
        rows.append((f"in-process: {entry['name'].removeprefix('BM_')}", seconds, entry.get("cycles_per_second"),
                     entry.get("pe_cycles_per_second"), None))
    return rows, kib


def rate(value):
    if value is None:
        return "-"
    for unit, scale in (("T", 1e12), ("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if value >= scale:
            return f"{value / scale:.3g} {unit}"
    return f"{value:.3g}"


def duration(seconds):
    return f"{seconds * 1e3:.3g} ms" if seconds < 1 else f"{seconds:.3g} s"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("build_dir")
    parser.add_argument("--quick", action="store_true", help="skip the runs longer than about 5 s")
    parser.add_argument("--markdown", help="also write the table to this file")
    args = parser.parse_args()
    ergon = os.path.abspath(os.path.join(args.build_dir, "cli", "ergon"))
    bench = os.path.abspath(os.path.join(args.build_dir, "tests", "ergon_bench"))
    rows = []
    with tempfile.TemporaryDirectory() as scratch:
        benchmark_rows, benchmark_kib = google_benchmark_rows(bench, scratch)
        rows += benchmark_rows
        for number, (label, command, config, cycles_of) in enumerate(command_jobs(ergon, args.quick)):
            out_dir = os.path.join(scratch, f"job{number}")
            os.makedirs(out_dir)
            print(f"  {label} ...", file=sys.stderr, flush=True)
            wall, kib, last_out = run_timed(command, out_dir)
            cycles = cycles_of(last_out) if cycles_of else None
            per_second = cycles / wall if cycles is not None and wall > 0 else None
            pe_rate = per_second * PES[config] if per_second is not None else None
            rows.append((label, wall, per_second, pe_rate, kib))
    header = "| benchmark | wall time | simulated cycles/s | PE-cycles/s | peak memory |\n|---|---|---|---|---|\n"
    table = header + "".join(
        f"| {label} | {duration(wall)} | {rate(cycles)} | {rate(pe_cycles)} | "
        f"{'-' if kib is None else f'{kib / 1024:.1f} MiB'} |\n" for label, wall, cycles, pe_cycles, kib in rows)
    note = (f"\nWall time of in-process rows is per simulation (Google Benchmark); the benchmark process peaked at "
            f"{benchmark_kib / 1024:.1f} MiB. Other rows time the whole `ergon` command; peak memory is that of "
            f"its largest process (for a sweep, the parent or one worker). Machine: {os.cpu_count()} cores.\n")
    print(table + note)
    if args.markdown:
        with open(args.markdown, "w") as out:
            out.write(table + note)


if __name__ == "__main__":
    main()
