/**
 * The hand-written protobuf encoder behind the generated test model. onnxruntime rejecting a malformed file would
 * say little about where the bytes went wrong; these pin the wire format itself.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import {
  buildTinyEmbeddingOnnx,
  buildTinyVocab,
  buildTokenizerJson,
  bytesField,
  encodeVarint,
  quantizeUint8,
  SPECIAL_TOKENS,
  stringField,
  varintField,
} from '../fakes/tiny-onnx-model';

/** Reads one varint as protobuf does, for round trips. */
function decodeVarint(bytes: Uint8Array): { value: bigint; length: number } {
  let value = 0n;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    value |= BigInt(b & 0x7f) << BigInt(7 * i);
    if ((b & 0x80) === 0) return { value, length: i + 1 };
  }
  throw new Error('truncated varint');
}

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

describe('encodeVarint', () => {
  it('matches the protobuf encoding guide', () => {
    expect(hex(encodeVarint(0))).toBe('00');
    expect(hex(encodeVarint(1))).toBe('01');
    expect(hex(encodeVarint(127))).toBe('7f');
    expect(hex(encodeVarint(128))).toBe('8001');
    expect(hex(encodeVarint(150))).toBe('9601');
    expect(hex(encodeVarint(300))).toBe('ac02');
  });

  it('encodes negative int64 as ten bytes of two’s complement', () => {
    expect(hex(encodeVarint(-1))).toBe('ffffffffffffffffff01');
    expect(encodeVarint(-1n)).toEqual(encodeVarint(-1));
  });

  it('refuses numbers it cannot encode exactly', () => {
    expect(() => encodeVarint(1.5)).toThrow(RangeError);
    expect(() => encodeVarint(2 ** 53)).toThrow(RangeError);
  });

  it('round-trips every int64, using 1 byte per 7 bits', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), (n) => {
        const bytes = encodeVarint(n);
        const { value, length } = decodeVarint(bytes);
        expect(length).toBe(bytes.length);
        expect(BigInt.asIntN(64, value)).toBe(n);
        const unsigned = BigInt.asUintN(64, n);
        expect(bytes.length).toBe(Math.max(1, Math.ceil(unsigned.toString(2).length / 7)));
      }),
    );
  });
});

describe('protobuf fields', () => {
  it('prefix values with (field << 3 | wire type), as in the encoding guide', () => {
    expect(hex(varintField(1, 150))).toBe('089601');
    expect(hex(stringField(2, 'testing'))).toBe('120774657374696e67');
    expect(hex(bytesField(3, varintField(1, 150)))).toBe('1a03089601');
  });
});

describe('quantizeUint8', () => {
  it('dequantizes to within half a step of every value', () => {
    fc.assert(
      fc.property(fc.array(fc.float({ min: -4, max: 4, noNaN: true }), { minLength: 1, maxLength: 64 }), (xs) => {
        const values = Float32Array.from(xs);
        const { q, scale, zeroPoint } = quantizeUint8(values);
        values.forEach((v, i) => {
          expect(Math.abs((q[i]! - zeroPoint) * scale - v)).toBeLessThanOrEqual(scale / 2 + 1e-6);
        });
      }),
    );
  });
});

describe('buildTinyEmbeddingOnnx', () => {
  const opts = { vocabSize: 20, dims: 8, maxPositions: 16 };

  it('is deterministic, and the 8-bit file is the smaller one', () => {
    const fp32 = buildTinyEmbeddingOnnx({ ...opts, quantized: false });
    expect(buildTinyEmbeddingOnnx({ ...opts, quantized: false })).toEqual(fp32);
    const q8 = buildTinyEmbeddingOnnx({ ...opts, quantized: true });
    expect(q8.length).toBeLessThan(fp32.length);
    expect(buildTinyEmbeddingOnnx({ ...opts, quantized: false, seed: 7 })).not.toEqual(fp32);
  });

  it('starts with ir_version and declares the BERT input and output names', () => {
    const model = buildTinyEmbeddingOnnx({ ...opts, quantized: false });
    expect(hex(model.subarray(0, 2))).toBe('0808'); // field 1 (ir_version), varint 8
    const text = Buffer.from(model).toString('latin1');
    for (const name of ['input_ids', 'attention_mask', 'token_type_ids', 'last_hidden_state', 'batch_size']) {
      expect(text).toContain(name);
    }
  });
});

describe('the tiny tokenizer', () => {
  it('has unique tokens, special tokens first, and covers ASCII continuations and CJK', () => {
    const vocab = buildTinyVocab();
    expect(new Set(vocab).size).toBe(vocab.length);
    expect(vocab.slice(0, SPECIAL_TOKENS.length)).toEqual([...SPECIAL_TOKENS]);
    for (const token of ['a', '##z', '0', '##9', ':', '我', '咖']) expect(vocab).toContain(token);
  });

  it('maps every vocabulary entry to its index', () => {
    const vocab = buildTinyVocab();
    const json = buildTokenizerJson(vocab, 128) as { model: { vocab: Record<string, number> } };
    vocab.forEach((token, i) => expect(json.model.vocab[token]).toBe(i));
  });
});
