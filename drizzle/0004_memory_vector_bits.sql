-- Vector search at scale (electron/core/memory/vector-index.ts): a binary-quantized first pass over
-- memory_vector_bits picks candidates, which are re-scored with the exact cosine of their float vectors.
--
-- 1. memory_vectors again, with chunk_size=128 (default 1024). Re-scoring reads one vector per candidate, and
--    SQLite reaches an offset inside a chunk's blob by walking its overflow pages from the start: 1.5 MB chunks made
--    that about 11 us a vector, 192 KB chunks about 6 us. The full scan costs about the same either way.
CREATE TABLE `memory_vectors_before_0004` AS SELECT `memory_id`, `embedding` FROM `memory_vectors`;
--> statement-breakpoint
DROP TABLE `memory_vectors`;
--> statement-breakpoint
CREATE VIRTUAL TABLE `memory_vectors` USING vec0(memory_id integer primary key, embedding float[384] distance_metric=cosine, chunk_size=128);
--> statement-breakpoint
INSERT INTO `memory_vectors` (`memory_id`, `embedding`)
  SELECT `memory_id`, `embedding` FROM `memory_vectors_before_0004` WHERE vec_length(`embedding`) = 384;
--> statement-breakpoint
-- Vectors of another dimension (the user had switched model) are not carried over: their memories get new ones from
-- fillMissingVectors, as after any model switch.
UPDATE `memories` SET `embedding_model` = NULL
  WHERE `embedding_model` IS NOT NULL AND `id` NOT IN (SELECT `memory_id` FROM `memory_vectors_before_0004` WHERE vec_length(`embedding`) = 384);
--> statement-breakpoint
DROP TABLE `memory_vectors_before_0004`;
--> statement-breakpoint
-- 2. The bits: one per dimension, the sign of (vector - memory_vector_center.vector), so 48 bytes a vector.
--    chunk_size=512: sqlite-vec 0.1.9 picks each chunk's best k by k passes over the chunk, so smaller chunks make
--    a large candidate count cheaper while every chunk costs a blob open; 256 and 512 were best at 100k vectors.
CREATE VIRTUAL TABLE `memory_vector_bits` USING vec0(memory_id integer primary key, embedding bit[384], chunk_size=512);
--> statement-breakpoint
-- The zero center: plain signs until the index has enough vectors to take their mean.
INSERT INTO `memory_vector_center` (`id`, `vector`, `basis`) VALUES (1, zeroblob(1536), 0);
--> statement-breakpoint
INSERT INTO `memory_vector_bits` (`memory_id`, `embedding`) SELECT `memory_id`, vec_quantize_binary(`embedding`) FROM `memory_vectors`;
