ALTER TABLE `messages` ADD `parent_id` integer;--> statement-breakpoint
CREATE INDEX `messages_parent_idx` ON `messages` (`thread_id`,`parent_id`);--> statement-breakpoint
ALTER TABLE `threads` ADD `active_leaf_id` integer;--> statement-breakpoint
-- Threads written before branches were one straight line: each message follows the one before it in its thread,
-- and the newest is the active leaf (chat/message-branches.ts).
UPDATE `messages` SET `parent_id` = (SELECT max(p.`id`) FROM `messages` p WHERE p.`thread_id` = `messages`.`thread_id` AND p.`id` < `messages`.`id`);--> statement-breakpoint
UPDATE `threads` SET `active_leaf_id` = (SELECT max(m.`id`) FROM `messages` m WHERE m.`thread_id` = `threads`.`id`);
