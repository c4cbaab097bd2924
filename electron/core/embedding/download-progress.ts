/**
 * Turns transformers.js's loading callbacks into one stream for a progress bar: bytes over all of the model's files,
 * and the file being fetched.
 *
 * The byte counts come from transformers.js's own `progress_total` events, whose totals are seeded before any byte
 * moves (pipeline() asks the Hub for every expected file's size first), so the bar does not jump back when a second
 * file starts. DefaultProgressCallback sends each `progress_total` right before the per-file `progress` it sums up;
 * the file name is taken from the latter.
 */
import type { ProgressInfo } from '@huggingface/transformers';

export interface DownloadProgress {
  /** The file being fetched, relative to the model folder (e.g. "onnx/model_quantized.onnx"). */
  file: string;
  /** Over all of the model's files. */
  loadedBytes: number;
  totalBytes: number;
  /** 0..100, whole numbers; 100 only once every byte is there. */
  percent: number;
}

/**
 * A transformers.js progress_callback that reports to `onProgress`. Invariants: one report per whole percent and file
 * at most (a 100 MB model makes about a hundred events, not one per network chunk), and one report of 100%.
 */
export function createDownloadProgress(onProgress: (progress: DownloadProgress) => void): (info: ProgressInfo) => void {
  let loaded = 0;
  let total = 0;
  let last: DownloadProgress | null = null;
  return (info) => {
    if (info.status === 'progress_total') {
      loaded = info.loaded;
      total = info.total;
      return;
    }
    if (info.status !== 'progress') return;
    const next: DownloadProgress = { file: info.file, loadedBytes: loaded, totalBytes: total, percent: percentOf(loaded, total) };
    if (last && last.percent === next.percent && (last.file === next.file || next.percent === 100)) return;
    last = next;
    onProgress(next);
  };
}

/** Rounded down, so 100 means done rather than "more than 99.5% done". */
export function percentOf(loaded: number, total: number): number {
  if (!(total > 0)) return 0;
  return Math.max(0, Math.min(100, Math.floor((loaded * 100) / total)));
}
