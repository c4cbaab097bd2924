CREATE TABLE `thread_focus` (
	`thread_id` integer PRIMARY KEY NOT NULL,
	`focus` text DEFAULT '' NOT NULL,
	`focus_edited_by_user` integer DEFAULT false NOT NULL,
	`focus_expires_at` integer,
	`through_message_id` integer DEFAULT 0 NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`thread_id`) REFERENCES `threads`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `thread_focus_tasks` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`thread_id` integer NOT NULL,
	`text` text NOT NULL,
	`state` text DEFAULT 'open' NOT NULL,
	`importance` text DEFAULT 'normal' NOT NULL,
	`edited_by_user` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`finished_at` integer,
	FOREIGN KEY (`thread_id`) REFERENCES `threads`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "thread_focus_tasks_state_chk" CHECK("thread_focus_tasks"."state" IN ('open','in_progress','done')),
	CONSTRAINT "thread_focus_tasks_importance_chk" CHECK("thread_focus_tasks"."importance" IN ('low','normal','high'))
);
--> statement-breakpoint
CREATE INDEX `thread_focus_tasks_thread_idx` ON `thread_focus_tasks` (`thread_id`,`id`);--> statement-breakpoint
CREATE INDEX `thread_focus_tasks_expires_idx` ON `thread_focus_tasks` (`expires_at`);