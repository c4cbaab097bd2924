/**
 * A tiny BERT-shaped embedding model, generated on the fly so the local embedder's real loading path
 * (@huggingface/transformers → onnxruntime-node) can be tested without downloading anything.
 *
 * The folder it writes has the layout transformers.js v4 looks for in a local model folder
 * (the same one the real Xenova/multilingual-e5-small uses):
 *
 *   <dir>/<modelName>/config.json                 model_type "bert" → BertModel, encoder-only, one session "model"
 *   <dir>/<modelName>/tokenizer.json              WordPiece + BertNormalizer/BertPreTokenizer + [CLS] … [SEP]
 *   <dir>/<modelName>/tokenizer_config.json       its presence is what makes the pipeline load a tokenizer at all
 *   <dir>/<modelName>/onnx/model.onnx             dtype 'fp32'
 *   <dir>/<modelName>/onnx/model_quantized.onnx   dtype 'q8' (8-bit word embeddings through DequantizeLinear)
 *
 * The ONNX graph has BERT's interface (input_ids, attention_mask, token_type_ids: int64 [batch, seq] →
 * last_hidden_state: float [batch, seq, dims]) and no attention layers:
 *
 *   last_hidden_state = tanh(word_emb[input_ids] + type_emb[token_type_ids] + pos_emb[0..seq)) * attention_mask
 *
 * Each token's state depends only on the token and its position, so padding a sequence in a batch does not change
 * its mean-pooled vector, identical texts give identical vectors, and different tokens give different vectors. (Word
 * order counts only through tanh's curvature: enough to tell sequences apart, far weaker than in a real encoder.)
 *
 * The ModelProto is encoded by hand (field numbers from onnx/onnx.proto); no protobuf library is needed.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { seededRandom } from '../support/seeded-random';

// ---------------------------------------------------------------------------------------------------------------
// Protobuf wire format: https://protobuf.dev/programming-guides/encoding/

const WIRE_VARINT = 0;
const WIRE_LEN = 2;

/** Base-128 varint. Negative values are encoded as 64-bit two's complement (10 bytes), as protobuf does for int64. */
export function encodeVarint(value: number | bigint): Uint8Array {
  if (typeof value === 'number' && !Number.isSafeInteger(value)) {
    throw new RangeError(`varint needs a safe integer, got ${value}`);
  }
  let v = BigInt.asUintN(64, BigInt(value));
  const out: number[] = [];
  while (v >= 0x80n) {
    out.push(Number(v & 0x7fn) | 0x80);
    v >>= 7n;
  }
  out.push(Number(v));
  return Uint8Array.from(out);
}

export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const p of parts) {
    out.set(p, offset);
    offset += p.length;
  }
  return out;
}

function fieldKey(field: number, wireType: number): Uint8Array {
  return encodeVarint((field << 3) | wireType);
}

/** An int32/int64/enum field. */
export function varintField(field: number, value: number | bigint): Uint8Array {
  return concatBytes([fieldKey(field, WIRE_VARINT), encodeVarint(value)]);
}

/** A bytes field, or an embedded message when `bytes` is an encoded message. */
export function bytesField(field: number, bytes: Uint8Array): Uint8Array {
  return concatBytes([fieldKey(field, WIRE_LEN), encodeVarint(bytes.length), bytes]);
}

export function stringField(field: number, value: string): Uint8Array {
  return bytesField(field, new TextEncoder().encode(value));
}

function messageField(field: number, parts: readonly Uint8Array[]): Uint8Array {
  return bytesField(field, concatBytes(parts));
}

// ---------------------------------------------------------------------------------------------------------------
// ONNX messages (onnx.proto, IR version 8). Only the fields this model needs.

const IR_VERSION = 8;
const OPSET_VERSION = 17;

const ElemType = { FLOAT: 1, UINT8: 2, INT64: 7 } as const;
type ElemType = (typeof ElemType)[keyof typeof ElemType];

const ATTRIBUTE_TYPE_INT = 2;

