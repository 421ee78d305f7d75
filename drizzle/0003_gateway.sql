CREATE TABLE `gateway_api_keys` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text,
	`key_prefix` text NOT NULL,
	`key_hash` text NOT NULL,
	`owner_user` text,
	`team` text,
	`scopes` text NOT NULL,
	`allowed_models` text,
	`rpm_limit` integer,
	`tpm_limit` integer,
	`user_tpm_budget` integer,
	`user_tpd_budget` integer,
	`team_tpm_budget` integer,
	`team_tpd_budget` integer,
	`metadata` text,
	`expires_at` integer,
	`created_at` integer NOT NULL,
	`last_used_at` integer,
	`revoked_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `gateway_api_keys_hash` ON `gateway_api_keys` (`key_hash`);--> statement-breakpoint
CREATE INDEX `gateway_api_keys_owner` ON `gateway_api_keys` (`owner_user`);--> statement-breakpoint
CREATE INDEX `gateway_api_keys_team` ON `gateway_api_keys` (`team`);--> statement-breakpoint
CREATE TABLE `gateway_audit_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`created_at` integer NOT NULL,
	`actor` text NOT NULL,
	`action` text NOT NULL,
	`target` text,
	`request_id` text,
	`details` text
);
--> statement-breakpoint
CREATE INDEX `gateway_audit_created` ON `gateway_audit_events` (`created_at`);--> statement-breakpoint
CREATE INDEX `gateway_audit_action` ON `gateway_audit_events` (`action`,`created_at`);--> statement-breakpoint
CREATE TABLE `gateway_settings` (
	`name` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `gateway_usage` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`request_id` text NOT NULL,
	`created_at` integer NOT NULL,
	`key_id` text,
	`owner_user` text,
	`team` text,
	`endpoint` text NOT NULL,
	`model` text,
	`deployment` text,
	`provider` text,
	`prompt_tokens` integer NOT NULL,
	`completion_tokens` integer NOT NULL,
	`cost_usd` real NOT NULL,
	`latency_ms` real NOT NULL,
	`status` integer NOT NULL,
	`error_type` text,
	`stream` integer NOT NULL,
	`cached` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `gateway_usage_created` ON `gateway_usage` (`created_at`);--> statement-breakpoint
CREATE INDEX `gateway_usage_key_created` ON `gateway_usage` (`key_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `gateway_usage_user_created` ON `gateway_usage` (`owner_user`,`created_at`);--> statement-breakpoint
CREATE INDEX `gateway_usage_team_created` ON `gateway_usage` (`team`,`created_at`);--> statement-breakpoint
CREATE INDEX `gateway_usage_request` ON `gateway_usage` (`request_id`);