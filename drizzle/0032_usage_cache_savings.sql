ALTER TABLE `gateway_usage` ADD `cache_status` text;--> statement-breakpoint
ALTER TABLE `gateway_usage` ADD `saved_prompt_tokens` integer;--> statement-breakpoint
ALTER TABLE `gateway_usage` ADD `saved_completion_tokens` integer;--> statement-breakpoint
ALTER TABLE `gateway_usage` ADD `saved_cost_usd` real;--> statement-breakpoint
ALTER TABLE `gateway_usage` ADD `cache_age_s` integer;