ALTER TABLE `gateway_usage` ADD `trace_id` text;--> statement-breakpoint
ALTER TABLE `gateway_usage` ADD `attempts` integer;--> statement-breakpoint
ALTER TABLE `gateway_usage` ADD `tokens_estimated` integer DEFAULT false NOT NULL;