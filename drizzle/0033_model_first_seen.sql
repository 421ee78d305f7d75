CREATE TABLE `gateway_model_first_seen` (
	`model` text PRIMARY KEY NOT NULL,
	`first_seen_at` integer NOT NULL
);
