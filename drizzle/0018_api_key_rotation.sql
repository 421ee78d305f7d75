ALTER TABLE `gateway_api_keys` ADD `rotated_at` integer;--> statement-breakpoint
ALTER TABLE `gateway_api_keys` ADD `previous_key_hash` text;--> statement-breakpoint
ALTER TABLE `gateway_api_keys` ADD `previous_key_expires_at` integer;--> statement-breakpoint
CREATE INDEX `gateway_api_keys_previous_hash` ON `gateway_api_keys` (`previous_key_hash`);