interface Initializer {
  name: string;
  elemType: ElemType;
  /** [] for a scalar. */
  dims: number[];
  /** Little-endian element bytes. */
  raw: Uint8Array;
}

/** TensorProto: dims = 1, data_type = 2, name = 8, raw_data = 9. */
function tensorProto(t: Initializer): Uint8Array {
  return concatBytes([
    ...t.dims.map((d) => varintField(1, d)),
    varintField(2, t.elemType),
    stringField(8, t.name),
    bytesField(9, t.raw),
  ]);
}

/**
 * ValueInfoProto { name = 1, type = 2: TypeProto { tensor_type = 1: { elem_type = 1, shape = 2: TensorShapeProto {
 * dim = 1: { dim_value = 1 | dim_param = 2 } } } } }. A string dim is symbolic (e.g. "batch_size").
 */
function valueInfo(name: string, elemType: ElemType, shape: readonly (number | string)[]): Uint8Array {
  const dims = shape.map((d) => messageField(1, [typeof d === 'number' ? varintField(1, d) : stringField(2, d)]));
  const tensorType = messageField(1, [varintField(1, elemType), messageField(2, dims)]);
  return concatBytes([stringField(1, name), messageField(2, [tensorType])]);
}

/** AttributeProto { name = 1, i = 3, type = 20 }. */
function intAttribute(name: string, value: number): Uint8Array {
  return concatBytes([stringField(1, name), varintField(3, value), varintField(20, ATTRIBUTE_TYPE_INT)]);
}

/** NodeProto { input = 1, output = 2, name = 3, op_type = 4, attribute = 5 }. */
function node(opType: string, inputs: string[], outputs: string[], attributes: Uint8Array[] = []): Uint8Array {
  return concatBytes([
    ...inputs.map((i) => stringField(1, i)),
    ...outputs.map((o) => stringField(2, o)),
    stringField(3, `${opType}_${outputs[0] ?? ''}`),
    stringField(4, opType),
    ...attributes.map((a) => messageField(5, [a])),
  ]);
}

// ---------------------------------------------------------------------------------------------------------------
// Deterministic weights


function randomMatrix(rows: number, cols: number, scale: number, random: () => number): Float32Array {
  const m = new Float32Array(rows * cols);
  for (let i = 0; i < m.length; i++) m[i] = (random() * 2 - 1) * scale;
  return m;
}

function floatBytes(values: Float32Array): Uint8Array {
  const view = new DataView(new ArrayBuffer(values.length * 4));
  values.forEach((v, i) => view.setFloat32(i * 4, v, true));
  return new Uint8Array(view.buffer);
}

function int64Bytes(values: readonly number[]): Uint8Array {
  const view = new DataView(new ArrayBuffer(values.length * 8));
  values.forEach((v, i) => view.setBigInt64(i * 8, BigInt(v), true));
  return new Uint8Array(view.buffer);
}

/** Per-tensor asymmetric uint8 quantization, the scheme onnxruntime's quantizer uses for Gather weights. */
export function quantizeUint8(values: Float32Array): { q: Uint8Array; scale: number; zeroPoint: number } {
  let min = 0;
  let max = 0;
  for (const v of values) {
    if (v < min) min = v;
    if (v > max) max = v;
  }
  const scale = max > min ? (max - min) / 255 : 1;
  const zeroPoint = Math.round(-min / scale);
  const q = new Uint8Array(values.length);
  values.forEach((v, i) => {
    q[i] = Math.min(255, Math.max(0, Math.round(v / scale) + zeroPoint));
  });
  return { q, scale: Math.fround(scale), zeroPoint };
}

// ---------------------------------------------------------------------------------------------------------------
// The graph

export interface TinyOnnxOptions {
  vocabSize: number;
  dims: number;
  maxPositions: number;
  /** 8-bit word embeddings dequantized in the graph (the 'q8' file) instead of float ones (the 'fp32' file). */
  quantized: boolean;
  seed?: number;
  /**
   * Feed-forward blocks (dims → 4·dims → dims, tanh, residual) between the embeddings and the output, 0 by default.
   * They change the vectors, not the interface: benchmarks use them to give the forward pass a real model's cost
   * (about 18 blocks at 384 dims do the multiply-adds of multilingual-e5-small's 12 layers per token).
   */
  computeBlocks?: number;
}

