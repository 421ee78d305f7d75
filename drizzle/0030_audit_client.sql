ALTER TABLE `gateway_audit_events` ADD `client_address` text;--> statement-breakpoint
ALTER TABLE `gateway_audit_events` ADD `user_agent` text;--> statement-breakpoint
ALTER TABLE `gateway_audit_events` ADD `changed_by` text;