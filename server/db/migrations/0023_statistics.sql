ALTER TABLE "exams" ADD COLUMN "device_id" integer;--> statement-breakpoint
CREATE INDEX "exams_stat_idx" ON "exams" USING btree ("bucket_id","exam_time","modality","device_id","body_part_count","report_status","has_image","report_id") WHERE "exams"."deleted_time" is null;--> statement-breakpoint
CREATE INDEX "reports_stat_approved_idx" ON "reports" USING btree ("bucket_id","approved_time") WHERE "reports"."approved_time" is not null and "reports"."deleted_time" is null;--> statement-breakpoint
CREATE INDEX "consultations_applied_created_idx" ON "consultations" USING btree ("applied_bucket_id","created");--> statement-breakpoint
CREATE INDEX "consultations_target_created_idx" ON "consultations" USING btree ("target_bucket_id","created");--> statement-breakpoint
CREATE INDEX "registrations_bucket_created_idx" ON "registrations" USING btree ("bucket_id","created","created_by");--> statement-breakpoint
CREATE INDEX "charge_orders_group_paid_idx" ON "charge_orders" USING btree ("group_id","paid_at") WHERE "charge_orders"."paid_at" is not null;--> statement-breakpoint
CREATE INDEX "report_orders_from_bucket_created_idx" ON "report_orders" USING btree ("from_bucket_id","created");