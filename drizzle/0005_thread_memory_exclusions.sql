CREATE TABLE `thread_memory_exclusions` (
	`thread_id` integer NOT NULL,
	`memory_id` integer NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`thread_id`, `memory_id`),
	FOREIGN KEY (`thread_id`) REFERENCES `threads`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`memory_id`) REFERENCES `memories`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `thread_memory_exclusions_memory_idx` ON `thread_memory_exclusions` (`memory_id`);