/** Encodes the ModelProto of the tiny embedding model. */
export function buildTinyEmbeddingOnnx(opts: TinyOnnxOptions): Uint8Array {
  const { vocabSize, dims, maxPositions, quantized } = opts;
  const random = seededRandom(opts.seed ?? 0x5eed);
  const wordEmbeddings = randomMatrix(vocabSize, dims, 1, random);
  const typeEmbeddings = randomMatrix(2, dims, 0.1, random);
  const positionEmbeddings = randomMatrix(maxPositions, dims, 0.5, random);

  const initializers: Initializer[] = [
    { name: 'token_type_embeddings', elemType: ElemType.FLOAT, dims: [2, dims], raw: floatBytes(typeEmbeddings) },
    {
      name: 'position_embeddings',
      elemType: ElemType.FLOAT,
      dims: [maxPositions, dims],
      raw: floatBytes(positionEmbeddings),
    },
    { name: 'zero', elemType: ElemType.INT64, dims: [], raw: int64Bytes([0]) },
    { name: 'one', elemType: ElemType.INT64, dims: [], raw: int64Bytes([1]) },
    { name: 'last_axis', elemType: ElemType.INT64, dims: [1], raw: int64Bytes([-1]) },
  ];
  const nodes: Uint8Array[] = [];

  if (quantized) {
    const { q, scale, zeroPoint } = quantizeUint8(wordEmbeddings);
    initializers.push(
      { name: 'word_embeddings_quantized', elemType: ElemType.UINT8, dims: [vocabSize, dims], raw: q },
      { name: 'word_embeddings_scale', elemType: ElemType.FLOAT, dims: [], raw: floatBytes(Float32Array.of(scale)) },
      { name: 'word_embeddings_zero_point', elemType: ElemType.UINT8, dims: [], raw: Uint8Array.of(zeroPoint) },
    );
    nodes.push(
      node(
        'DequantizeLinear',
        ['word_embeddings_quantized', 'word_embeddings_scale', 'word_embeddings_zero_point'],
        ['word_embeddings'],
      ),
    );
  } else {
    initializers.push({
      name: 'word_embeddings',
      elemType: ElemType.FLOAT,
      dims: [vocabSize, dims],
      raw: floatBytes(wordEmbeddings),
    });
  }

  nodes.push(
    node('Gather', ['word_embeddings', 'input_ids'], ['word_states'], [intAttribute('axis', 0)]),
    node('Gather', ['token_type_embeddings', 'token_type_ids'], ['type_states'], [intAttribute('axis', 0)]),
    node('Shape', ['input_ids'], ['input_shape']),
    node('Gather', ['input_shape', 'one'], ['sequence_length'], [intAttribute('axis', 0)]),
    node('Range', ['zero', 'sequence_length', 'one'], ['position_ids']),
    node('Gather', ['position_embeddings', 'position_ids'], ['position_states'], [intAttribute('axis', 0)]),
    node('Add', ['word_states', 'type_states'], ['token_states']),
    node('Add', ['token_states', 'position_states'], ['summed_states']),
  );
  let states = 'summed_states';
  for (let b = 0; b < (opts.computeBlocks ?? 0); b++) {
    const width = 4 * dims;
    initializers.push(
      { name: `block${b}_up`, elemType: ElemType.FLOAT, dims: [dims, width], raw: floatBytes(randomMatrix(dims, width, 1 / Math.sqrt(dims), random)) },
      { name: `block${b}_down`, elemType: ElemType.FLOAT, dims: [width, dims], raw: floatBytes(randomMatrix(width, dims, 1 / Math.sqrt(width), random)) },
    );
    nodes.push(
      node('MatMul', [states, `block${b}_up`], [`block${b}_wide`]),
      node('Tanh', [`block${b}_wide`], [`block${b}_active`]),
      node('MatMul', [`block${b}_active`, `block${b}_down`], [`block${b}_narrow`]),
      node('Add', [states, `block${b}_narrow`], [`block${b}_out`]),
    );
    states = `block${b}_out`;
  }
  nodes.push(
    // Without a nonlinearity, mean pooling over (word + position) would forget word order entirely.
    node('Tanh', [states], ['hidden_states']),
    node('Cast', ['attention_mask'], ['mask_float'], [intAttribute('to', ElemType.FLOAT)]),
    node('Unsqueeze', ['mask_float', 'last_axis'], ['mask_expanded']),
    node('Mul', ['hidden_states', 'mask_expanded'], ['last_hidden_state']),
  );

  const inputShape = ['batch_size', 'sequence_length'];
  const graph = concatBytes([
    ...nodes.map((n) => messageField(1, [n])), // GraphProto.node = 1
    stringField(2, 'tiny_embedding'), // GraphProto.name = 2
    ...initializers.map((t) => messageField(5, [tensorProto(t)])), // GraphProto.initializer = 5
    messageField(11, [valueInfo('input_ids', ElemType.INT64, inputShape)]), // GraphProto.input = 11
    messageField(11, [valueInfo('attention_mask', ElemType.INT64, inputShape)]),
    messageField(11, [valueInfo('token_type_ids', ElemType.INT64, inputShape)]),
    messageField(12, [valueInfo('last_hidden_state', ElemType.FLOAT, [...inputShape, dims])]), // GraphProto.output = 12
  ]);

  // ModelProto { ir_version = 1, producer_name = 2, producer_version = 3, graph = 7,
  //              opset_import = 8: OperatorSetIdProto { domain = 1 (omitted: default ai.onnx), version = 2 } }
  return concatBytes([
    varintField(1, IR_VERSION),
    stringField(2, 'mnemo-test'),
    stringField(3, '1'),
    messageField(7, [graph]),
    messageField(8, [varintField(2, OPSET_VERSION)]),
  ]);
}

