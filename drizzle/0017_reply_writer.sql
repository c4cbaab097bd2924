ALTER TABLE `messages` ADD `writer` text;--> statement-breakpoint
CREATE INDEX `messages_streaming_idx` ON `messages` (`thread_id`) WHERE "messages"."status" = 'streaming';