CREATE TABLE `store_blobs` (
	`id` integer PRIMARY KEY NOT NULL,
	`hash` blob NOT NULL,
	`content` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `store_blobs_hash` ON `store_blobs` (`hash`);--> statement-breakpoint
CREATE TABLE `store_branches` (
	`id` integer PRIMARY KEY NOT NULL,
	`namespace_id` integer NOT NULL,
	`name` text NOT NULL,
	`base_revision` integer DEFAULT 0 NOT NULL,
	`head_revision` integer DEFAULT 0 NOT NULL,
	`document_count` integer DEFAULT 0 NOT NULL,
	`changes_since_keyframe` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`namespace_id`) REFERENCES `store_namespaces`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `store_branches_namespace_name` ON `store_branches` (`namespace_id`,`name`);--> statement-breakpoint
CREATE TABLE `store_checkpoints` (
	`namespace_id` integer NOT NULL,
	`name` text NOT NULL,
	`revision_id` integer NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`namespace_id`, `name`),
	FOREIGN KEY (`namespace_id`) REFERENCES `store_namespaces`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `store_head_state` (
	`branch_id` integer NOT NULL,
	`key_id` integer NOT NULL,
	`blob_id` integer NOT NULL,
	PRIMARY KEY(`branch_id`, `key_id`)
);
--> statement-breakpoint
CREATE TABLE `store_keys` (
	`id` integer PRIMARY KEY NOT NULL,
	`key` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `store_keys_key` ON `store_keys` (`key`);--> statement-breakpoint
CREATE TABLE `store_namespaces` (
	`id` integer PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`last_revision` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `store_namespaces_name` ON `store_namespaces` (`name`);--> statement-breakpoint
CREATE TABLE `store_revision_changes` (
	`namespace_id` integer NOT NULL,
	`revision_id` integer NOT NULL,
	`key_id` integer NOT NULL,
	`type` integer NOT NULL,
	`before_blob` integer,
	`after_blob` integer,
	PRIMARY KEY(`namespace_id`, `revision_id`, `key_id`)
);
--> statement-breakpoint
CREATE TABLE `store_revisions` (
	`namespace_id` integer NOT NULL,
	`id` integer NOT NULL,
	`branch_id` integer NOT NULL,
	`parent_id` integer NOT NULL,
	`message` text NOT NULL,
	`created_at` integer NOT NULL,
	`keyframe` integer DEFAULT 0 NOT NULL,
	`root` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`namespace_id`, `id`)
);
--> statement-breakpoint
CREATE INDEX `store_revisions_branch` ON `store_revisions` (`branch_id`,`id`);--> statement-breakpoint
CREATE INDEX `store_revisions_branch_keyframes` ON `store_revisions` (`branch_id`,`id`) WHERE keyframe = 1;--> statement-breakpoint
CREATE TABLE `store_snapshots` (
	`namespace_id` integer NOT NULL,
	`revision_id` integer NOT NULL,
	`key_id` integer NOT NULL,
	`blob_id` integer NOT NULL,
	PRIMARY KEY(`namespace_id`, `revision_id`, `key_id`)
);
