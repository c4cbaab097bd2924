/** English left in Chinese text: the check the zh-CN catalog (unit) and the zh-CN screens (e2e) are held to. */

/**
 * Words a Chinese UI keeps in Latin letters, each for a reason: names of products and formats (a translation would
 * not be found on the user's machine or in a search), key caps as printed on the keyboard, and things the user types
 * exactly (a command, an environment variable, an address, an IANA time zone name).
 */
const KEPT_IN_LATIN = [
  // Products and projects.
  'Mnemo', 'Ollama', 'LM Studio', 'llama-server', 'llama.cpp', 'OpenAI', 'Jan', 'vLLM', 'LocalAI',
  // Formats and protocols.
  'JSON', 'Markdown', 'PDF', 'URL', 'API', 'GGUF', 'ONNX', 'MCP', 'https://', 'http://',
  // Key caps.
  'Enter', 'Shift', 'Esc', 'Ctrl', 'Del',
  // Typed exactly as written.
  'ollama serve', 'npm run web', '--data-dir', 'OLLAMA_HOST', 'HF_ENDPOINT', 'Europe/Berlin', 'Asia/Shanghai', '127.0.0.1:11434',
  'base URL', '/chat/completions', '/v1', 'mnemo mcp',
  // File names.
  'README',
];

/**
 * The Latin words left in `text` once placeholders and kept words are taken out (single letters are key caps: Ctrl+K).
 * `alsoKept`: identifiers a screen shows as they are, such as the model names installed (qwen3:4b).
 */
export function latinWords(text: string, alsoKept: readonly string[] = []): string[] {
  let rest = text.replace(/\{\w+\}/g, ' ');
  for (const kept of [...KEPT_IN_LATIN, ...alsoKept].sort((a, b) => b.length - a.length)) rest = rest.split(kept).join(' ');
  return rest.match(/[A-Za-z][A-Za-z'’-]*[A-Za-z]/g) ?? [];
}
