CREATE TABLE "dicom_instances" (
	"id" serial PRIMARY KEY NOT NULL,
	"exam_id" integer NOT NULL,
	"bucket_id" integer NOT NULL,
	"study_instance_uid" varchar(64) NOT NULL,
	"series_instance_uid" varchar(64) NOT NULL,
	"sop_instance_uid" varchar(64) NOT NULL,
	"sop_class_uid" varchar(64),
	"transfer_syntax_uid" varchar(64) NOT NULL,
	"modality" varchar(16),
	"series_number" integer,
	"series_description" varchar(128),
	"instance_number" integer,
	"rows" integer,
	"columns" integer,
	"frames" integer DEFAULT 1 NOT NULL,
	"storage_key" varchar(512) NOT NULL,
	"size" bigint NOT NULL,
	"uploaded_by" integer,
	"created" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "film_shares" (
	"id" varchar(64) PRIMARY KEY NOT NULL,
	"code" varchar(16) NOT NULL,
	"exam_id" integer NOT NULL,
	"bucket_id" integer NOT NULL,
	"created_by" integer NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"failed_attempts" integer DEFAULT 0 NOT NULL,
	"locked_until" timestamp with time zone,
	"created" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "key_images" (
	"id" serial PRIMARY KEY NOT NULL,
	"report_id" integer NOT NULL,
	"bucket_id" integer NOT NULL,
	"storage_key" varchar(512) NOT NULL,
	"content_type" varchar(64) NOT NULL,
	"size" integer NOT NULL,
	"instance_id" integer,
	"frame" integer,
	"description" varchar(256),
	"sort" integer DEFAULT 0 NOT NULL,
	"created_by" integer,
	"created" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "report_attachments" (
	"id" serial PRIMARY KEY NOT NULL,
	"report_id" integer NOT NULL,
	"bucket_id" integer NOT NULL,
	"name" varchar(256) NOT NULL,
	"storage_key" varchar(512) NOT NULL,
	"content_type" varchar(128) NOT NULL,
	"size" bigint NOT NULL,
	"created_by" integer,
	"upload_code" varchar(64),
	"created" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "report_publications" (
	"report_id" integer PRIMARY KEY NOT NULL,
	"bucket_id" integer NOT NULL,
	"published_by" integer NOT NULL,
	"published_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "report_shares" (
	"id" varchar(64) PRIMARY KEY NOT NULL,
	"report_id" integer NOT NULL,
	"bucket_id" integer NOT NULL,
	"created_by" integer NOT NULL,
	"approved_time_at_share" timestamp with time zone,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"revoked_by" integer,
	"created" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "request_counters" (
	"key" varchar(160) PRIMARY KEY NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"count" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "study_packages" (
	"exam_id" integer PRIMARY KEY NOT NULL,
	"bucket_id" integer NOT NULL,
	"state" varchar(16) NOT NULL,
	"attempt" integer DEFAULT 1 NOT NULL,
	"storage_key" varchar(512),
	"size" bigint,
	"file_count" integer,
	"error" varchar(512),
	"requested_by" integer,
	"started_at" timestamp with time zone NOT NULL,
	"ready_at" timestamp with time zone,
	"expires_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "upload_codes" (
	"code" varchar(64) PRIMARY KEY NOT NULL,
	"kind" varchar(16) NOT NULL,
	"bucket_id" integer NOT NULL,
	"exam_id" integer,
	"report_id" integer,
	"created_by" integer NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"created" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "dicom_instances" ADD CONSTRAINT "dicom_instances_exam_id_exams_id_fk" FOREIGN KEY ("exam_id") REFERENCES "public"."exams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dicom_instances" ADD CONSTRAINT "dicom_instances_bucket_id_buckets_id_fk" FOREIGN KEY ("bucket_id") REFERENCES "public"."buckets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "film_shares" ADD CONSTRAINT "film_shares_exam_id_exams_id_fk" FOREIGN KEY ("exam_id") REFERENCES "public"."exams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "film_shares" ADD CONSTRAINT "film_shares_bucket_id_buckets_id_fk" FOREIGN KEY ("bucket_id") REFERENCES "public"."buckets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "key_images" ADD CONSTRAINT "key_images_report_id_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."reports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "key_images" ADD CONSTRAINT "key_images_bucket_id_buckets_id_fk" FOREIGN KEY ("bucket_id") REFERENCES "public"."buckets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_attachments" ADD CONSTRAINT "report_attachments_report_id_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."reports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_attachments" ADD CONSTRAINT "report_attachments_bucket_id_buckets_id_fk" FOREIGN KEY ("bucket_id") REFERENCES "public"."buckets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_publications" ADD CONSTRAINT "report_publications_report_id_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."reports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_publications" ADD CONSTRAINT "report_publications_bucket_id_buckets_id_fk" FOREIGN KEY ("bucket_id") REFERENCES "public"."buckets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_shares" ADD CONSTRAINT "report_shares_report_id_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."reports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_shares" ADD CONSTRAINT "report_shares_bucket_id_buckets_id_fk" FOREIGN KEY ("bucket_id") REFERENCES "public"."buckets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "study_packages" ADD CONSTRAINT "study_packages_exam_id_exams_id_fk" FOREIGN KEY ("exam_id") REFERENCES "public"."exams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "study_packages" ADD CONSTRAINT "study_packages_bucket_id_buckets_id_fk" FOREIGN KEY ("bucket_id") REFERENCES "public"."buckets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "upload_codes" ADD CONSTRAINT "upload_codes_bucket_id_buckets_id_fk" FOREIGN KEY ("bucket_id") REFERENCES "public"."buckets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "upload_codes" ADD CONSTRAINT "upload_codes_exam_id_exams_id_fk" FOREIGN KEY ("exam_id") REFERENCES "public"."exams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "upload_codes" ADD CONSTRAINT "upload_codes_report_id_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."reports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "dicom_instances_exam_sop_uq" ON "dicom_instances" USING btree ("exam_id","sop_instance_uid");--> statement-breakpoint
CREATE INDEX "dicom_instances_exam_series_idx" ON "dicom_instances" USING btree ("exam_id","series_instance_uid","instance_number");--> statement-breakpoint
CREATE INDEX "film_shares_exam_idx" ON "film_shares" USING btree ("exam_id");--> statement-breakpoint
CREATE INDEX "film_shares_code_idx" ON "film_shares" USING btree ("code");--> statement-breakpoint
CREATE INDEX "key_images_report_idx" ON "key_images" USING btree ("report_id","sort");--> statement-breakpoint
CREATE INDEX "report_attachments_report_idx" ON "report_attachments" USING btree ("report_id","id");--> statement-breakpoint
CREATE INDEX "report_publications_bucket_idx" ON "report_publications" USING btree ("bucket_id","published_at");--> statement-breakpoint
CREATE INDEX "report_shares_report_idx" ON "report_shares" USING btree ("report_id");--> statement-breakpoint
CREATE INDEX "upload_codes_bucket_idx" ON "upload_codes" USING btree ("bucket_id");