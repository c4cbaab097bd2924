import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ProgressInfo } from '@huggingface/transformers';

import { createDownloadProgress, percentOf, type DownloadProgress } from '../../electron/core/embedding/download-progress';
import { resolveModelHub } from '../../electron/core/embedding/embedder.factory';
import { providerOf } from '../../electron/core/embedding/embedding.service';
import { l2Normalize, withDefaultTag } from '../../electron/core/embedding/ollama.embedder';
import { DEFAULT_MODEL_HUB, normalizeHubUrl } from '../../electron/core/embedding/onnx.embedder';

/** What transformers.js's DefaultProgressCallback sends for one chunk: the running totals, then the file's own. */
function chunk(file: string, fileLoaded: number, fileTotal: number, loaded: number, total: number): ProgressInfo[] {
  return [
    { status: 'progress_total', name: 'm', progress: (loaded / total) * 100, loaded, total, files: {} },
    { status: 'progress', name: 'm', file, progress: (fileLoaded / fileTotal) * 100, loaded: fileLoaded, total: fileTotal },
  ];
}

describe('download progress', () => {
  it('reports bytes over all files with the current file, once per whole percent and file', () => {
    const seen: DownloadProgress[] = [];
    const callback = createDownloadProgress((p) => seen.push(p));
    const infos: ProgressInfo[] = [
      { status: 'initiate', name: 'm', file: 'config.json' },
      { status: 'download', name: 'm', file: 'config.json' },
      ...chunk('config.json', 100, 100, 100, 1000),
      { status: 'done', name: 'm', file: 'config.json' },
      ...chunk('onnx/model.onnx', 300, 900, 400, 1000),
      ...chunk('onnx/model.onnx', 301, 900, 401, 1000), // same whole percent: no new report
      ...chunk('onnx/model.onnx', 900, 900, 1000, 1000),
      ...chunk('onnx/model.onnx', 900, 900, 1000, 1000), // transformers.js repeats the last one
      { status: 'ready', task: 'feature-extraction', model: 'm' },
    ];
    for (const info of infos) callback(info);
    expect(seen).toEqual([
      { file: 'config.json', loadedBytes: 100, totalBytes: 1000, percent: 10 },
      { file: 'onnx/model.onnx', loadedBytes: 400, totalBytes: 1000, percent: 40 },
      { file: 'onnx/model.onnx', loadedBytes: 1000, totalBytes: 1000, percent: 100 },
    ]);
  });

  it('reports 100% once even when several files end at once', () => {
    const seen: DownloadProgress[] = [];
    const callback = createDownloadProgress((p) => seen.push(p));
    for (const info of [...chunk('a', 10, 10, 20, 20), ...chunk('b', 10, 10, 20, 20)]) callback(info);
    expect(seen.map((p) => p.percent)).toEqual([100]);
  });

  it('percent is a whole number in 0..100, rounded down, 100 only when every byte is there', () => {
    fc.assert(
      fc.property(fc.nat(), fc.nat(), (a, b) => {
        const [loaded, total] = a <= b ? [a, b] : [b, a];
        const p = percentOf(loaded, total);
        expect(Number.isInteger(p) && p >= 0 && p <= 100).toBe(true);
        expect(p === 100).toBe(total > 0 && loaded === total);
        expect(percentOf(Math.min(loaded + 1, total), total)).toBeGreaterThanOrEqual(p);
      }),
    );
    expect(percentOf(5, 0)).toBe(0);
  });
});

describe('Ollama embedder helpers', () => {
  it('l2Normalize gives unit length and keeps the direction', () => {
    const vector = fc.array(fc.float({ min: -1e3, max: 1e3, noNaN: true }), { minLength: 1, maxLength: 64 });
    fc.assert(
      fc.property(vector, (values) => {
        const out = l2Normalize(values);
        const norm = Math.sqrt(values.reduce((s, x) => s + x * x, 0));
        const outNorm = Math.sqrt(out.reduce((s, x) => s + x * x, 0));
        if (norm < 1e-6) return; // no direction to keep; covered below
        expect(outNorm).toBeCloseTo(1, 4);
        values.forEach((x, i) => expect(out[i]! * norm).toBeCloseTo(x, 1));
      }),
    );
    expect(Array.from(l2Normalize([0, 0, 0]))).toEqual([0, 0, 0]);
    expect(l2Normalize([3, 4])).toEqual(Float32Array.from([0.6, 0.8]));
  });

  it('names a model the way Ollama does: no tag means :latest', () => {
    expect(withDefaultTag('nomic-embed-text')).toBe('nomic-embed-text:latest');
    expect(withDefaultTag('bge-m3:567m')).toBe('bge-m3:567m');
    expect(withDefaultTag('registry.example.com:5000/me/model')).toBe('registry.example.com:5000/me/model:latest');
  });
});

describe('providers', () => {
  it('takes the model hub from HF_ENDPOINT, else the Hugging Face Hub, and normalizes it', () => {
    expect(resolveModelHub({})).toBe(DEFAULT_MODEL_HUB);
    expect(resolveModelHub({ HF_ENDPOINT: ' https://hf-mirror.com ' })).toBe('https://hf-mirror.com');
    expect(normalizeHubUrl('https://hf-mirror.com')).toBe('https://hf-mirror.com/');
    expect(normalizeHubUrl('http://127.0.0.1:8080/hub//')).toBe('http://127.0.0.1:8080/hub/');
    expect(() => normalizeHubUrl('ftp://example.com')).toThrow(/not an http\(s\) address/);
    expect(() => normalizeHubUrl('hf-mirror.com')).toThrow(/not an http\(s\) address/);
  });

  it('tells the provider from a model id', () => {
    expect(providerOf('onnx:Xenova/multilingual-e5-small')).toBe('onnx');
    expect(providerOf('ollama:nomic-embed-text:latest')).toBe('ollama');
    expect(providerOf(null)).toBeNull();
  });
});
