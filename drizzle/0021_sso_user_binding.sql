ALTER TABLE `gateway_users` ADD `sso_issuer` text;--> statement-breakpoint
ALTER TABLE `gateway_users` ADD `sso_subject` text;