"""GLB size sweep: energy per image of AlexNet on Eyeriss as the global buffer grows (docs/python.md).

    python3 examples/glb_sweep.py [--out results/glb_sweep] [--jobs 2] [--sizes 32,64,128,256]

Runs the sweep in worker processes (as `ergon sweep` would), then plots the energy by component against
the GLB size and writes glb_sweep.png beside results.csv.
"""
import argparse
import pathlib

import matplotlib

matplotlib.use("Agg")  # files only: no display needed
import matplotlib.pyplot as plt  # noqa: E402

import ergon  # noqa: E402

COMPONENTS = ["mac_pj", "rf_pj", "noc_pj", "glb_pj", "dram_pj", "clock_pj", "control_pj", "leakage_pj"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="results/glb_sweep")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--sizes", default="32,64,128,256", help="GLB sizes in KiB")
    parser.add_argument("--workload", default="alexnet", help="a workload file or shipped name")
    args = parser.parse_args()

    config = ergon.load_config("eyeriss")
    sizes = [float(s) for s in args.sizes.split(",")]
    sweep = ergon.sweep(config, [args.workload], {"glb.size_kib": sizes}, args.out, jobs=args.jobs)
    results = sweep.to_pandas()
    totals = results[results["layer"] == "total"].sort_values("glb.size_kib")

    figure, axes = plt.subplots(figsize=(7, 4))
    bottom = [0.0] * len(totals)
    for component in COMPONENTS:
        values = (totals[component] / 1e9).tolist()  # mJ
        axes.bar([str(int(s)) for s in totals["glb.size_kib"]], values, bottom=bottom, label=component[:-3])
        bottom = [b + v for b, v in zip(bottom, values)]
    axes.set_xlabel("GLB size (KiB)")
    axes.set_ylabel("energy per batch (mJ)")
    axes.set_title(f"{totals['workload'].iloc[0]} on {config.name}: energy by component")
    axes.legend(fontsize="small", ncol=2)
    figure.tight_layout()
    plot = pathlib.Path(args.out) / "glb_sweep.png"
    figure.savefig(plot, dpi=120)
    for size, total in zip(totals["glb.size_kib"], totals["total_pj"]):
        print(f"GLB {size:g} KiB: {total / 1e9:.3f} mJ")
    print(f"wrote {sweep.results_csv} and {plot}")


if __name__ == "__main__":
    main()
