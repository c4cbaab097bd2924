PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_jobs` (
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
	CONSTRAINT "jobs_kind_chk" CHECK("__new_jobs"."kind" IN ('extract','summarize','title','reembed','profile','episode','focus','consolidate')),
	CONSTRAINT "jobs_status_chk" CHECK("__new_jobs"."status" IN ('queued','running','done','dead','cancelled'))
);
--> statement-breakpoint
INSERT INTO `__new_jobs`("id", "kind", "idempotency_key", "thread_id", "message_id", "payload", "status", "attempts", "max_attempts", "run_after", "lease_owner", "lease_expires_at", "fencing_token", "last_error_code", "last_error_message", "created_at", "updated_at", "finished_at") SELECT "id", "kind", "idempotency_key", "thread_id", "message_id", "payload", "status", "attempts", "max_attempts", "run_after", "lease_owner", "lease_expires_at", "fencing_token", "last_error_code", "last_error_message", "created_at", "updated_at", "finished_at" FROM `jobs`;--> statement-breakpoint
-- Hand-added (as in 0007): AUTOINCREMENT must not hand out the ids of jobs deleted at the end of the old table (the
-- timeline's failure events name jobs by id).
DELETE FROM sqlite_sequence WHERE name = '__new_jobs';--> statement-breakpoint
INSERT INTO sqlite_sequence (name, seq) SELECT '__new_jobs', max(coalesce((SELECT max(seq) FROM sqlite_sequence WHERE name = 'jobs'), 0), coalesce((SELECT max(id) FROM `__new_jobs`), 0));--> statement-breakpoint
DROP TABLE `jobs`;--> statement-breakpoint
ALTER TABLE `__new_jobs` RENAME TO `jobs`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE UNIQUE INDEX `jobs_idempotency_uq` ON `jobs` (`idempotency_key`);--> statement-breakpoint
CREATE INDEX `jobs_ready_idx` ON `jobs` (`status`,`run_after`);--> statement-breakpoint
CREATE INDEX `jobs_thread_idx` ON `jobs` (`thread_id`);--> statement-breakpoint
CREATE INDEX `jobs_message_idx` ON `jobs` (`message_id`);