#!/bin/bash
# The GPU machine's fit of the code-tuned embedder (docs/embedder.md). Made here first:
#   python eval/tune_embedder.py --carry --pairs PAIRS.jsonl --out .gpu   (.gpu ignored by git)
# then run there from the repository's root with .gpu carried: `bash eval/device_fit.sh` fits
# variants A, B (the one shipped: issue, how and report pairs only, three epochs, stopped at 244
# of 317 steps) and C in turn, `bash eval/device_fit.sh D` variant D
# alone (all kinds of pair, two epochs, to the end of its schedule). Each comes back as $OUT/NAME, its
# float16 weights but the token table (22 MB), put together here with
#   python eval/tune_embedder.py --assemble NAME --out DIR
# A variant stops at its minutes (SCALE multiplies them); on an H200, 0.37 s a step of 128 when
# each batch was tokenized as it came (about 0.15 s of that on one core); the texts are now
# tokenized once before the first step (--tokenize-per-step for the old way).
export PYTHONUNBUFFERED=1 HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 TOKENIZERS_PARALLELISM=true
DEV=${DEV:-cuda}; OUT=${OUT:-/tmp/out}; SCALE=${SCALE:-1}
nvidia-smi -L 2>/dev/null
python3 -c "import torch, sentence_transformers as s; print(torch.__version__, s.__version__, torch.cuda.is_available())"
common="--pairs ${CARRY:-.gpu}/pairs.jsonl.xz --base ${CARRY:-.gpu}/base --device $DEV --batch 128 --lr 5e-5 --query-tokens 256 --freeze-tokens --seed 41"
fit() {  # NAME MINUTES ARGS...
  local name=$1 minutes=$2; shift 2
  python3 eval/tune_embedder.py $common --out /tmp/fit-$name --minutes $(python3 -c "print($minutes*$SCALE)") --half-out $OUT/$name "$@" 2>&1 | grep -E "^step|saved|Error|error|Traceback|File " 
  { echo "== $name"; cat /tmp/fit-$name/card.json; } >> $OUT/cards.txt
}
if [ "$1" = D ]; then fit D 3.4 --epochs 2; exit; fi
fit A 2.5 --epochs 2
fit B 1.5 --epochs 3 --kinds issue,how,report
fit C 3 --epochs 4
ls -la $OUT $OUT/*
