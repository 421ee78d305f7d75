CREATE TABLE `rag_chunks` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`document_id` text NOT NULL,
	`collection` text NOT NULL,
	`ordinal` integer NOT NULL,
	`heading` text,
	`text` text NOT NULL,
	`revision` integer,
	`embedding` blob,
	`embedding_model` text,
	FOREIGN KEY (`document_id`) REFERENCES `rag_documents`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `rag_chunks_document` ON `rag_chunks` (`document_id`,`ordinal`);--> statement-breakpoint
CREATE INDEX `rag_chunks_collection` ON `rag_chunks` (`collection`);--> statement-breakpoint
CREATE TABLE `rag_collections` (
	`name` text PRIMARY KEY NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`access` text NOT NULL,
	`source_namespace` text,
	`source_branch` text,
	`source_revision` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `rag_documents` (
	`id` text PRIMARY KEY NOT NULL,
	`collection` text NOT NULL,
	`key` text NOT NULL,
	`content_type` text NOT NULL,
	`content_hash` text NOT NULL,
	`chars` integer NOT NULL,
	`revision` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`collection`) REFERENCES `rag_collections`(`name`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `rag_documents_collection_key` ON `rag_documents` (`collection`,`key`);