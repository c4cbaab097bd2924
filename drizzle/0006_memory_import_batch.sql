PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_memories` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`content` text NOT NULL,
	`content_hash` text NOT NULL,
	`category` text NOT NULL,
	`importance` real DEFAULT 0.5 NOT NULL,
	`confidence` real DEFAULT 1 NOT NULL,
	`pinned` integer DEFAULT false NOT NULL,
	`status` text DEFAULT 'active' NOT NULL,
	`source_thread_id` integer,
	`source_message_id` integer,
	`evidence` text,
	`valid_from` integer,
	`expires_at` integer,
	`superseded_by` integer,
	`access_count` integer DEFAULT 0 NOT NULL,
	`last_used_at` integer,
	`embedding_model` text,
	`trashed_at` integer,
	`import_batch` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`source_thread_id`) REFERENCES `threads`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`source_message_id`) REFERENCES `messages`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`superseded_by`) REFERENCES `memories`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "memories_category_chk" CHECK("__new_memories"."category" IN ('knowledge','preference','project','skill')),
	CONSTRAINT "memories_status_chk" CHECK("__new_memories"."status" IN ('active','archived','trashed','superseded','review','rejected','importing')),
	CONSTRAINT "memories_importance_chk" CHECK("__new_memories"."importance" >= 0 AND "__new_memories"."importance" <= 1),
	CONSTRAINT "memories_confidence_chk" CHECK("__new_memories"."confidence" >= 0 AND "__new_memories"."confidence" <= 1)
);
--> statement-breakpoint
INSERT INTO `__new_memories`("id", "content", "content_hash", "category", "importance", "confidence", "pinned", "status", "source_thread_id", "source_message_id", "evidence", "valid_from", "expires_at", "superseded_by", "access_count", "last_used_at", "embedding_model", "trashed_at", "created_at", "updated_at") SELECT "id", "content", "content_hash", "category", "importance", "confidence", "pinned", "status", "source_thread_id", "source_message_id", "evidence", "valid_from", "expires_at", "superseded_by", "access_count", "last_used_at", "embedding_model", "trashed_at", "created_at", "updated_at" FROM `memories`;--> statement-breakpoint
-- Hand-added: AUTOINCREMENT must not hand out the ids of memories purged at the end of the old table.
DELETE FROM sqlite_sequence WHERE name = '__new_memories';--> statement-breakpoint
INSERT INTO sqlite_sequence (name, seq) SELECT '__new_memories', max(coalesce((SELECT max(seq) FROM sqlite_sequence WHERE name = 'memories'), 0), coalesce((SELECT max(id) FROM `__new_memories`), 0));--> statement-breakpoint
DROP TABLE `memories`;--> statement-breakpoint
ALTER TABLE `__new_memories` RENAME TO `memories`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE INDEX `memories_status_idx` ON `memories` (`status`,`category`);--> statement-breakpoint
CREATE INDEX `memories_import_batch_idx` ON `memories` (`import_batch`) WHERE "memories"."import_batch" IS NOT NULL;--> statement-breakpoint
CREATE INDEX `memories_hash_idx` ON `memories` (`content_hash`);--> statement-breakpoint
CREATE INDEX `memories_created_idx` ON `memories` (`created_at`);--> statement-breakpoint
CREATE INDEX `memories_source_thread_idx` ON `memories` (`source_thread_id`);--> statement-breakpoint
CREATE INDEX `memories_source_message_idx` ON `memories` (`source_message_id`);--> statement-breakpoint
CREATE INDEX `memories_superseded_idx` ON `memories` (`superseded_by`);--> statement-breakpoint
CREATE INDEX `memories_status_importance_idx` ON `memories` (`status`,`importance`);--> statement-breakpoint
CREATE INDEX `memories_status_created_idx` ON `memories` (`status`,`created_at`);--> statement-breakpoint
CREATE INDEX `memories_status_last_used_idx` ON `memories` (`status`,`last_used_at`);--> statement-breakpoint
CREATE INDEX `memories_status_access_idx` ON `memories` (`status`,`access_count`);--> statement-breakpoint
CREATE INDEX `memories_status_pinned_idx` ON `memories` (`status`,`pinned`);--> statement-breakpoint
CREATE INDEX `memories_embedding_model_idx` ON `memories` (`embedding_model`);