// ---------------------------------------------------------------------------------------------------------------
// The tokenizer

export const SPECIAL_TOKENS = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'] as const;

/** A few ideographs, each a token of its own (BertNormalizer puts spaces around CJK characters). */
const CJK_CHARACTERS = [...'我你他她们是的不了人在有这那中国文字学习记忆喜欢咖啡茶猫狗天气今明好大小一二三日本语北京上海吃饭水山家朋友工作名叫'];

/**
 * Special tokens first, then whole words, ASCII letters/digits/punctuation, "##" continuations for letters and
 * digits (so any lowercase ASCII word is spelled out without [UNK]) and some CJK characters.
 */
export function buildTinyVocab(): string[] {
  const letters = [...'abcdefghijklmnopqrstuvwxyz'];
  const digits = [...'0123456789'];
  const punctuation = [...'!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~'];
  const words = ['query', 'passage', 'the', 'and', 'hello', 'world', 'coffee', 'tea', 'memory'];
  const vocab = [
    ...SPECIAL_TOKENS,
    ...words,
    ...letters,
    ...digits,
    ...punctuation,
    ...letters.map((c) => `##${c}`),
    ...digits.map((c) => `##${c}`),
    ...CJK_CHARACTERS,
  ];
  return [...new Set(vocab)];
}

