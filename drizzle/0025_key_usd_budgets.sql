ALTER TABLE `gateway_api_keys` ADD `usd_daily_budget` real;--> statement-breakpoint
ALTER TABLE `gateway_api_keys` ADD `usd_monthly_budget` real;--> statement-breakpoint
ALTER TABLE `gateway_teams` ADD `usd_monthly_budget` real;--> statement-breakpoint
ALTER TABLE `gateway_users` ADD `usd_monthly_budget` real;