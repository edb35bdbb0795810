#!/usr/bin/env bash
# examples/slurm/sweep_array.sh, the job array docs/sweep.md shows, run as Slurm runs one of its tasks: from a
# folder that is not the source tree (with the binary at build/cli/ergon), with SLURM_ARRAY_TASK_ID and
# SLURM_CPUS_PER_TASK set. The task runs its shard's points, and its --array matches its --shard's count.
set -euo pipefail
ergon="$(realpath "$1")"
source_dir="$(realpath "$2")"
script="$source_dir/examples/slurm/sweep_array.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/build/cli"
ln -s "$ergon" "$work/build/cli/ergon"
# docs/sweep.md shows the script as it is, less its comments.
diff <(grep -v '^# \|^#!' "$script") \
  <(sed -n '/^As a Slurm job array/,/^```$/p' "$source_dir/docs/sweep.md" | sed -n '/^#SBATCH/,/--out/p')
tasks=$(sed -n 's/^#SBATCH --array=0-\([0-9]*\)$/\1/p' "$script")
grep -q -- "--shard \"\$SLURM_ARRAY_TASK_ID/$((tasks + 1))\"" "$script"
(cd "$work" && SLURM_ARRAY_TASK_ID=5 SLURM_CPUS_PER_TASK=2 bash "$script" 2> task.err)
# The points the shard lists are the points its results.csv holds, each with its total row.
(cd "$work" && sed -n '/^build\/cli\/ergon sweep/,/--out/p' "$script" | sed 's/--resume//; s/--out .*$/--list-points/' |
  SLURM_ARRAY_TASK_ID=5 SLURM_CPUS_PER_TASK=2 bash > listed.txt)
python3 - "$work/results/sweep-5/results.csv" "$work/listed.txt" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
totals = [r for r in rows if r["layer"] == "total"]
listed = [int(line.split()[1]) for line in open(sys.argv[2]) if line.startswith("point ")]
assert len(listed) == 12, listed  # 64 GLB sizes x 3 bandwidths / 16 tasks
assert all(point % 16 == 5 for point in listed), listed
assert sorted(int(r["point"]) for r in totals) == sorted(listed), ([r["point"] for r in totals], listed)
PY
echo "slurm array checks passed"
