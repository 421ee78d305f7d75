CREATE TABLE `store_merges` (
	`namespace_id` integer NOT NULL,
	`revision_id` integer NOT NULL,
	`branch_id` integer NOT NULL,
	`from_branch_id` integer NOT NULL,
	`from_revision` integer NOT NULL,
	PRIMARY KEY(`namespace_id`, `revision_id`)
);
--> statement-breakpoint
CREATE INDEX `store_merges_branch` ON `store_merges` (`branch_id`,`revision_id`);--> statement-breakpoint
CREATE INDEX `store_merges_from_branch` ON `store_merges` (`from_branch_id`);