CREATE TABLE `mcp_clients` (
	`name` text PRIMARY KEY NOT NULL,
	`access` text DEFAULT 'read' NOT NULL,
	`conversations` integer DEFAULT false NOT NULL,
	`first_seen_at` integer,
	`last_seen_at` integer,
	`reads` integer DEFAULT 0 NOT NULL,
	`writes` integer DEFAULT 0 NOT NULL,
	CONSTRAINT "mcp_clients_access_chk" CHECK("mcp_clients"."access" IN ('read','write','off'))
);
--> statement-breakpoint
CREATE TABLE `mcp_memory_access` (
	`client` text NOT NULL,
	`memory_id` integer NOT NULL,
	`reads` integer DEFAULT 0 NOT NULL,
	`writes` integer DEFAULT 0 NOT NULL,
	`last_at` integer NOT NULL,
	PRIMARY KEY(`client`, `memory_id`),
	FOREIGN KEY (`client`) REFERENCES `mcp_clients`(`name`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`memory_id`) REFERENCES `memories`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `mcp_memory_access_memory_idx` ON `mcp_memory_access` (`memory_id`);