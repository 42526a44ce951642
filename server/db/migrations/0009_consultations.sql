CREATE TABLE "consultation_buckets" (
	"consultation_id" integer NOT NULL,
	"bucket_id" integer NOT NULL,
	CONSTRAINT "consultation_buckets_consultation_id_bucket_id_pk" PRIMARY KEY("consultation_id","bucket_id")
);
--> statement-breakpoint
CREATE TABLE "consultations" (
	"id" serial PRIMARY KEY NOT NULL,
	"applied_bucket_id" integer NOT NULL,
	"target_bucket_id" integer NOT NULL,
	"patient_name" varchar(128) NOT NULL,
	"patient_gender" varchar(2) DEFAULT 'U' NOT NULL,
	"patient_age" varchar(8),
	"reason" text NOT NULL,
	"status" smallint DEFAULT 0 NOT NULL,
	"scheduled_time" timestamp with time zone,
	"note" varchar(1024),
	"created_by" integer NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "consultations_status_ck" CHECK ("consultations"."status" between 0 and 4)
);
--> statement-breakpoint
ALTER TABLE "consultation_buckets" ADD CONSTRAINT "consultation_buckets_consultation_id_consultations_id_fk" FOREIGN KEY ("consultation_id") REFERENCES "public"."consultations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consultation_buckets" ADD CONSTRAINT "consultation_buckets_bucket_id_buckets_id_fk" FOREIGN KEY ("bucket_id") REFERENCES "public"."buckets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consultations" ADD CONSTRAINT "consultations_applied_bucket_id_buckets_id_fk" FOREIGN KEY ("applied_bucket_id") REFERENCES "public"."buckets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consultations" ADD CONSTRAINT "consultations_target_bucket_id_buckets_id_fk" FOREIGN KEY ("target_bucket_id") REFERENCES "public"."buckets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consultations" ADD CONSTRAINT "consultations_created_by_accounts_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "consultation_buckets_bucket_idx" ON "consultation_buckets" USING btree ("bucket_id","consultation_id");--> statement-breakpoint
CREATE INDEX "consultations_status_id_idx" ON "consultations" USING btree ("status","id");--> statement-breakpoint
CREATE INDEX "consultations_applied_bucket_idx" ON "consultations" USING btree ("applied_bucket_id","id");