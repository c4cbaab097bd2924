-- Full-text and vector indexes: drizzle cannot describe virtual tables, so they live in this custom migration.
--
-- FTS5 tables are contentless-delete: they keep only the token index, never a copy of the text, so purging a memory
-- leaves no readable copy behind; rowid = memories.id / messages.id. The indexed text is prepared in JS
-- (electron/core/text/fts-text.ts: CJK runs become overlapping bigrams) because unicode61 does not segment Chinese.
-- secure-delete makes FTS5 overwrite deleted entries in its b-tree instead of leaving them in place.
CREATE VIRTUAL TABLE `memories_fts` USING fts5(body, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2');
--> statement-breakpoint
INSERT INTO `memories_fts`(`memories_fts`, `rank`) VALUES ('secure-delete', 1);
--> statement-breakpoint
CREATE VIRTUAL TABLE `messages_fts` USING fts5(body, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2');
--> statement-breakpoint
INSERT INTO `messages_fts`(`messages_fts`, `rank`) VALUES ('secure-delete', 1);
--> statement-breakpoint
-- One vector per memory, keyed by the memory's integer id. 384 dimensions is the default model's
-- (multilingual-e5-small); when the user switches to a model of another size the vector service rebuilds this
-- table with the new dimension and re-embeds in the background.
CREATE VIRTUAL TABLE `memory_vectors` USING vec0(memory_id integer primary key, embedding float[384] distance_metric=cosine);
