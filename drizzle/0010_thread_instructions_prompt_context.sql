CREATE TABLE `message_contexts` (
	`message_id` integer PRIMARY KEY NOT NULL,
	`breakdown` text NOT NULL,
	FOREIGN KEY (`message_id`) REFERENCES `messages`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `threads` ADD `instructions` text;