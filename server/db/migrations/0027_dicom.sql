CREATE TABLE "dicom_associations" (
	"id" serial PRIMARY KEY NOT NULL,
	"started" timestamp with time zone NOT NULL,
	"ended" timestamp with time zone,
	"calling_ae" varchar(16) NOT NULL,
	"called_ae" varchar(16) NOT NULL,
	"peer" varchar(64) NOT NULL,
	"bucket_id" integer,
	"outcome" varchar(16) NOT NULL,
	"services" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"stored" integer DEFAULT 0 NOT NULL,
	"failed" integer DEFAULT 0 NOT NULL,
	"found" integer DEFAULT 0 NOT NULL,
	"errors" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"duration_ms" integer
);
--> statement-breakpoint
CREATE TABLE "dicom_mpps" (
	"sop_instance_uid" varchar(64) PRIMARY KEY NOT NULL,
	"bucket_id" integer NOT NULL,
	"exam_id" integer NOT NULL,
	"status" varchar(16) NOT NULL,
	"calling_ae" varchar(16) NOT NULL,
	"created" timestamp with time zone NOT NULL,
	"updated" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "dicom_settings" (
	"bucket_id" integer PRIMARY KEY NOT NULL,
	"accept_unknown_senders" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
ALTER TABLE "exams" ADD COLUMN "scheduled_study_uid" varchar(64);--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "host" varchar(253);--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "port" integer;--> statement-breakpoint
ALTER TABLE "dicom_associations" ADD CONSTRAINT "dicom_associations_bucket_id_buckets_id_fk" FOREIGN KEY ("bucket_id") REFERENCES "public"."buckets"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dicom_mpps" ADD CONSTRAINT "dicom_mpps_bucket_id_buckets_id_fk" FOREIGN KEY ("bucket_id") REFERENCES "public"."buckets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dicom_settings" ADD CONSTRAINT "dicom_settings_bucket_id_buckets_id_fk" FOREIGN KEY ("bucket_id") REFERENCES "public"."buckets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "dicom_associations_bucket_idx" ON "dicom_associations" USING btree ("bucket_id","started");--> statement-breakpoint
CREATE INDEX "dicom_associations_started_idx" ON "dicom_associations" USING btree ("started");--> statement-breakpoint
CREATE INDEX "dicom_mpps_exam_idx" ON "dicom_mpps" USING btree ("exam_id");--> statement-breakpoint
CREATE INDEX "exams_live_bucket_store_uid_idx" ON "exams" USING btree ("bucket_id","store_uid") WHERE "exams"."deleted_time" is null and "exams"."store_uid" is not null;--> statement-breakpoint
CREATE INDEX "exams_scheduled_study_uid_idx" ON "exams" USING btree ("scheduled_study_uid") WHERE "exams"."scheduled_study_uid" is not null;