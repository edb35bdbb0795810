"""Per-layer DVFS compared: ARADA's schemes against race to idle on one network (docs/python.md).

    python3 examples/dvfs_comparison.py [--out results/dvfs_comparison] [--workload W] [--config C]

Simulates race to idle, allocates levels per layer under each scheme, re-simulates the schedule, and
plots each scheme's energy saving and latency change (dvfs_comparison.png) with a CSV of the figures.
"""
import argparse
import csv
import pathlib

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

import ergon  # noqa: E402

SCHEMES = ["ideal", "vf-oh", "vf-oh-q"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="results/dvfs_comparison")
    parser.add_argument("--config", default="hpc_tpu", help="a config file or shipped name")
    parser.add_argument("--workload", default="mobilenet_v1", help="a workload file or shipped name")
    args = parser.parse_args()

    config = ergon.load_config(args.config)
    workload = ergon.load_workload(args.workload)
    rows = []
    for scheme in SCHEMES:
        outcome = ergon.dvfs(config, workload, scheme)
        total = outcome.total
        rows.append({"scheme": scheme, "energy_saving_pct": total["energy_saving_pct"],
                     "latency_change_pct": total["latency_change_pct"],
                     "rti_energy_mj": total["rti_energy_pj"] / 1e9, "energy_mj": total["energy_pj"] / 1e9,
                     "latency_kept": total["latency_kept"]})
        print(f"{scheme:8} saves {total['energy_saving_pct']:6.2f} % energy, latency {total['latency_change_pct']:+.2f} %")

    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    with open(out / "dvfs_comparison.csv", "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    figure, (saving, latency) = plt.subplots(1, 2, figsize=(8, 3.5))
    saving.bar(SCHEMES, [r["energy_saving_pct"] for r in rows])
    saving.set_ylabel("energy saving vs race to idle (%)")
    latency.bar(SCHEMES, [r["latency_change_pct"] for r in rows], color="tab:orange")
    latency.set_ylabel("latency change (%)")
    figure.suptitle(f"{workload.name} on {config.name}: per-layer DVFS (ARADA)")
    figure.tight_layout()
    figure.savefig(out / "dvfs_comparison.png", dpi=120)
    print(f"wrote {out / 'dvfs_comparison.csv'} and {out / 'dvfs_comparison.png'}")


if __name__ == "__main__":
    main()
