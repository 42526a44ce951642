CREATE INDEX "dicom_instances_series_uid_idx" ON "dicom_instances" USING btree ("series_instance_uid");--> statement-breakpoint
CREATE INDEX "dicom_instances_sop_uid_idx" ON "dicom_instances" USING btree ("sop_instance_uid");--> statement-breakpoint
CREATE INDEX "exams_dicom_studies_idx" ON "exams" USING btree ("exam_time","id","bucket_id") WHERE "exams"."deleted_time" is null and "exams"."store_uid" is not null and "exams"."has_image";--> statement-breakpoint
CREATE INDEX "exams_store_uid_idx" ON "exams" USING btree ("store_uid","bucket_id") WHERE "exams"."deleted_time" is null;