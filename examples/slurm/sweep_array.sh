#!/bin/bash
# A GLB-size x DRAM-bandwidth sweep as a Slurm job array (docs/sweep.md, "Several machines: shards"): from
# the repository's folder, `sbatch examples/slurm/sweep_array.sh`; once every task is done,
#   build/cli/ergon sweep-merge results/sweep-* --out results/sweep
# Each task runs one shard of the 192 points; --resume lets a requeued task continue where it stopped.
#SBATCH --array=0-15
#SBATCH --cpus-per-task=4
build/cli/ergon sweep --config configs/eyeriss.yaml --workload workloads/alexnet.yaml \
    --param glb.size_kib=8:512:8 --param dram.bandwidth_gbps=1.6,3.2,6.4 \
    --jobs "$SLURM_CPUS_PER_TASK" --shard "$SLURM_ARRAY_TASK_ID/16" --resume \
    --out "results/sweep-$SLURM_ARRAY_TASK_ID"
