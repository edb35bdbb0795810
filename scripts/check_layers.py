#!/usr/bin/env python3
"""Holds every project include to the layering of docs/architecture.md ("Layers"): a file may include its own
layer or one below it, never one above, and the dataflows' folders never include each other except the
element-wise streaming that systolic pooling reuses. Prints each offending include; exit 1 when there is one.

Usage: check_layers.py [SOURCE_DIR]   (--graph prints the folder-to-folder include counts)
"""
import pathlib
import re
import sys
from collections import Counter

# Lowest first. A file belongs to the first entry whose prefix its path starts with.
LAYERS = [
    ("common", ["common/"]),
    ("network", ["network/"]),
    # The chip's config and the GLB's tile stores: plain C++ below the dataflows (library ergon_arch_config).
    ("arch/config", ["arch/accelerator_config.", "arch/config_keys.hpp", "arch/operating_levels.hpp",
                     "arch/dram/banked/page_policy.hpp", "arch/glb/tile_store.", "arch/glb/glb_ports.hpp"]),
    ("dataflows", ["dataflows/registry.", "dataflows/dataflow.hpp"] + [
        f"dataflows/{name}" for name in ("access_prices.hpp", "dram_encoding.hpp", "integer_math.hpp",
                                         "layer_tensors.", "loop_nest.", "mapping_error.hpp", "mapping_file.",
                                         "mapping_summary.hpp", "mapper_keys.cpp", "resident_traffic.",
                                         "step_pipeline.", "step_traffic.hpp")]),
    ("dataflows/elementwise", ["dataflows/elementwise/"]),
    ("dataflows/<name>", ["dataflows/row_stationary/", "dataflows/systolic/"]),
    ("arch", ["arch/"]),
    ("power", ["power/"]),
    ("sim", ["sim/"]),
    ("studies+python", ["studies/", "python/"]),
    ("cli", ["cli/"]),
]
SOURCE_FOLDERS = ["common", "network", "dataflows", "arch", "power", "sim", "studies", "python", "cli"]
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def layer_of(path):
    for rank, (_, prefixes) in enumerate(LAYERS):
        if any(path.startswith(prefix) for prefix in prefixes):
            return rank
    return None


def folder_of(path):
    parts = path.split("/")
    return "/".join(parts[:2]) if parts[0] == "dataflows" and len(parts) > 2 else parts[0]


def main():
    args = [a for a in sys.argv[1:] if a != "--graph"]
    root = pathlib.Path(args[0] if args else pathlib.Path(__file__).resolve().parent.parent)
    problems, graph = [], Counter()
    for folder in SOURCE_FOLDERS:
        for source in sorted((root / folder).rglob("*")):
            if source.suffix not in (".hpp", ".cpp", ".h"):
                continue
            path = source.relative_to(root).as_posix()
            rank = layer_of(path)
            if rank is None:
                problems.append(f"{path}: in no layer of {__file__}")
                continue
            for included in INCLUDE.findall(source.read_text(encoding="utf-8")):
                included_rank = layer_of(included)
                if included_rank is None or not (root / included).exists():
                    continue  # a system or third-party header, or one relative to its own folder
                graph[(folder_of(path), folder_of(included))] += 1
                sibling = (rank == included_rank and path.startswith("dataflows/") and
                           folder_of(path) != folder_of(included))
                if included_rank > rank or sibling:
                    problems.append(f"{path} includes {included}: {LAYERS[included_rank][0]} is above "
                                    f"{LAYERS[rank][0]}" if not sibling else
                                    f"{path} includes {included}: dataflows do not include each other")
    if "--graph" in sys.argv:
        for (source, target), count in sorted(graph.items()):
            if source != target:
                print(f"{source} -> {target}: {count}")
    for problem in problems:
        print(problem)
    print(f"layers: {len(problems)} include(s) against the layering")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
