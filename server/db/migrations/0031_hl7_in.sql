CREATE TABLE "hl7_facilities" (
	"id" serial PRIMARY KEY NOT NULL,
	"bucket_id" integer NOT NULL,
	"facility" varchar(64) NOT NULL,
	"application" varchar(64) DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "hl7_messages" (
	"id" serial PRIMARY KEY NOT NULL,
	"direction" varchar(3) DEFAULT 'in' NOT NULL,
	"created" timestamp with time zone NOT NULL,
	"control_id" varchar(64),
	"message_type" varchar(16) DEFAULT '' NOT NULL,
	"facility" varchar(64) DEFAULT '' NOT NULL,
	"application" varchar(64) DEFAULT '' NOT NULL,
	"bucket_id" integer,
	"patient_id" varchar(64),
	"order_id" varchar(64),
	"charset" varchar(32) DEFAULT '' NOT NULL,
	"peer" varchar(64) DEFAULT '' NOT NULL,
	"raw" text NOT NULL,
	"outcome" varchar(16) NOT NULL,
	"ack_code" varchar(2),
	"ack" text,
	"error_code" varchar(48),
	"error" text,
	"registration_id" integer,
	"repeats" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "hl7_settings" (
	"bucket_id" integer PRIMARY KEY NOT NULL,
	"enabled" boolean DEFAULT false NOT NULL,
	"acting_account_id" integer,
	"updated" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "hl7_facilities" ADD CONSTRAINT "hl7_facilities_bucket_id_buckets_id_fk" FOREIGN KEY ("bucket_id") REFERENCES "public"."buckets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hl7_messages" ADD CONSTRAINT "hl7_messages_bucket_id_buckets_id_fk" FOREIGN KEY ("bucket_id") REFERENCES "public"."buckets"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hl7_settings" ADD CONSTRAINT "hl7_settings_bucket_id_buckets_id_fk" FOREIGN KEY ("bucket_id") REFERENCES "public"."buckets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hl7_settings" ADD CONSTRAINT "hl7_settings_acting_account_id_accounts_id_fk" FOREIGN KEY ("acting_account_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "hl7_facilities_uq" ON "hl7_facilities" USING btree ("facility","application");--> statement-breakpoint
CREATE INDEX "hl7_facilities_bucket_idx" ON "hl7_facilities" USING btree ("bucket_id");--> statement-breakpoint
CREATE UNIQUE INDEX "hl7_messages_control_uq" ON "hl7_messages" USING btree ("direction","facility","control_id");--> statement-breakpoint
CREATE INDEX "hl7_messages_bucket_idx" ON "hl7_messages" USING btree ("bucket_id","created");--> statement-breakpoint
CREATE INDEX "hl7_messages_created_idx" ON "hl7_messages" USING btree ("created");