CREATE TABLE `memory_vector_center` (
	`id` integer PRIMARY KEY NOT NULL,
	`vector` blob NOT NULL,
	`basis` integer NOT NULL,
	CONSTRAINT "memory_vector_center_one_row_chk" CHECK("memory_vector_center"."id" = 1)
);
