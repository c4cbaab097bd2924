CREATE INDEX `memories_status_importance_idx` ON `memories` (`status`,`importance`);--> statement-breakpoint
CREATE INDEX `memories_status_created_idx` ON `memories` (`status`,`created_at`);--> statement-breakpoint
CREATE INDEX `memories_status_last_used_idx` ON `memories` (`status`,`last_used_at`);--> statement-breakpoint
CREATE INDEX `memories_status_access_idx` ON `memories` (`status`,`access_count`);--> statement-breakpoint
CREATE INDEX `memories_status_pinned_idx` ON `memories` (`status`,`pinned`);--> statement-breakpoint
CREATE INDEX `memories_embedding_model_idx` ON `memories` (`embedding_model`);