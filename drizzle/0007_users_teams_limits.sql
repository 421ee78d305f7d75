CREATE TABLE `gateway_teams` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text,
	`rpm_limit` integer,
	`tpm_limit` integer,
	`tpm_budget` integer,
	`tpd_budget` integer,
	`usd_daily_budget` real,
	`metadata` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `gateway_users` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text,
	`email` text,
	`team` text,
	`rpm_limit` integer,
	`tpm_limit` integer,
	`tpm_budget` integer,
	`tpd_budget` integer,
	`usd_daily_budget` real,
	`metadata` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `gateway_users_team` ON `gateway_users` (`team`);--> statement-breakpoint
ALTER TABLE `gateway_usage` ADD `admitted` integer DEFAULT false NOT NULL;--> statement-breakpoint
INSERT OR IGNORE INTO `gateway_teams` (`id`, `created_at`, `updated_at`)
	SELECT DISTINCT `team`, `created_at`, `created_at` FROM `gateway_api_keys` WHERE `team` IS NOT NULL;--> statement-breakpoint
INSERT OR IGNORE INTO `gateway_users` (`id`, `created_at`, `updated_at`)
	SELECT DISTINCT `owner_user`, `created_at`, `created_at` FROM `gateway_api_keys` WHERE `owner_user` IS NOT NULL;
