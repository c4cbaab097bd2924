-- Hand-added: receipts name the words of the user's message a memory matched (JSON array, text/matched-words.ts);
-- receipts recorded before this migration keep null and are explained by their reason alone.
ALTER TABLE `message_memories` ADD `matched` text;