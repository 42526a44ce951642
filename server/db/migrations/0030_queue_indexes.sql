DROP INDEX "queue_entries_waiting_idx";--> statement-breakpoint
DROP INDEX "queue_entries_bucket_day_idx";--> statement-breakpoint
CREATE INDEX "queue_entries_called_idx" ON "queue_entries" USING btree ("queue_type_id","day") WHERE "queue_entries"."status" = 'called';--> statement-breakpoint
CREATE INDEX "queue_entries_waiting_idx" ON "queue_entries" USING btree ("queue_type_id","day","position","id") WHERE "queue_entries"."status" = 'waiting';--> statement-breakpoint
CREATE INDEX "queue_entries_bucket_day_idx" ON "queue_entries" USING btree ("bucket_id","day","status");