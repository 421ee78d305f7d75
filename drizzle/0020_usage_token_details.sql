ALTER TABLE `gateway_usage` ADD `cache_read_prompt_tokens` integer;--> statement-breakpoint
ALTER TABLE `gateway_usage` ADD `cache_write_prompt_tokens` integer;--> statement-breakpoint
ALTER TABLE `gateway_usage` ADD `reasoning_tokens` integer;