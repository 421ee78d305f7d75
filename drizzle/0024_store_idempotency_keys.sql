CREATE TABLE `store_idempotency_keys` (
	`token` text NOT NULL,
	`endpoint` text NOT NULL,
	`key` text NOT NULL,
	`fingerprint` text NOT NULL,
	`answer` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`token`, `endpoint`, `key`)
);
--> statement-breakpoint
CREATE INDEX `store_idempotency_keys_created` ON `store_idempotency_keys` (`created_at`);