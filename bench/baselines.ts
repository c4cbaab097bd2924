/**
 * The plain retrieval baselines quality suites compare Mnemo with, over the same texts in the same run: SQLite FTS5
 * bm25, exact cosine, and their reciprocal-rank fusion. Answers are indexes into the texts, best first.
 */
import Database from 'better-sqlite3';

/** The question's words as unicode61 would cut them (a Chinese sentence without spaces is one word). */
export function plainWords(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/**
 * FTS5 with the porter tokenizer over `encode(text)`, each query's terms ORed, best bm25 first, at most `k` per query.
 * Defaults: the texts as they are, the query's plain words.
 */
export function bm25Top(texts: string[], queries: string[], k: number, encode: (text: string) => string = (t) => t, terms: (text: string) => string[] = plainWords): number[][] {
  const db = new Database(':memory:');
  try {
    db.exec(`CREATE VIRTUAL TABLE base USING fts5(body, tokenize='porter unicode61')`);
    const insert = db.prepare('INSERT INTO base (rowid, body) VALUES (?, ?)');
    texts.forEach((t, i) => insert.run(i + 1, encode(t)));
    const search = db.prepare('SELECT rowid AS id FROM base WHERE base MATCH ? ORDER BY rank LIMIT ?');
    return queries.map((q) => {
      const words = [...new Set(terms(q))];
      if (words.length === 0) return [];
      const match = words.map((w) => `"${w.replaceAll('"', '""')}"`).join(' OR ');
      return (search.all(match, k) as Array<{ id: number }>).map((r) => r.id - 1);
    });
  } finally {
    db.close();
  }
}

/** Exact cosine (the vectors are normalized: a dot product), best first, at most `k` per query. */
export function cosineTop(texts: Float32Array[], queries: Float32Array[], k: number): number[][] {
  return queries.map((q) =>
    texts
      .map((t, i) => {
        let dot = 0;
        for (let d = 0; d < q.length; d++) dot += q[d]! * t[d]!;
        return { i, dot };
      })
      .sort((a, b) => b.dot - a.dot)
      .slice(0, k)
      .map((x) => x.i),
  );
}

/** Reciprocal-rank fusion: each list gives 1 / (k + rank) to what it holds; best total first. */
export function reciprocalRankFusion(lists: number[][], k = 60): number[] {
  const total = new Map<number, number>();
  for (const list of lists) list.forEach((id, rank) => total.set(id, (total.get(id) ?? 0) + 1 / (k + rank + 1)));
  return [...total.entries()].sort((a, b) => b[1] - a[1]).map(([id]) => id);
}
