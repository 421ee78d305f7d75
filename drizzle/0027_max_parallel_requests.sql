ALTER TABLE `gateway_api_keys` ADD `max_parallel_requests` integer;--> statement-breakpoint
ALTER TABLE `gateway_teams` ADD `max_parallel_requests` integer;--> statement-breakpoint
ALTER TABLE `gateway_users` ADD `max_parallel_requests` integer;