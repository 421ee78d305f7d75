CREATE TABLE `gateway_sso_sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`provider` text NOT NULL,
	`issuer` text NOT NULL,
	`subject` text NOT NULL,
	`owner_user` text NOT NULL,
	`key_id` text NOT NULL,
	`groups` text NOT NULL,
	`refresh_token` text,
	`created_at` integer NOT NULL,
	`refreshed_at` integer,
	`ended_at` integer,
	`end_reason` text
);
--> statement-breakpoint
CREATE INDEX `gateway_sso_sessions_key` ON `gateway_sso_sessions` (`key_id`);--> statement-breakpoint
CREATE INDEX `gateway_sso_sessions_open` ON `gateway_sso_sessions` (`ended_at`);--> statement-breakpoint
ALTER TABLE `gateway_api_keys` ADD `issuer` text;--> statement-breakpoint
ALTER TABLE `gateway_api_keys` ADD `subject` text;--> statement-breakpoint
ALTER TABLE `gateway_api_keys` ADD `sso_session_id` text;--> statement-breakpoint
CREATE INDEX `gateway_api_keys_sso_session` ON `gateway_api_keys` (`sso_session_id`);