CREATE TABLE `episode_versions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`episode_id` integer NOT NULL,
	`version` integer NOT NULL,
	`title` text NOT NULL,
	`content` text NOT NULL,
	`origin` text NOT NULL,
	`reason` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`episode_id`) REFERENCES `episodes`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "episode_versions_origin_chk" CHECK("episode_versions"."origin" IN ('model','user'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `episode_versions_episode_version_uq` ON `episode_versions` (`episode_id`,`version`);--> statement-breakpoint
CREATE TABLE `episodes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`thread_id` integer NOT NULL,
	`title` text DEFAULT '' NOT NULL,
	`content` text NOT NULL,
	`from_message_id` integer NOT NULL,
	`to_message_id` integer NOT NULL,
	`started_at` integer NOT NULL,
	`ended_at` integer NOT NULL,
	`edited_by_user` integer DEFAULT false NOT NULL,
	`status` text DEFAULT 'active' NOT NULL,
	`version` integer DEFAULT 1 NOT NULL,
	`trashed_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`thread_id`) REFERENCES `threads`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "episodes_status_chk" CHECK("episodes"."status" IN ('active','trashed'))
);
--> statement-breakpoint
CREATE INDEX `episodes_thread_idx` ON `episodes` (`thread_id`,`from_message_id`);--> statement-breakpoint
CREATE INDEX `episodes_status_ended_idx` ON `episodes` (`status`,`ended_at`);--> statement-breakpoint
-- Hand-added (drizzle cannot describe virtual tables or triggers), as in 0001: the episodes' full-text index,
-- contentless-delete with secure-delete (no readable copy of a deleted episode stays in the index), rowid =
-- episodes.id, text encoded by electron/core/text/fts-text.ts. The trigger removes an episode's entry with its row,
-- however the row goes: delete forever, or its thread's deletion (the foreign key's cascade fires delete triggers).
CREATE VIRTUAL TABLE `episodes_fts` USING fts5(body, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2');
--> statement-breakpoint
INSERT INTO `episodes_fts`(`episodes_fts`, `rank`) VALUES ('secure-delete', 1);
--> statement-breakpoint
CREATE TRIGGER `episodes_fts_delete` AFTER DELETE ON `episodes` BEGIN DELETE FROM `episodes_fts` WHERE rowid = old.id; END;
