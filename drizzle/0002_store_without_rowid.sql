-- Rebuilds the store's narrow, high-volume tables WITHOUT ROWID (Drizzle cannot declare it).
-- A rowid table with a composite primary key keeps each row twice: in the table and in the key's
-- index. WITHOUT ROWID keeps it once, ordered by the key, which is also the order every query reads.
-- Columns, keys and indexes are exactly those of 0001_store and src/server/db/schema/store.ts.
CREATE TABLE `store_revisions__new` (
	`namespace_id` integer NOT NULL,
	`id` integer NOT NULL,
	`branch_id` integer NOT NULL,
	`parent_id` integer NOT NULL,
	`message` text NOT NULL,
	`created_at` integer NOT NULL,
	`keyframe` integer DEFAULT 0 NOT NULL,
	`root` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`namespace_id`, `id`)
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `store_revisions__new` SELECT * FROM `store_revisions`;
--> statement-breakpoint
DROP TABLE `store_revisions`;
--> statement-breakpoint
ALTER TABLE `store_revisions__new` RENAME TO `store_revisions`;
--> statement-breakpoint
CREATE INDEX `store_revisions_branch` ON `store_revisions` (`branch_id`,`id`);
--> statement-breakpoint
CREATE INDEX `store_revisions_branch_keyframes` ON `store_revisions` (`branch_id`,`id`) WHERE keyframe = 1;
--> statement-breakpoint
CREATE TABLE `store_revision_changes__new` (
	`namespace_id` integer NOT NULL,
	`revision_id` integer NOT NULL,
	`key_id` integer NOT NULL,
	`type` integer NOT NULL,
	`before_blob` integer,
	`after_blob` integer,
	PRIMARY KEY(`namespace_id`, `revision_id`, `key_id`)
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `store_revision_changes__new` SELECT * FROM `store_revision_changes`;
--> statement-breakpoint
DROP TABLE `store_revision_changes`;
--> statement-breakpoint
ALTER TABLE `store_revision_changes__new` RENAME TO `store_revision_changes`;
--> statement-breakpoint
CREATE TABLE `store_snapshots__new` (
	`namespace_id` integer NOT NULL,
	`revision_id` integer NOT NULL,
	`key_id` integer NOT NULL,
	`blob_id` integer NOT NULL,
	PRIMARY KEY(`namespace_id`, `revision_id`, `key_id`)
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `store_snapshots__new` SELECT * FROM `store_snapshots`;
--> statement-breakpoint
DROP TABLE `store_snapshots`;
--> statement-breakpoint
ALTER TABLE `store_snapshots__new` RENAME TO `store_snapshots`;
--> statement-breakpoint
CREATE TABLE `store_head_state__new` (
	`branch_id` integer NOT NULL,
	`key_id` integer NOT NULL,
	`blob_id` integer NOT NULL,
	PRIMARY KEY(`branch_id`, `key_id`)
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `store_head_state__new` SELECT * FROM `store_head_state`;
--> statement-breakpoint
DROP TABLE `store_head_state`;
--> statement-breakpoint
ALTER TABLE `store_head_state__new` RENAME TO `store_head_state`;
