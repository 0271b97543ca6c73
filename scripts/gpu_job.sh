#!/usr/bin/env bash
# One call on a lent GPU machine (nvidia-h200: 16 cores, torch there, nothing reachable):
# make the scenes on its CPU cores, train both models at once on the GPU, export, evaluate
# and calibrate, and leave at most 8 small files in $OUT (the device tool's limit).
#
# Prepare on the dev machine (once; data/ is ignored by git, so nothing is committed):
#   python -c "from vision.synth.render import *; render_art(DEFAULT_ART_DIR, 'data/art_png', skip_done=True)"
#   .venv/bin/pip download --no-deps --only-binary=:all: --python-version 3.12 --implementation cp \
#     --platform manylinux_2_28_x86_64 -d data/whl ultralytics==8.4.190 ultralytics-thop==2.2.3
# Then through the device tool, from the repository root (well inside its 600 s limit):
#   run(command="bash scripts/gpu_job.sh", carry=["data/art_png", "data/whl"], timeout_s=600)
# ultralytics imports polars only to re-read results.csv inside a try; the real wheel is
# 54 MB, so a stub module stands in for it.  Sizes and time budgets are env variables so
# the same script runs end to end on a CPU at toy size first (see models/MODEL_CARD.md):
#   DEV=cpu WORKERS=2 DET_TRAIN=8 DET_VAL=4 CROP_SCENES=8 LOC_EPOCHS=1 LOC_HOURS= CLS_EPOCHS=1 \
#     LOSO=timomt HELDOUT=data/heldout EVAL_LIMIT=1 OUT=runs/gpu_toy WORK=runs/gpu_toy_work bash scripts/gpu_job.sh
set -u
OUT=${OUT:-/tmp/out}; WORK=${WORK:-/tmp/tr}; DEV=${DEV:-0}; WORKERS=${WORKERS:-15}
SEED=${SEED:-4}; IMGSZ=${IMGSZ:-512}
DET_TRAIN=${DET_TRAIN:-3000}; DET_VAL=${DET_VAL:-150}; CROP_SCENES=${CROP_SCENES:-2500}
LOC_HOURS=${LOC_HOURS-0.06}; LOC_EPOCHS=${LOC_EPOCHS:-20}; LOC_BATCH=${LOC_BATCH:-64}
CLS_EPOCHS=${CLS_EPOCHS:-20}; CLS_SECONDS=${CLS_SECONDS:-150}; CLS_BATCH=${CLS_BATCH:-512}
LOSO=${LOSO-mantia hwatu sheldonschen pysol-200-years pysol-kintengu timomt}; LOSO_SECONDS=${LOSO_SECONDS:-120}
LOC_INIT=${LOC_INIT-models/localiser.pt}; CLS_INIT=${CLS_INIT-models/classifier.pt}
ART_PNG=${ART_PNG:-data/art_png}; WHL=${WHL:-data/whl}; HELDOUT=${HELDOUT:-$WORK/heldout}
EVAL_LIMIT=${EVAL_LIMIT:-}
PY=${PY:-python3}
export PYTHONUNBUFFERED=1
mkdir -p "$OUT" "$WORK"
T0=$(date +%s)
stamp() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
if ls "$WHL"/*.whl >/dev/null 2>&1; then
  $PY -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site "$WHL"/*.whl || exit 3
  mkdir -p /tmp/stub/polars
  echo 'def read_csv(*a, **k): raise RuntimeError("stub")' > /tmp/stub/polars/__init__.py
  export PYTHONPATH=/tmp/site:/tmp/stub:$PWD
fi
(nvidia-smi -L; nproc; $PY -c 'import torch, ultralytics; print(torch.__version__, ultralytics.__version__)') 2>&1
T=scripts/train_detector.py
CUDA=$([ "$DEV" = cpu ] && echo cpu || echo "$DEV")

stamp "scenes: $DET_TRAIN + $DET_VAL localiser scenes, $CROP_SCENES crop scenes, $WORKERS workers"
$PY $T data --png "$ART_PNG" --out "$WORK" --det-train "$DET_TRAIN" --det-val "$DET_VAL" \
  --crop-scenes "$CROP_SCENES" --workers "$WORKERS" --seed "$SEED" --texture-scale 1 4 > "$WORK/data.log" 2>&1 || { tail "$WORK/data.log"; exit 5; }
stamp "scenes done"

# the held-out sets (same seeds as on the dev machine), made while the GPU trains
$PY -c "
from vision.train.testset import write_testset
write_testset('$HELDOUT/test', '$ART_PNG', 'test', per_cell=4, workers=4)
write_testset('$HELDOUT/calib', '$ART_PNG', 'calib', per_cell=6, workers=4)
" > "$WORK/heldout.log" 2>&1 &
HELD=$!

$PY $T classifier --out "$WORK" --cls-epochs "$CLS_EPOCHS" --cls-batch "$CLS_BATCH" --cls-seconds "$CLS_SECONDS" \
  --device "$CUDA" ${CLS_INIT:+--cls-init "$CLS_INIT"} > "$WORK/cls.log" 2>&1 &
CLS=$!
LOSO_PIDS=""
for st in $LOSO; do  # from scratch, so the left-out style was never seen by the classifier
  $PY $T classifier --out "$WORK" --cls-epochs "$CLS_EPOCHS" --cls-batch "$CLS_BATCH" \
    --cls-seconds "$LOSO_SECONDS" --device "$CUDA" --leave-out "$st" > "$WORK/loso_$st.log" 2>&1 &
  LOSO_PIDS="$LOSO_PIDS $!"
done
$PY $T localiser --out "$WORK" --imgsz "$IMGSZ" --loc-epochs "$LOC_EPOCHS" ${LOC_HOURS:+--loc-hours "$LOC_HOURS"} \
  --loc-batch "$LOC_BATCH" --workers $((WORKERS > 4 ? WORKERS - 4 : 1)) --device "$CUDA" \
  ${LOC_INIT:+--loc-init "$LOC_INIT"} > "$WORK/loc.log" 2>&1
stamp "localiser rc=$?"; tail -n 4 "$WORK/loc.log"
wait $CLS; stamp "classifier rc=$?"; tail -n 3 "$WORK/cls.log"
for p in $LOSO_PIDS; do wait "$p"; done
for st in $LOSO; do tail -n 1 "$WORK/loso_$st.log"; done
$PY $T export --out "$WORK" --models "$OUT" --imgsz "$IMGSZ" > "$WORK/export.log" 2>&1
stamp "export rc=$?"; tail -n 2 "$WORK/export.log"
rm -f "$OUT"/*.onnx.data 2>/dev/null

wait $HELD; stamp "held-out sets rc=$?"
LIM=${EVAL_LIMIT:+--limit $EVAL_LIMIT}
$PY scripts/eval_detector.py --set "$HELDOUT/test" --localiser "$OUT/localiser.onnx" \
  --classifier "$OUT/classifier.onnx" --calibration false --loso "$WORK/loso" $LIM --json "$OUT/eval.json" > "$WORK/eval.log" 2>&1
stamp "eval rc=$?"; cat "$WORK/eval.log"
$PY scripts/calibrate_detector.py --calib "$HELDOUT/calib" --test "$HELDOUT/test" --localiser "$OUT/localiser.onnx" \
  --classifier "$OUT/classifier.onnx" --out "$OUT/calibration.json" --json "$OUT/calib.json" $LIM > "$WORK/calib.log" 2>&1
stamp "calibration rc=$?"; tail -n 30 "$WORK/calib.log"

cp "$WORK/localiser/results.csv" "$WORK" 2>/dev/null
tar -czf "$OUT/logs.tar.gz" -C "$WORK" $(cd "$WORK" && ls *.log *.csv train_log.json 2>/dev/null)
ls -la "$OUT"
stamp "done"
