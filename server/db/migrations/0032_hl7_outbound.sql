CREATE TABLE "hl7_destinations" (
	"bucket_id" integer PRIMARY KEY NOT NULL,
	"enabled" boolean DEFAULT false NOT NULL,
	"host" varchar(255) DEFAULT '' NOT NULL,
	"port" integer DEFAULT 2575 NOT NULL,
	"sending_application" varchar(64) DEFAULT 'RADWS' NOT NULL,
	"sending_facility" varchar(64) DEFAULT '' NOT NULL,
	"receiving_application" varchar(64) DEFAULT '' NOT NULL,
	"receiving_facility" varchar(64) DEFAULT '' NOT NULL,
	"charset" varchar(16) DEFAULT 'UNICODE UTF-8' NOT NULL,
	"tls" boolean DEFAULT false NOT NULL,
	"tls_ca" text,
	"max_attempts" integer DEFAULT 10 NOT NULL,
	"ack_timeout_ms" integer DEFAULT 10000 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "hl7_outbox" (
	"id" serial PRIMARY KEY NOT NULL,
	"bucket_id" integer NOT NULL,
	"report_id" integer NOT NULL,
	"report_version" integer NOT NULL,
	"exam_id" integer NOT NULL,
	"result_status" varchar(1) NOT NULL,
	"control_id" varchar(20) NOT NULL,
	"patient_name" varchar(128) DEFAULT '' NOT NULL,
	"accession_number" varchar(64),
	"message" text NOT NULL,
	"status" varchar(8) DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"leased_until" timestamp with time zone,
	"destination" varchar(300),
	"last_error" varchar(512),
	"ack_code" varchar(2),
	"ack" text,
	"sent_at" timestamp with time zone,
	"resent_by" integer,
	"created" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "hl7_destinations" ADD CONSTRAINT "hl7_destinations_bucket_id_buckets_id_fk" FOREIGN KEY ("bucket_id") REFERENCES "public"."buckets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hl7_outbox" ADD CONSTRAINT "hl7_outbox_bucket_id_buckets_id_fk" FOREIGN KEY ("bucket_id") REFERENCES "public"."buckets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hl7_outbox" ADD CONSTRAINT "hl7_outbox_report_id_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."reports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hl7_outbox" ADD CONSTRAINT "hl7_outbox_resent_by_accounts_id_fk" FOREIGN KEY ("resent_by") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "hl7_outbox_control_uq" ON "hl7_outbox" USING btree ("control_id");--> statement-breakpoint
CREATE INDEX "hl7_outbox_due_idx" ON "hl7_outbox" USING btree ("status","next_attempt_at");--> statement-breakpoint
CREATE INDEX "hl7_outbox_bucket_created_idx" ON "hl7_outbox" USING btree ("bucket_id","created","id");--> statement-breakpoint
CREATE INDEX "hl7_outbox_report_idx" ON "hl7_outbox" USING btree ("report_id","id");