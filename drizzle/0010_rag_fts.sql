-- Full-text index (BM25) over rag_chunks.text, an external-content FTS5 table kept equal to it by triggers,
-- so every insert, update and delete of a chunk (cascades from documents and collections included) is indexed.
CREATE VIRTUAL TABLE `rag_chunks_fts` USING fts5(`text`, content='rag_chunks', content_rowid='id', tokenize='porter unicode61 remove_diacritics 2');
--> statement-breakpoint
CREATE TRIGGER `rag_chunks_fts_insert` AFTER INSERT ON `rag_chunks` BEGIN
  INSERT INTO `rag_chunks_fts`(rowid, `text`) VALUES (new.`id`, new.`text`);
END;
--> statement-breakpoint
CREATE TRIGGER `rag_chunks_fts_delete` AFTER DELETE ON `rag_chunks` BEGIN
  INSERT INTO `rag_chunks_fts`(`rag_chunks_fts`, rowid, `text`) VALUES ('delete', old.`id`, old.`text`);
END;
--> statement-breakpoint
CREATE TRIGGER `rag_chunks_fts_update` AFTER UPDATE OF `text` ON `rag_chunks` BEGIN
  INSERT INTO `rag_chunks_fts`(`rag_chunks_fts`, rowid, `text`) VALUES ('delete', old.`id`, old.`text`);
  INSERT INTO `rag_chunks_fts`(rowid, `text`) VALUES (new.`id`, new.`text`);
END;
