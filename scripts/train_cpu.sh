#!/usr/bin/env bash
# Start a detector training job in the background on this CPU machine, under nice, with torch
# at 2 threads.  Started again with the same RUN name, it resumes from its last checkpoint
# (scenes are generated once and cached in runs/<RUN>/det; ultralytics checkpoints every epoch).
#
#   scripts/train_cpu.sh RUN [train_detector.py options...]
#   e.g. scripts/train_cpu.sh whole --boxes whole --crops-per-card 2 --loc-init models/localiser.pt \
#        --det-train 2400 --det-val 200 --loc-hours 1.0 --freeze 10 --close-mosaic 2
#
# Linux schedules each session's processes as one group (autogroup), and nice only orders
# processes within a group: this job runs in a session of its own (setsid), so its nice does not
# make it yield to other sessions, nor their nice 19 to it.  TRAIN_AUTOGROUP_NICE=N (-20..19;
# default 0, an equal share) sets the group's weight against other sessions: -10 kept a run at
# full speed beside other developers' test files (docs/VISION.md, run 10).
#
# Log: runs/<RUN>/train.log (the stage's output) and runs/<RUN>/localiser/epochs.jsonl (each
# epoch's metrics, wall time and load average).  Stop it with: kill -- -$(cat runs/<RUN>/pid)
set -euo pipefail
cd "$(dirname "$0")/.."
run=${1:?usage: scripts/train_cpu.sh RUN [train_detector.py options...]}
shift
out="runs/$run"
mkdir -p "$out"
py=${PYTHON:-.venv/bin/python}
export OMP_NUM_THREADS=2 MKL_NUM_THREADS=2
setsid nohup nice -n 10 bash -c "
  echo \"start \$(date -Is) load \$(cut -d' ' -f1-3 /proc/loadavg)\"
  $py scripts/train_detector.py data --out '$out' --crop-scenes 0 $* &&
  $py scripts/train_detector.py localiser --out '$out' $*
  echo \"end \$(date -Is) rc \$? load \$(cut -d' ' -f1-3 /proc/loadavg)\"
" >>"$out/train.log" 2>&1 < /dev/null &
echo $! >"$out/pid"
if [ -n "${TRAIN_AUTOGROUP_NICE:-}" ]; then
  echo "$TRAIN_AUTOGROUP_NICE" >"/proc/$(cat "$out/pid")/autogroup" || echo "could not set the autogroup's nice" >&2
fi
echo "training $run in the background (pid $(cat "$out/pid")); log: $out/train.log"
