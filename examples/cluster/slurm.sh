#!/usr/bin/env bash
# A large dpclaims run as a Slurm job array, then one merge job once every shard has finished.
#
#   mkdir -p dpclaims-shards && sbatch examples/cluster/slurm.sh   # the array submits the merge
#
# (Slurm opens the --output log before the script runs, so its directory must exist.)
#
# Each array task runs one shard (`--shard auto` reads SLURM_ARRAY_TASK_ID, _MIN and _COUNT),
# so the array's size is the only place the number of shards is written. The merged output is
# byte for byte what one `dpclaims check ... --json` of the whole run prints.
#SBATCH --job-name=dpclaims-shards
#SBATCH --array=1-16
#SBATCH --cpus-per-task=4
#SBATCH --time=02:00:00
#SBATCH --output=dpclaims-shards/%A_%a.log
set -euo pipefail

CLAIMS=${CLAIMS:-'stability.*'}
TRIALS=${TRIALS:-10000000}
SEED=${SEED:-7}
OUT=${OUT:-dpclaims-shards}
mkdir -p "$OUT"

# Rayon uses the CPUs Slurm gave the task.
export RAYON_NUM_THREADS=${SLURM_CPUS_PER_TASK:-1}
dpclaims check "$CLAIMS" --trials "$TRIALS" --seed "$SEED" --shard auto \
    > "$OUT/shard-${SLURM_ARRAY_TASK_ID}.json"

# The first task submits the merge, to run after every task of this array succeeded.
if [ "$SLURM_ARRAY_TASK_ID" = "$SLURM_ARRAY_TASK_MIN" ]; then
    sbatch --dependency="afterok:${SLURM_ARRAY_JOB_ID}" --job-name=dpclaims-merge \
        --output="$OUT/merge.log" \
        --wrap "dpclaims merge $OUT/shard-*.json --json --report $OUT/report > $OUT/outcomes.jsonl"
fi
