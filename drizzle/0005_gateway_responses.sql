CREATE TABLE `gateway_responses` (
	`id` text PRIMARY KEY NOT NULL,
	`key_id` text NOT NULL,
	`team` text,
	`previous_response_id` text,
	`response` text NOT NULL,
	`input_items` text NOT NULL,
	`created_at` integer NOT NULL
);
