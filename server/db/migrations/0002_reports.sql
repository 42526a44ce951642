CREATE TABLE "report_quality" (
	"report_id" integer PRIMARY KEY NOT NULL,
	"bucket_id" integer NOT NULL,
	"grade" varchar(2) NOT NULL,
	"score" integer,
	"comment" varchar(512),
	"items" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"reviewer_id" integer,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"updated" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "advice_reason" varchar(512);--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "joint_exam_ids" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "joint_discarded_ids" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "report_quality" ADD CONSTRAINT "report_quality_report_id_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."reports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_quality" ADD CONSTRAINT "report_quality_bucket_id_buckets_id_fk" FOREIGN KEY ("bucket_id") REFERENCES "public"."buckets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "report_templates_name_uq" ON "report_templates" USING btree ("bucket_id",coalesce("parent_id", 0),lower("name"));