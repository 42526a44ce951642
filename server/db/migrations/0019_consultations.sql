CREATE TABLE "consultation_attachments" (
	"id" serial PRIMARY KEY NOT NULL,
	"consultation_id" integer NOT NULL,
	"case_id" integer NOT NULL,
	"name" varchar(255) NOT NULL,
	"file_type" varchar(128) NOT NULL,
	"size" bigint DEFAULT 0 NOT NULL,
	"storage_key" varchar(512),
	"status" varchar(16) DEFAULT 'processing' NOT NULL,
	"created_by" integer NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone,
	CONSTRAINT "consultation_attachments_status_ck" CHECK ("consultation_attachments"."status" in ('processing', 'completed'))
);
--> statement-breakpoint
CREATE TABLE "consultation_cases" (
	"id" serial PRIMARY KEY NOT NULL,
	"consultation_id" integer NOT NULL,
	"name" varchar(128) NOT NULL,
	"type" varchar(32) NOT NULL,
	"note" varchar(1024),
	"created_by" integer NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "consultation_exams" (
	"consultation_id" integer NOT NULL,
	"exam_id" integer NOT NULL,
	"added_by" integer NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "consultation_exams_consultation_id_exam_id_pk" PRIMARY KEY("consultation_id","exam_id")
);
--> statement-breakpoint
CREATE TABLE "consultation_links" (
	"consultation_id" integer NOT NULL,
	"linked_id" integer NOT NULL,
	"created_by" integer NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "consultation_links_consultation_id_linked_id_pk" PRIMARY KEY("consultation_id","linked_id"),
	CONSTRAINT "consultation_links_self_ck" CHECK ("consultation_links"."consultation_id" <> "consultation_links"."linked_id")
);
--> statement-breakpoint
CREATE TABLE "consultation_members" (
	"consultation_id" integer NOT NULL,
	"account_id" integer NOT NULL,
	"role" varchar(16) DEFAULT 'member' NOT NULL,
	"added_by" integer,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "consultation_members_consultation_id_account_id_pk" PRIMARY KEY("consultation_id","account_id"),
	CONSTRAINT "consultation_members_role_ck" CHECK ("consultation_members"."role" in ('member', 'expert'))
);
--> statement-breakpoint
CREATE TABLE "consultation_suggestions" (
	"id" serial PRIMARY KEY NOT NULL,
	"consultation_id" integer NOT NULL,
	"account_id" integer NOT NULL,
	"content" text NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "consultations" ADD COLUMN "exam_id" integer;--> statement-breakpoint
ALTER TABLE "consultations" ADD COLUMN "report_id" integer;--> statement-breakpoint
ALTER TABLE "consultations" ADD COLUMN "patient_tel" varchar(32);--> statement-breakpoint
ALTER TABLE "consultations" ADD COLUMN "patient_email" varchar(128);--> statement-breakpoint
ALTER TABLE "consultations" ADD COLUMN "payment_status" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "consultations" ADD COLUMN "cancel_reason" varchar(1024);--> statement-breakpoint
ALTER TABLE "consultations" ADD COLUMN "conclusion" text;--> statement-breakpoint
ALTER TABLE "consultations" ADD COLUMN "treatment_plan" text;--> statement-breakpoint
ALTER TABLE "consultations" ADD COLUMN "result_by" integer;--> statement-breakpoint
ALTER TABLE "consultations" ADD COLUMN "result_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "consultations" ADD COLUMN "approved_by" integer;--> statement-breakpoint
ALTER TABLE "consultations" ADD COLUMN "approved_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "consultations" ADD COLUMN "rating" smallint;--> statement-breakpoint
ALTER TABLE "consultations" ADD COLUMN "rating_comment" varchar(1024);--> statement-breakpoint
ALTER TABLE "consultations" ADD COLUMN "rated_by" integer;--> statement-breakpoint
ALTER TABLE "consultations" ADD COLUMN "rated_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "consultations" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "consultations" ADD COLUMN "updated" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "consultation_attachments" ADD CONSTRAINT "consultation_attachments_consultation_id_consultations_id_fk" FOREIGN KEY ("consultation_id") REFERENCES "public"."consultations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consultation_attachments" ADD CONSTRAINT "consultation_attachments_case_id_consultation_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."consultation_cases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consultation_attachments" ADD CONSTRAINT "consultation_attachments_created_by_accounts_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consultation_cases" ADD CONSTRAINT "consultation_cases_consultation_id_consultations_id_fk" FOREIGN KEY ("consultation_id") REFERENCES "public"."consultations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consultation_cases" ADD CONSTRAINT "consultation_cases_created_by_accounts_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consultation_exams" ADD CONSTRAINT "consultation_exams_consultation_id_consultations_id_fk" FOREIGN KEY ("consultation_id") REFERENCES "public"."consultations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consultation_exams" ADD CONSTRAINT "consultation_exams_exam_id_exams_id_fk" FOREIGN KEY ("exam_id") REFERENCES "public"."exams"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consultation_exams" ADD CONSTRAINT "consultation_exams_added_by_accounts_id_fk" FOREIGN KEY ("added_by") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consultation_links" ADD CONSTRAINT "consultation_links_consultation_id_consultations_id_fk" FOREIGN KEY ("consultation_id") REFERENCES "public"."consultations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consultation_links" ADD CONSTRAINT "consultation_links_linked_id_consultations_id_fk" FOREIGN KEY ("linked_id") REFERENCES "public"."consultations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consultation_links" ADD CONSTRAINT "consultation_links_created_by_accounts_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consultation_members" ADD CONSTRAINT "consultation_members_consultation_id_consultations_id_fk" FOREIGN KEY ("consultation_id") REFERENCES "public"."consultations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consultation_members" ADD CONSTRAINT "consultation_members_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consultation_members" ADD CONSTRAINT "consultation_members_added_by_accounts_id_fk" FOREIGN KEY ("added_by") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consultation_suggestions" ADD CONSTRAINT "consultation_suggestions_consultation_id_consultations_id_fk" FOREIGN KEY ("consultation_id") REFERENCES "public"."consultations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consultation_suggestions" ADD CONSTRAINT "consultation_suggestions_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "consultation_attachments_case_idx" ON "consultation_attachments" USING btree ("case_id","id");--> statement-breakpoint
CREATE INDEX "consultation_cases_consultation_idx" ON "consultation_cases" USING btree ("consultation_id","id");--> statement-breakpoint
CREATE INDEX "consultation_members_account_idx" ON "consultation_members" USING btree ("account_id","consultation_id");--> statement-breakpoint
CREATE INDEX "consultation_suggestions_consultation_idx" ON "consultation_suggestions" USING btree ("consultation_id","id");--> statement-breakpoint
ALTER TABLE "consultations" ADD CONSTRAINT "consultations_exam_id_exams_id_fk" FOREIGN KEY ("exam_id") REFERENCES "public"."exams"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consultations" ADD CONSTRAINT "consultations_report_id_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."reports"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consultations" ADD CONSTRAINT "consultations_result_by_accounts_id_fk" FOREIGN KEY ("result_by") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consultations" ADD CONSTRAINT "consultations_approved_by_accounts_id_fk" FOREIGN KEY ("approved_by") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consultations" ADD CONSTRAINT "consultations_rated_by_accounts_id_fk" FOREIGN KEY ("rated_by") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "consultations_created_by_idx" ON "consultations" USING btree ("created_by","id");--> statement-breakpoint
CREATE INDEX "consultations_exam_idx" ON "consultations" USING btree ("exam_id") WHERE "consultations"."exam_id" is not null;--> statement-breakpoint
ALTER TABLE "consultations" ADD CONSTRAINT "consultations_payment_status_ck" CHECK ("consultations"."payment_status" between 0 and 3);--> statement-breakpoint
ALTER TABLE "consultations" ADD CONSTRAINT "consultations_rating_ck" CHECK ("consultations"."rating" is null or "consultations"."rating" between 1 and 5);