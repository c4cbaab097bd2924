/** Ollama treats "llama3.2" and "llama3.2:latest" as the same model; so do the core and the renderer. */
export function sameModel(a: string, b: string): boolean {
  const norm = (n: string) => (n.includes(':') ? n : `${n}:latest`).toLowerCase();
  return norm(a) === norm(b);
}
