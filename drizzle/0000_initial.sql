CREATE TABLE `events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`kind` text NOT NULL,
	`memory_id` integer,
	`thread_id` integer,
	`message_id` integer,
	`category` text,
	`data` text DEFAULT '{}' NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`memory_id`) REFERENCES `memories`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`thread_id`) REFERENCES `threads`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`message_id`) REFERENCES `messages`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `events_created_idx` ON `events` (`created_at`);--> statement-breakpoint
CREATE INDEX `events_memory_idx` ON `events` (`memory_id`);--> statement-breakpoint
CREATE INDEX `events_kind_idx` ON `events` (`kind`,`created_at`);--> statement-breakpoint
CREATE TABLE `extraction_jobs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`kind` text NOT NULL,
	`idempotency_key` text NOT NULL,
	`thread_id` integer,
	`message_id` integer,
	`payload` text DEFAULT '{}' NOT NULL,
	`status` text DEFAULT 'queued' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`max_attempts` integer DEFAULT 5 NOT NULL,
	`run_after` integer NOT NULL,
	`lease_owner` text,
	`lease_expires_at` integer,
	`fencing_token` integer DEFAULT 0 NOT NULL,
	`last_error_code` text,
	`last_error_message` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`finished_at` integer,
	FOREIGN KEY (`thread_id`) REFERENCES `threads`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`message_id`) REFERENCES `messages`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "extraction_jobs_kind_chk" CHECK("extraction_jobs"."kind" IN ('extract','summarize','title','reembed')),
	CONSTRAINT "extraction_jobs_status_chk" CHECK("extraction_jobs"."status" IN ('queued','running','done','dead','cancelled'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `extraction_jobs_idempotency_uq` ON `extraction_jobs` (`idempotency_key`);--> statement-breakpoint
CREATE INDEX `extraction_jobs_ready_idx` ON `extraction_jobs` (`status`,`run_after`);--> statement-breakpoint
CREATE INDEX `extraction_jobs_thread_idx` ON `extraction_jobs` (`thread_id`);--> statement-breakpoint
CREATE INDEX `extraction_jobs_message_idx` ON `extraction_jobs` (`message_id`);--> statement-breakpoint
CREATE TABLE `memories` (
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
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`source_thread_id`) REFERENCES `threads`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`source_message_id`) REFERENCES `messages`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`superseded_by`) REFERENCES `memories`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "memories_category_chk" CHECK("memories"."category" IN ('knowledge','preference','project','skill')),
	CONSTRAINT "memories_status_chk" CHECK("memories"."status" IN ('active','archived','trashed','superseded','review','rejected')),
	CONSTRAINT "memories_importance_chk" CHECK("memories"."importance" >= 0 AND "memories"."importance" <= 1),
	CONSTRAINT "memories_confidence_chk" CHECK("memories"."confidence" >= 0 AND "memories"."confidence" <= 1)
);
--> statement-breakpoint
CREATE INDEX `memories_status_idx` ON `memories` (`status`,`category`);--> statement-breakpoint
CREATE INDEX `memories_hash_idx` ON `memories` (`content_hash`);--> statement-breakpoint
CREATE INDEX `memories_created_idx` ON `memories` (`created_at`);--> statement-breakpoint
CREATE INDEX `memories_source_thread_idx` ON `memories` (`source_thread_id`);--> statement-breakpoint
CREATE INDEX `memories_source_message_idx` ON `memories` (`source_message_id`);--> statement-breakpoint
CREATE INDEX `memories_superseded_idx` ON `memories` (`superseded_by`);--> statement-breakpoint
CREATE TABLE `memory_versions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`memory_id` integer NOT NULL,
	`version` integer NOT NULL,
	`content` text NOT NULL,
	`category` text NOT NULL,
	`importance` real NOT NULL,
	`pinned` integer NOT NULL,
	`status` text NOT NULL,
	`expires_at` integer,
	`origin` text NOT NULL,
	`reason` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`memory_id`) REFERENCES `memories`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "memory_versions_origin_chk" CHECK("memory_versions"."origin" IN ('user','extraction','maintenance','import'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `memory_versions_memory_version_uq` ON `memory_versions` (`memory_id`,`version`);--> statement-breakpoint
CREATE TABLE `message_memories` (
	`message_id` integer NOT NULL,
	`memory_id` integer NOT NULL,
	`score` real NOT NULL,
	`reason` text NOT NULL,
	`rank` integer NOT NULL,
	PRIMARY KEY(`message_id`, `memory_id`),
	FOREIGN KEY (`message_id`) REFERENCES `messages`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`memory_id`) REFERENCES `memories`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "message_memories_reason_chk" CHECK("message_memories"."reason" IN ('pinned','semantic','keyword','recency'))
);
--> statement-breakpoint
CREATE INDEX `message_memories_memory_idx` ON `message_memories` (`memory_id`);--> statement-breakpoint
CREATE TABLE `messages` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`thread_id` integer NOT NULL,
	`role` text NOT NULL,
	`content` text NOT NULL,
	`thinking` text DEFAULT '' NOT NULL,
	`status` text DEFAULT 'complete' NOT NULL,
	`error_code` text,
	`model` text,
	`prompt_tokens` integer,
	`completion_tokens` integer,
	`estimated_tokens` integer DEFAULT 0 NOT NULL,
	`total_duration_ms` integer,
	`load_duration_ms` integer,
	`eval_duration_ms` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`thread_id`) REFERENCES `threads`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "messages_role_chk" CHECK("messages"."role" IN ('user','assistant','system')),
	CONSTRAINT "messages_status_chk" CHECK("messages"."status" IN ('complete','streaming','stopped','error','truncated'))
);
--> statement-breakpoint
CREATE INDEX `messages_thread_idx` ON `messages` (`thread_id`,`id`);--> statement-breakpoint
CREATE TABLE `settings` (
	`key` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `thread_summaries` (
	`thread_id` integer PRIMARY KEY NOT NULL,
	`content` text NOT NULL,
	`from_message_id` integer,
	`to_message_id` integer,
	`covered_count` integer DEFAULT 0 NOT NULL,
	`pending_count` integer DEFAULT 0 NOT NULL,
	`edited_by_user` integer DEFAULT false NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`thread_id`) REFERENCES `threads`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `threads` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`title` text DEFAULT '' NOT NULL,
	`title_source` text,
	`incognito` integer DEFAULT false NOT NULL,
	`model` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`last_activity_at` integer NOT NULL,
	CONSTRAINT "threads_title_source_chk" CHECK("threads"."title_source" IS NULL OR "threads"."title_source" IN ('auto','user'))
);
--> statement-breakpoint
CREATE INDEX `threads_last_activity_idx` ON `threads` (`last_activity_at`);