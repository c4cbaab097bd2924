/**
 * Which installed Ollama models can hold a conversation, and which one Mnemo uses when the user has not chosen one
 * and the default is not installed. Pure: the models service gathers the facts (tags, /api/show) and stores the pick.
 *
 * Chat-capable: Ollama lists the capability "completion" (reported by /api/show since Ollama 0.6.4). An Ollama too
 * old to report capabilities gets a name rule instead: a model is taken for embedding-only when its family is a BERT
 * (bert, nomic-bert, xlm-roberta, ...) or its name says so (embed, minilm, bge, gte, e5, paraphrase); anything else
 * is offered for chat. An embedding-only model is never picked and never offered as a chat model.
 *
 * The pick, among chat-capable models, first to last:
 *  1. a size a laptop runs at a usable speed and that still answers well: 1 to 14 billion parameters (an unknown size
 *     comes after those, a smaller or larger one last);
 *  2. a general chat model of a widely used instruct family (llama, qwen, gemma, mistral, phi, granite) before
 *     others, and before code-completion models (capability "insert");
 *  3. the most recently pulled or updated (the model the user most likely installed to try);
 *  4. the name, in code-point order, so the same set of models always gives the same pick.
 */

export interface ModelCandidate {
  /** As Ollama lists it, e.g. "qwen3:4b". */
  name: string;
  family: string | null;
  /** Ollama's parameter_size, e.g. "4.0B", "137M". */
  parameterSize: string | null;
  /** ISO time the model was pulled or last changed. */
  modifiedAt: string | null;
  /** From /api/show; null when this Ollama does not report capabilities. */
  capabilities: string[] | null;
}

const GENERAL_CHAT_FAMILIES = new Set(['llama', 'qwen2', 'qwen3', 'qwen3moe', 'gemma2', 'gemma3', 'gemma3n', 'mistral', 'mistral3', 'phi3', 'granite']);
const EMBEDDING_FAMILY = /bert|roberta/i;
const EMBEDDING_NAME = /embed|minilm|paraphrase|(^|[/_-])(bge|gte|e5)([:_-]|$)/i;
const LAPTOP_BILLIONS = { min: 1, max: 14 };

/** Whether the model can answer a conversation (see the rule above). */
export function canChat(model: ModelCandidate): boolean {
  if (model.capabilities !== null) return model.capabilities.includes('completion');
  const baseName = model.name.slice(model.name.lastIndexOf('/') + 1).split(':')[0] ?? '';
  return !EMBEDDING_FAMILY.test(model.family ?? '') && !EMBEDDING_NAME.test(baseName);
}

/** Billions of parameters from Ollama's parameter_size ("3.2B", "137M", "1.5T"); null when it does not say. */
export function parameterBillions(size: string | null): number | null {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([KMBT])\s*$/i.exec(size ?? '');
  if (!match) return null;
  const scale = { K: 1e-6, M: 1e-3, B: 1, T: 1e3 }[match[2]!.toUpperCase() as 'K' | 'M' | 'B' | 'T'];
  return Number(match[1]) * scale;
}

/** The chat model to use, by the order above; null when none of the models can chat. */
export function pickChatModel(models: readonly ModelCandidate[]): string | null {
  const ranked = models.filter(canChat).map((model) => ({ model, key: rankKey(model) }));
  ranked.sort((a, b) => compareKeys(a.key, b.key) || (a.model.name < b.model.name ? -1 : a.model.name > b.model.name ? 1 : 0));
  return ranked[0]?.model.name ?? null;
}

/** Smaller sorts first. */
function rankKey(model: ModelCandidate): number[] {
  const billions = parameterBillions(model.parameterSize);
  const size = billions === null ? 1 : billions >= LAPTOP_BILLIONS.min && billions <= LAPTOP_BILLIONS.max ? 0 : 2;
  const general = GENERAL_CHAT_FAMILIES.has((model.family ?? '').toLowerCase()) && !(model.capabilities ?? []).includes('insert') ? 0 : 1;
  const modified = Date.parse(model.modifiedAt ?? '');
  return [size, general, Number.isNaN(modified) ? Infinity : -modified];
}

function compareKeys(a: number[], b: number[]): number {
  for (let i = 0; i < a.length; i++) {
    if (a[i]! !== b[i]!) return a[i]! < b[i]! ? -1 : 1;
  }
  return 0;
}
