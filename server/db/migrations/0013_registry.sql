CREATE TABLE "group_registry_buckets" (
	"group_id" integer NOT NULL,
	"bucket_id" integer NOT NULL,
	CONSTRAINT "group_registry_buckets_group_id_bucket_id_pk" PRIMARY KEY("group_id","bucket_id")
);
--> statement-breakpoint
CREATE TABLE "procedure_steps" (
	"id" serial PRIMARY KEY NOT NULL,
	"bucket_id" integer NOT NULL,
	"procedure_id" integer,
	"name" varchar(128) NOT NULL,
	"modality" varchar(8) NOT NULL,
	"body_part" varchar(64),
	"report_during_exam" boolean DEFAULT false NOT NULL,
	"show_local_video" boolean DEFAULT false NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "registrations" (
	"id" serial PRIMARY KEY NOT NULL,
	"bucket_id" integer NOT NULL,
	"version" integer DEFAULT 0 NOT NULL,
	"order_id" varchar(64),
	"created_by" integer,
	"created" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "buckets" ADD COLUMN "time_zone" varchar(64) DEFAULT 'Asia/Shanghai' NOT NULL;--> statement-breakpoint
ALTER TABLE "groups" ADD COLUMN "match_dob" varchar(16) DEFAULT 'shift_off' NOT NULL;--> statement-breakpoint
ALTER TABLE "exams" ADD COLUMN "registration_id" integer;--> statement-breakpoint
ALTER TABLE "exams" ADD COLUMN "exam_status" varchar(16);--> statement-breakpoint
ALTER TABLE "exams" ADD COLUMN "scheduled_time" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "exams" ADD COLUMN "arrived_time" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "exams" ADD COLUMN "prev_exam_status" varchar(16);--> statement-breakpoint
ALTER TABLE "exams" ADD COLUMN "prev_arrived_time" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "exams" ADD COLUMN "cancel_reason" varchar(256);--> statement-breakpoint
ALTER TABLE "exams" ADD COLUMN "procedure_step_id" integer;--> statement-breakpoint
ALTER TABLE "exams" ADD COLUMN "patient_phone" varchar(32);--> statement-breakpoint
ALTER TABLE "exams" ADD COLUMN "scheduled_extension" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "exams" ADD COLUMN "matched_schedule_id" integer;--> statement-breakpoint
ALTER TABLE "group_registry_buckets" ADD CONSTRAINT "group_registry_buckets_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "group_registry_buckets" ADD CONSTRAINT "group_registry_buckets_bucket_id_buckets_id_fk" FOREIGN KEY ("bucket_id") REFERENCES "public"."buckets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "procedure_steps" ADD CONSTRAINT "procedure_steps_bucket_id_buckets_id_fk" FOREIGN KEY ("bucket_id") REFERENCES "public"."buckets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "procedure_steps" ADD CONSTRAINT "procedure_steps_procedure_id_procedures_id_fk" FOREIGN KEY ("procedure_id") REFERENCES "public"."procedures"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "registrations" ADD CONSTRAINT "registrations_bucket_id_buckets_id_fk" FOREIGN KEY ("bucket_id") REFERENCES "public"."buckets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "registrations" ADD CONSTRAINT "registrations_created_by_accounts_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "procedure_steps_bucket_idx" ON "procedure_steps" USING btree ("bucket_id","sort_order");--> statement-breakpoint
CREATE INDEX "registrations_bucket_order_idx" ON "registrations" USING btree ("bucket_id","order_id");--> statement-breakpoint
CREATE INDEX "exams_registry_created_idx" ON "exams" USING btree ("bucket_id","created","id") WHERE "exams"."deleted_time" is null and "exams"."registration_id" is not null;--> statement-breakpoint
CREATE INDEX "exams_registry_scheduled_idx" ON "exams" USING btree ("bucket_id","scheduled_time","id") WHERE "exams"."deleted_time" is null and "exams"."registration_id" is not null;--> statement-breakpoint
CREATE INDEX "exams_registration_idx" ON "exams" USING btree ("registration_id") WHERE "exams"."registration_id" is not null;