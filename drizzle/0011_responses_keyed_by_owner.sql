PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_gateway_responses` (
	`id` text NOT NULL,
	`key_id` text NOT NULL,
	`team` text,
	`previous_response_id` text,
	`response` text NOT NULL,
	`input_items` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`id`, `key_id`)
);
--> statement-breakpoint
INSERT INTO `__new_gateway_responses`("id", "key_id", "team", "previous_response_id", "response", "input_items", "created_at") SELECT "id", "key_id", "team", "previous_response_id", "response", "input_items", "created_at" FROM `gateway_responses`;--> statement-breakpoint
DROP TABLE `gateway_responses`;--> statement-breakpoint
ALTER TABLE `__new_gateway_responses` RENAME TO `gateway_responses`;--> statement-breakpoint
PRAGMA foreign_keys=ON;