CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE TABLE "accounts" (
	"id" serial PRIMARY KEY NOT NULL,
	"username" varchar(64) NOT NULL,
	"password_hash" varchar(256) NOT NULL,
	"name" varchar(64) NOT NULL,
	"full_name" varchar(64),
	"avatar" varchar(1024),
	"signature" varchar(1024),
	"mobile" varchar(32),
	"tech_title" varchar(64),
	"registry" varchar(64),
	"can_create_group" boolean DEFAULT false NOT NULL,
	"status" integer DEFAULT 0 NOT NULL,
	"token_version" integer DEFAULT 0 NOT NULL,
	"last_login_at" timestamp with time zone,
	"last_login_ip" varchar(64),
	"created" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "bodyparts" (
	"id" serial PRIMARY KEY NOT NULL,
	"bucket_id" integer NOT NULL,
	"name" varchar(64) NOT NULL
);
--> statement-breakpoint
CREATE TABLE "bucket_members" (
	"bucket_id" integer NOT NULL,
	"account_id" integer NOT NULL,
	"access_level" varchar(16) DEFAULT 'member' NOT NULL,
	CONSTRAINT "bucket_members_bucket_id_account_id_pk" PRIMARY KEY("bucket_id","account_id")
);
--> statement-breakpoint
CREATE TABLE "buckets" (
	"id" serial PRIMARY KEY NOT NULL,
	"group_id" integer NOT NULL,
	"name" varchar(128) NOT NULL,
	"code" varchar(35) NOT NULL,
	"is_private" boolean DEFAULT false NOT NULL,
	"public_upload_token" varchar(64),
	"created" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "departments" (
	"id" serial PRIMARY KEY NOT NULL,
	"bucket_id" integer NOT NULL,
	"name" varchar(64) NOT NULL
);
--> statement-breakpoint
CREATE TABLE "doctors" (
	"id" serial PRIMARY KEY NOT NULL,
	"bucket_id" integer NOT NULL,
	"department_id" integer DEFAULT 0 NOT NULL,
	"name" varchar(64) NOT NULL,
	"physician_type" integer DEFAULT 1 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "domains" (
	"id" serial PRIMARY KEY NOT NULL,
	"display_name" varchar(128) NOT NULL,
	"company" varchar(128),
	"hide_support_company" boolean DEFAULT false NOT NULL,
	"website" varchar(256),
	"logo" varchar(1024),
	"bg_img_url" varchar(1024),
	"allow_registration" boolean DEFAULT false NOT NULL,
	"default_expert_bucket_id" integer,
	"is_pet" boolean DEFAULT false NOT NULL,
	"display_domain_name" varchar(128),
	"footer" varchar(512)
);
--> statement-breakpoint
CREATE TABLE "exams" (
	"id" serial PRIMARY KEY NOT NULL,
	"bucket_id" integer NOT NULL,
	"target_bucket_id" integer,
	"order_id" varchar(64),
	"patient_key_id" varchar(64),
	"patient_name" varchar(128) NOT NULL,
	"patient_id" varchar(64) NOT NULL,
	"patient_gender" varchar(2) DEFAULT 'U' NOT NULL,
	"patient_dob" varchar(10),
	"visit_age" varchar(8),
	"weight" real,
	"height" real,
	"patient_class" varchar(16),
	"patient_source" varchar(2),
	"inpatient_id" varchar(64),
	"bed_num" varchar(16),
	"outpatient_id" varchar(64),
	"physical_exam_id" varchar(64),
	"service_request_id" varchar(64),
	"accession_number" varchar(64),
	"modality" varchar(8) NOT NULL,
	"body_part" varchar(64),
	"body_part_count" integer DEFAULT 1 NOT NULL,
	"study_description" varchar(256),
	"clinic_impression" varchar(1024),
	"apply_dept" varchar(64),
	"urgent_flag" boolean DEFAULT false NOT NULL,
	"tele_med_flag" boolean DEFAULT false NOT NULL,
	"store_uid" varchar(128),
	"open_path" varchar(512),
	"has_image" boolean DEFAULT false NOT NULL,
	"show_video" boolean DEFAULT false NOT NULL,
	"form_img_urls" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"extensions" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"ai_status" varchar(16),
	"assignee_id" integer,
	"is_remote_report_requested" boolean DEFAULT false NOT NULL,
	"report_type" varchar(16) DEFAULT 'report' NOT NULL,
	"report_id" integer,
	"report_status" varchar(16),
	"report_creator_id" integer,
	"exam_time" timestamp with time zone NOT NULL,
	"upload_time" timestamp with time zone,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_time" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "group_members" (
	"group_id" integer NOT NULL,
	"account_id" integer NOT NULL,
	"access_level" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "group_members_group_id_account_id_pk" PRIMARY KEY("group_id","account_id")
);
--> statement-breakpoint
CREATE TABLE "groups" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" varchar(64) NOT NULL,
	"display_name" varchar(128) NOT NULL,
	"domain_name" varchar(128),
	"open_telemed" boolean DEFAULT false NOT NULL,
	"enable_registry" boolean DEFAULT false NOT NULL,
	"enable_stat" boolean DEFAULT false NOT NULL,
	"enable_consultation" boolean DEFAULT false NOT NULL,
	"auto_notify_audio" varchar(1024),
	"auto_consul_notify_audio" varchar(1024),
	"default_consultation_bucket_id" integer,
	"default_expert_bucket_id" integer,
	"is_group_kb" boolean DEFAULT false NOT NULL,
	"feat_encryption_viewer_on" boolean DEFAULT false NOT NULL,
	"enable_calling" boolean DEFAULT false NOT NULL,
	"open_private_cloud" varchar(8) DEFAULT '0' NOT NULL,
	"allow_overview" boolean DEFAULT false NOT NULL,
	"enable_credit" boolean DEFAULT false NOT NULL,
	"pathology_url" varchar(1024),
	"allow_account_mgmt" boolean DEFAULT false NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "login_attempts" (
	"key" varchar(160) PRIMARY KEY NOT NULL,
	"failures" integer DEFAULT 0 NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"blocked_until" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "print_templates" (
	"id" serial PRIMARY KEY NOT NULL,
	"bucket_id" integer NOT NULL,
	"name" varchar(128) NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"modality" varchar(8),
	"titles" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"logo" varchar(1024),
	"stamp" varchar(1024),
	"signature_of" varchar(16) DEFAULT 'approver' NOT NULL,
	"qr_mode" varchar(16) DEFAULT 'none' NOT NULL,
	"qr_text" varchar(10),
	"exact_time" boolean DEFAULT false NOT NULL,
	"page_numbers" boolean DEFAULT true NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "procedures" (
	"id" serial PRIMARY KEY NOT NULL,
	"bucket_id" integer NOT NULL,
	"code" varchar(32) NOT NULL,
	"name" varchar(128) NOT NULL,
	"en_description" varchar(256),
	"modality" varchar(8) NOT NULL,
	"price" real DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "report_templates" (
	"id" serial PRIMARY KEY NOT NULL,
	"bucket_id" integer NOT NULL,
	"parent_id" integer,
	"name" varchar(128) NOT NULL,
	"is_folder" boolean DEFAULT false NOT NULL,
	"modality" varchar(8),
	"body_part" varchar(64),
	"finding" text DEFAULT '' NOT NULL,
	"diagnosis" text DEFAULT '' NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "report_traces" (
	"id" serial PRIMARY KEY NOT NULL,
	"report_id" integer NOT NULL,
	"account_id" integer,
	"action" varchar(32) NOT NULL,
	"from_status" varchar(16),
	"to_status" varchar(16),
	"reason" varchar(512),
	"snapshot" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reports" (
	"id" serial PRIMARY KEY NOT NULL,
	"exam_id" integer NOT NULL,
	"bucket_id" integer NOT NULL,
	"source_bucket_id" integer,
	"status" varchar(16) DEFAULT 'none' NOT NULL,
	"type" varchar(16) DEFAULT 'report' NOT NULL,
	"creator_id" integer,
	"last_updater_id" integer,
	"issuer_id" integer,
	"note_taker_id" integer,
	"assignee_id" integer,
	"locked_by_id" integer,
	"locked_at" timestamp with time zone,
	"reject_reason" varchar(512),
	"recall_reason" varchar(512),
	"finding" text DEFAULT '' NOT NULL,
	"diagnosis" text DEFAULT '' NOT NULL,
	"positive" boolean,
	"note" varchar(256),
	"bodypart_count" integer DEFAULT 1 NOT NULL,
	"critical_value" varchar(256),
	"extensions" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"allow_advisor_edit" boolean DEFAULT false NOT NULL,
	"sync_pending" boolean DEFAULT false NOT NULL,
	"sync_stopped" boolean DEFAULT false NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"saved_time" timestamp with time zone,
	"submitted_time" timestamp with time zone,
	"approved_time" timestamp with time zone,
	"printed_time" timestamp with time zone,
	"print_submitted_at" timestamp with time zone,
	"print_approved_at" timestamp with time zone,
	"last_operation_time" timestamp with time zone,
	"deleted_time" timestamp with time zone,
	"created" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "role_users" (
	"role_id" integer NOT NULL,
	"account_id" integer NOT NULL,
	CONSTRAINT "role_users_role_id_account_id_pk" PRIMARY KEY("role_id","account_id")
);
--> statement-breakpoint
CREATE TABLE "roles" (
	"id" serial PRIMARY KEY NOT NULL,
	"bucket_id" integer NOT NULL,
	"name" varchar(64) NOT NULL,
	"actions" jsonb DEFAULT '[]'::jsonb NOT NULL
);
--> statement-breakpoint
ALTER TABLE "bodyparts" ADD CONSTRAINT "bodyparts_bucket_id_buckets_id_fk" FOREIGN KEY ("bucket_id") REFERENCES "public"."buckets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bucket_members" ADD CONSTRAINT "bucket_members_bucket_id_buckets_id_fk" FOREIGN KEY ("bucket_id") REFERENCES "public"."buckets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bucket_members" ADD CONSTRAINT "bucket_members_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "buckets" ADD CONSTRAINT "buckets_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "departments" ADD CONSTRAINT "departments_bucket_id_buckets_id_fk" FOREIGN KEY ("bucket_id") REFERENCES "public"."buckets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "doctors" ADD CONSTRAINT "doctors_bucket_id_buckets_id_fk" FOREIGN KEY ("bucket_id") REFERENCES "public"."buckets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exams" ADD CONSTRAINT "exams_bucket_id_buckets_id_fk" FOREIGN KEY ("bucket_id") REFERENCES "public"."buckets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "group_members" ADD CONSTRAINT "group_members_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "group_members" ADD CONSTRAINT "group_members_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "print_templates" ADD CONSTRAINT "print_templates_bucket_id_buckets_id_fk" FOREIGN KEY ("bucket_id") REFERENCES "public"."buckets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "procedures" ADD CONSTRAINT "procedures_bucket_id_buckets_id_fk" FOREIGN KEY ("bucket_id") REFERENCES "public"."buckets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_templates" ADD CONSTRAINT "report_templates_bucket_id_buckets_id_fk" FOREIGN KEY ("bucket_id") REFERENCES "public"."buckets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_traces" ADD CONSTRAINT "report_traces_report_id_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."reports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_exam_id_exams_id_fk" FOREIGN KEY ("exam_id") REFERENCES "public"."exams"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_bucket_id_buckets_id_fk" FOREIGN KEY ("bucket_id") REFERENCES "public"."buckets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "role_users" ADD CONSTRAINT "role_users_role_id_roles_id_fk" FOREIGN KEY ("role_id") REFERENCES "public"."roles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "role_users" ADD CONSTRAINT "role_users_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "roles" ADD CONSTRAINT "roles_bucket_id_buckets_id_fk" FOREIGN KEY ("bucket_id") REFERENCES "public"."buckets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "accounts_username_uq" ON "accounts" USING btree (lower("username"));--> statement-breakpoint
CREATE INDEX "bucket_members_account_idx" ON "bucket_members" USING btree ("account_id");--> statement-breakpoint
CREATE UNIQUE INDEX "buckets_code_uq" ON "buckets" USING btree ("code");--> statement-breakpoint
CREATE INDEX "buckets_group_idx" ON "buckets" USING btree ("group_id");--> statement-breakpoint
CREATE INDEX "exams_created_idx" ON "exams" USING btree ("created","id");--> statement-breakpoint
CREATE INDEX "exams_bucket_created_idx" ON "exams" USING btree ("bucket_id","created","id");--> statement-breakpoint
CREATE INDEX "exams_bucket_modality_created_idx" ON "exams" USING btree ("bucket_id","modality","created");--> statement-breakpoint
CREATE INDEX "exams_patient_id_idx" ON "exams" USING btree ("patient_id");--> statement-breakpoint
CREATE INDEX "exams_deleted_idx" ON "exams" USING btree ("deleted_time");--> statement-breakpoint
CREATE INDEX "exams_patient_name_trgm" ON "exams" USING gin ("patient_name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "group_members_account_idx" ON "group_members" USING btree ("account_id");--> statement-breakpoint
CREATE UNIQUE INDEX "groups_name_uq" ON "groups" USING btree ("name");--> statement-breakpoint
CREATE INDEX "report_templates_bucket_idx" ON "report_templates" USING btree ("bucket_id");--> statement-breakpoint
CREATE INDEX "report_traces_report_idx" ON "report_traces" USING btree ("report_id","id");--> statement-breakpoint
CREATE INDEX "reports_exam_idx" ON "reports" USING btree ("exam_id");--> statement-breakpoint
CREATE INDEX "reports_bucket_status_idx" ON "reports" USING btree ("bucket_id","status");--> statement-breakpoint
CREATE INDEX "reports_finding_trgm" ON "reports" USING gin ("finding" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "reports_diagnosis_trgm" ON "reports" USING gin ("diagnosis" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "role_users_account_idx" ON "role_users" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "roles_bucket_idx" ON "roles" USING btree ("bucket_id");