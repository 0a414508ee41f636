#!/usr/bin/env bash
# Rebuilds models/askcode-code-static from public repositories.
#   REPOS: a folder of bare git clones as <owner>+<name>/repo, at least up to the commits in recipe.json
#   WORK:  scratch space for the extracted pairs (never committed)
# Needs python3 with numpy and scipy, and node with this repository's node_modules.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
REPOS="${1:?usage: run.sh REPOS WORK}"
WORK="${2:?usage: run.sh REPOS WORK}"
OUT="$here/../../models/askcode-code-static"
mkdir -p "$WORK/model"
python3 "$here/extract.py" --repos "$REPOS" --out "$WORK"
python3 "$here/vocab.py" --data "$WORK" --out "$WORK/model"
node "$here/tokenize.mjs" --data "$WORK" --model "$WORK/model"
python3 "$here/train.py" --data "$WORK" --model "$WORK/model" --epochs "${EPOCHS:-16}" --lr-end 0.0003
mkdir -p "$OUT"
cp "$WORK/model/embeddings.safetensors" "$WORK/model/tokenizer.json" "$WORK/model/config.json" "$OUT/"
python3 "$here/notice.py" --recipe "$here/recipe.json" --out "$OUT/NOTICE.md"
