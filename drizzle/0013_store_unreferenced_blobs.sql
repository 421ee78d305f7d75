CREATE TABLE `store_unreferenced_blobs` (
	`blob_id` integer PRIMARY KEY NOT NULL
);
