DROP INDEX `gateway_usage_user_created`;--> statement-breakpoint
DROP INDEX `gateway_usage_team_created`;--> statement-breakpoint
DROP INDEX `gateway_usage_request`;