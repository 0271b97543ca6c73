#!/usr/bin/env bash
# The one GPU training run (H200, 16 cores), as it was run. Expects, next to this repo copy:
#   $SRC (this repo's vision/, referee/, scripts/), $ART_PNG (rendered art), $WHL (ultralytics
#   wheels), $STUB (a folder with polars/__init__.py holding
#   `def read_csv(*a, **k): raise RuntimeError("stub")`: ultralytics imports polars only to
#   re-read results.csv, inside a try; the real polars wheel is 54 MB, too big to carry).
# Sizes are env vars so the same script runs end to end on a CPU at toy size first.
set -u
OUT=${OUT:-/tmp/out}; WORK=${WORK:-/tmp/tr}; DEV=${DEV:-0}
DET_TRAIN=${DET_TRAIN:-8000}; DET_VAL=${DET_VAL:-300}; CROP_SCENES=${CROP_SCENES:-6000}
LOC_HOURS=${LOC_HOURS:-0.065}; LOC_EPOCHS=${LOC_EPOCHS:-60}; LOC_BATCH=${LOC_BATCH:-64}
CLS_EPOCHS=${CLS_EPOCHS:-30}; CLS_SECONDS=${CLS_SECONDS:-200}; WORKERS=${WORKERS:-16}
IMGSZ=${IMGSZ:-512}
export PYTHONUNBUFFERED=1
if [ -n "${WHL:-}" ]; then
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site "$WHL"/*.whl || exit 3
  export PYTHONPATH=/tmp/site:$STUB:$SRC
fi
cd "$SRC" || exit 4
(nvidia-smi -L; nproc; python3 -c 'import torch, ultralytics; print(torch.__version__, ultralytics.__version__)') 2>&1
T=train_detector.py
python3 scripts/$T data --png "$ART_PNG" --out "$WORK" --det-train "$DET_TRAIN" --det-val "$DET_VAL" \
  --crop-scenes "$CROP_SCENES" --workers "$WORKERS" --seed "${SEED:-1}" || exit 5
python3 scripts/$T classifier --out "$WORK" --cls-epochs "$CLS_EPOCHS" --cls-batch 512 \
  --cls-seconds "$CLS_SECONDS" --device "$DEV" ${CLS_INIT:+--cls-init "$CLS_INIT"} > "$OUT/cls.log" 2>&1 &
CLS=$!
LOSO_PIDS=""
for st in ${LOSO-mantia hwatu sheldonschen}; do
  python3 scripts/$T classifier --out "$WORK" --cls-epochs "$CLS_EPOCHS" --cls-batch 512 \
    --cls-seconds "${LOSO_SECONDS:-150}" --device "$DEV" --leave-out "$st" > "$WORK/loso_$st.log" 2>&1 &
  LOSO_PIDS="$LOSO_PIDS $!"
done
python3 scripts/$T localiser --out "$WORK" --imgsz "$IMGSZ" --loc-epochs "$LOC_EPOCHS" \
  --loc-hours "$LOC_HOURS" --loc-batch "$LOC_BATCH" --workers $((WORKERS - 2)) --device "$DEV" \
  ${LOC_INIT:+--loc-init "$LOC_INIT"} \
  > "$OUT/loc.log" 2>&1
echo "localiser rc=$?"; tail -n 25 "$OUT/loc.log"
wait $CLS; echo "classifier rc=$?"; tail -n 8 "$OUT/cls.log"
for p in $LOSO_PIDS; do wait $p; done
for st in ${LOSO-mantia hwatu sheldonschen}; do tail -n 3 "$WORK/loso_$st.log"; cat "$WORK/loso_$st.log" >> "$OUT/cls.log"; done
python3 scripts/$T export --out "$WORK" --models "$OUT" --imgsz "$IMGSZ" > "$OUT/export.log" 2>&1
echo "export rc=$?"; tail -n 5 "$OUT/export.log"
cp "$WORK/localiser/results.csv" "$WORK/train_log.json" "$OUT/" 2>/dev/null
rm -f "$OUT/export.log"
ls -la "$OUT"
