#!/usr/bin/env python3
"""Seed 003's Fig. 8 layout (CNNergy's per-layer energy against the Eyeriss references), with Ergon's
simulation of configs/eyeriss.yaml in the place of the Eyeriss tools: per layer and per image, energy
without the control term (clock and control, Fig. 8a and 8c), with it (Fig. 8b), and with DRAM left out
(as the measured chip figures are).

Reads the output of `ergon compare --format cnnergy-json` (one file per network) and prints a Markdown
table per network; `--by-block` sums layers by the first part of their name (GoogLeNet's inception blocks).

    build/cli/ergon compare --workload workloads/alexnet.yaml --format cnnergy-json > alexnet.json
    python3 scripts/cnnergy_fig8.py alexnet.json
"""
import json
import sys


def ratio(a, b):
    return f"{a / b:.2f}x" if b > 0 else "-"


def by_block(layers):
    """Sums layers by the first part of their name (GoogLeNet's inception3a.branch1.conv1x1 -> inception3a)."""
    blocks = {}
    for layer in layers:
        block = blocks.setdefault(layer["name"].split(".")[0], {"name": layer["name"].split(".")[0]})
        for key, value in layer.items():
            if key.endswith("_mj"):
                block[key] = block.get(key, 0.0) + value
    return list(blocks.values())


def table(report, grouped):
    head = (
        f"### {report['workload']}: per {'block' if grouped else 'layer'}, mJ per image\n"
        "| layer | CNNergy w/o control | sim w/o control | ratio | CNNergy with control | sim with control"
        " | ratio | CNNergy w/o DRAM | sim w/o DRAM | ratio |\n"
        "|---|---|---|---|---|---|---|---|---|---|\n"
    )
    rows = []
    totals = [0.0] * 6
    for layer in by_block(report["layers"]) if grouped else report["layers"]:
        c_all, s_all = layer["cnnergy_energy_mj"], layer["sim_energy_mj"]
        c_ctl, s_ctl = layer["cnnergy_clock_and_control_mj"], layer["sim_clock_and_control_mj"]
        c_dram, s_dram = layer["cnnergy_dram_mj"], layer["sim_dram_mj"]
        values = [c_all - c_ctl, s_all - s_ctl, c_all, s_all, c_all - c_dram, s_all - s_dram]
        totals = [t + v for t, v in zip(totals, values)]
        rows.append((layer["name"], values))
    rows.append(("**total**", totals))
    for name, v in rows:
        head += (
            f"| {name} | {v[0]:.3f} | {v[1]:.3f} | {ratio(v[1], v[0])} | {v[2]:.3f} | {v[3]:.3f} | "
            f"{ratio(v[3], v[2])} | {v[4]:.3f} | {v[5]:.3f} | {ratio(v[5], v[4])} |\n"
        )
    return head


def main():
    grouped = "--by-block" in sys.argv[1:]
    paths = [a for a in sys.argv[1:] if a != "--by-block"]
    if not paths:
        sys.exit("usage: cnnergy_fig8.py [--by-block] REPORT.json ...  (ergon compare --format cnnergy-json)")
    for path in paths:
        try:
            with open(path) as f:
                report = json.load(f)
            print(table(report, grouped))
        except (OSError, ValueError, KeyError) as error:
            sys.exit(f"error: {path}: not an `ergon compare --format cnnergy-json` report ({error})")


if __name__ == "__main__":
    main()