/** tokenizer.json in the Hugging Face `tokenizers` format, as a BERT uncased tokenizer saves it. */
export function buildTokenizerJson(vocab: readonly string[], maxLength: number): Record<string, unknown> {
  const id = (token: string): number => {
    const i = vocab.indexOf(token);
    if (i < 0) throw new Error(`token ${token} is not in the vocabulary`);
    return i;
  };
  const special = (token: string) => ({ SpecialToken: { id: token, type_id: 0 } });
  return {
    version: '1.0',
    truncation: { direction: 'Right', max_length: maxLength, strategy: 'LongestFirst', stride: 0 },
    padding: null,
    added_tokens: SPECIAL_TOKENS.map((content) => ({
      id: id(content),
      content,
      single_word: false,
      lstrip: false,
      rstrip: false,
      normalized: false,
      special: true,
    })),
    normalizer: {
      type: 'BertNormalizer',
      clean_text: true,
      handle_chinese_chars: true,
      strip_accents: null,
      lowercase: true,
    },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [special('[CLS]'), { Sequence: { id: 'A', type_id: 0 } }, special('[SEP]')],
      pair: [
        special('[CLS]'),
        { Sequence: { id: 'A', type_id: 0 } },
        special('[SEP]'),
        { Sequence: { id: 'B', type_id: 1 } },
        { SpecialToken: { id: '[SEP]', type_id: 1 } },
      ],
      special_tokens: Object.fromEntries(
        ['[CLS]', '[SEP]'].map((t) => [t, { id: t, ids: [id(t)], tokens: [t] }]),
      ),
    },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: {
      type: 'WordPiece',
      unk_token: '[UNK]',
      continuing_subword_prefix: '##',
      max_input_chars_per_word: 100,
      vocab: Object.fromEntries(vocab.map((token, i) => [token, i])),
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// The folder

export interface TinyEmbeddingModel {
  /** The model's own folder: dir/<modelName>. */
  modelDir: string;
  modelName: string;
  dims: number;
}

export const TINY_MODEL_DEFAULTS = { dims: 32, modelName: 'mnemo-test/tiny-embedding', maxPositions: 128 } as const;

/** Writes a complete local model folder (both 'fp32' and 'q8' files) under dir/<modelName>/. */
export async function writeTinyEmbeddingModel(
  dir: string,
  opts: { dims?: number; modelName?: string; computeBlocks?: number } = {},
): Promise<TinyEmbeddingModel> {
  const dims = opts.dims ?? TINY_MODEL_DEFAULTS.dims;
  const modelName = opts.modelName ?? TINY_MODEL_DEFAULTS.modelName;
  const maxPositions = TINY_MODEL_DEFAULTS.maxPositions;
  if (!Number.isInteger(dims) || dims < 1) throw new RangeError(`dims must be a positive integer, got ${dims}`);

  const modelDir = path.join(dir, ...modelName.split('/'));
  const vocab = buildTinyVocab();
  await mkdir(path.join(modelDir, 'onnx'), { recursive: true });

  const config = {
    model_type: 'bert',
    architectures: ['BertModel'],
    vocab_size: vocab.length,
    hidden_size: dims,
    num_hidden_layers: 0,
    num_attention_heads: 1,
    intermediate_size: dims,
    max_position_embeddings: maxPositions,
    type_vocab_size: 2,
    pad_token_id: 0,
  };
  const tokenizerConfig = {
    tokenizer_class: 'BertTokenizer',
    do_lower_case: true,
    model_max_length: maxPositions,
    clean_up_tokenization_spaces: true,
    cls_token: '[CLS]',
    sep_token: '[SEP]',
    pad_token: '[PAD]',
    unk_token: '[UNK]',
    mask_token: '[MASK]',
  };
  const graph = { vocabSize: vocab.length, dims, maxPositions, ...(opts.computeBlocks ? { computeBlocks: opts.computeBlocks } : {}) };

  await Promise.all([
    writeFile(path.join(modelDir, 'config.json'), JSON.stringify(config, null, 2)),
    writeFile(path.join(modelDir, 'tokenizer.json'), JSON.stringify(buildTokenizerJson(vocab, maxPositions))),
    writeFile(path.join(modelDir, 'tokenizer_config.json'), JSON.stringify(tokenizerConfig, null, 2)),
    writeFile(path.join(modelDir, 'onnx', 'model.onnx'), buildTinyEmbeddingOnnx({ ...graph, quantized: false })),
    writeFile(
      path.join(modelDir, 'onnx', 'model_quantized.onnx'),
      buildTinyEmbeddingOnnx({ ...graph, quantized: true }),
    ),
  ]);
  return { modelDir, modelName, dims };
}
