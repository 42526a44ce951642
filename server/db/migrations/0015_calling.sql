CREATE TABLE "calling_settings" (
	"bucket_id" integer PRIMARY KEY NOT NULL,
	"privacy" boolean DEFAULT false NOT NULL,
	"language" varchar(4) DEFAULT 'chs' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "queue_counters" (
	"queue_type_id" integer NOT NULL,
	"day" varchar(10) NOT NULL,
	"last_seq" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "queue_counters_queue_type_id_day_pk" PRIMARY KEY("queue_type_id","day")
);
--> statement-breakpoint
CREATE TABLE "queue_entries" (
	"id" serial PRIMARY KEY NOT NULL,
	"bucket_id" integer NOT NULL,
	"queue_type_id" integer NOT NULL,
	"exam_id" integer NOT NULL,
	"day" varchar(10) NOT NULL,
	"seq" integer NOT NULL,
	"queue_no" varchar(8) NOT NULL,
	"status" varchar(8) DEFAULT 'waiting' NOT NULL,
	"position" real NOT NULL,
	"check_in_time" timestamp with time zone NOT NULL,
	"called_time" timestamp with time zone,
	"called_by" integer,
	"call_count" integer DEFAULT 0 NOT NULL,
	"version" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "queue_types" (
	"id" serial PRIMARY KEY NOT NULL,
	"bucket_id" integer NOT NULL,
	"prefix" varchar(2) NOT NULL,
	"name" varchar(64) NOT NULL,
	"modality" varchar(8),
	"room" varchar(64),
	"created" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "screen_tokens" (
	"id" serial PRIMARY KEY NOT NULL,
	"bucket_id" integer NOT NULL,
	"name" varchar(64) NOT NULL,
	"token_hash" varchar(64) NOT NULL,
	"created_by" integer,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "calling_settings" ADD CONSTRAINT "calling_settings_bucket_id_buckets_id_fk" FOREIGN KEY ("bucket_id") REFERENCES "public"."buckets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "queue_counters" ADD CONSTRAINT "queue_counters_queue_type_id_queue_types_id_fk" FOREIGN KEY ("queue_type_id") REFERENCES "public"."queue_types"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "queue_entries" ADD CONSTRAINT "queue_entries_bucket_id_buckets_id_fk" FOREIGN KEY ("bucket_id") REFERENCES "public"."buckets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "queue_entries" ADD CONSTRAINT "queue_entries_queue_type_id_queue_types_id_fk" FOREIGN KEY ("queue_type_id") REFERENCES "public"."queue_types"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "queue_entries" ADD CONSTRAINT "queue_entries_exam_id_exams_id_fk" FOREIGN KEY ("exam_id") REFERENCES "public"."exams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "queue_entries" ADD CONSTRAINT "queue_entries_called_by_accounts_id_fk" FOREIGN KEY ("called_by") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "queue_types" ADD CONSTRAINT "queue_types_bucket_id_buckets_id_fk" FOREIGN KEY ("bucket_id") REFERENCES "public"."buckets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "screen_tokens" ADD CONSTRAINT "screen_tokens_bucket_id_buckets_id_fk" FOREIGN KEY ("bucket_id") REFERENCES "public"."buckets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "screen_tokens" ADD CONSTRAINT "screen_tokens_created_by_accounts_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "queue_entries_number_uq" ON "queue_entries" USING btree ("queue_type_id","day","seq");--> statement-breakpoint
CREATE UNIQUE INDEX "queue_entries_exam_day_uq" ON "queue_entries" USING btree ("exam_id","day");--> statement-breakpoint
CREATE INDEX "queue_entries_waiting_idx" ON "queue_entries" USING btree ("queue_type_id","day","position") WHERE "queue_entries"."status" = 'waiting';--> statement-breakpoint
CREATE INDEX "queue_entries_bucket_day_idx" ON "queue_entries" USING btree ("bucket_id","day");--> statement-breakpoint
CREATE INDEX "queue_types_bucket_idx" ON "queue_types" USING btree ("bucket_id");--> statement-breakpoint
CREATE UNIQUE INDEX "screen_tokens_hash_uq" ON "screen_tokens" USING btree ("token_hash");