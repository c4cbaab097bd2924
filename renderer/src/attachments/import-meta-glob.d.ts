// The one Vite build-time feature the page uses (bundled-cmaps.ts), typed here: tsconfig.web.json takes no ambient
// types (no vite/client), so that nothing of Node leaks into the page's code.
interface ImportMeta {
  glob<T>(pattern: string, options: { eager: true; query: '?url'; import: 'default' }): Record<string, T>;
}
