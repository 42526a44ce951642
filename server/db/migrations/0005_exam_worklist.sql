CREATE TABLE "report_table_colour_rules" (
	"id" serial PRIMARY KEY NOT NULL,
	"group_id" integer NOT NULL,
	"name" varchar(64) NOT NULL,
	"priority" integer NOT NULL,
	"rule_index" integer DEFAULT 0 NOT NULL,
	"match_column" varchar(32) NOT NULL,
	"value" varchar(64),
	"gte" varchar(64),
	"lte" varchar(64),
	"fore_color" varchar(16),
	"back_color" varchar(16),
	"created_by" integer,
	"created" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX "exams_created_idx";--> statement-breakpoint
DROP INDEX "exams_bucket_created_idx";--> statement-breakpoint
DROP INDEX "exams_bucket_modality_created_idx";--> statement-breakpoint
ALTER TABLE "report_table_colour_rules" ADD CONSTRAINT "report_table_colour_rules_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "report_table_colour_rules_group_idx" ON "report_table_colour_rules" USING btree ("group_id","priority");--> statement-breakpoint
CREATE INDEX "exams_live_created_idx" ON "exams" USING btree ("created","id","bucket_id") WHERE "exams"."deleted_time" is null;--> statement-breakpoint
CREATE INDEX "exams_live_bucket_created_idx" ON "exams" USING btree ("bucket_id","created","id") WHERE "exams"."deleted_time" is null;--> statement-breakpoint
CREATE INDEX "exams_live_bucket_modality_created_idx" ON "exams" USING btree ("bucket_id","modality","created","id") WHERE "exams"."deleted_time" is null;--> statement-breakpoint
CREATE INDEX "exams_live_bucket_exam_time_idx" ON "exams" USING btree ("bucket_id","exam_time","id") WHERE "exams"."deleted_time" is null;--> statement-breakpoint
CREATE INDEX "exams_live_assignee_idx" ON "exams" USING btree ("assignee_id","created","id") WHERE "exams"."deleted_time" is null and "exams"."assignee_id" is not null;--> statement-breakpoint
CREATE INDEX "exams_live_report_creator_idx" ON "exams" USING btree ("report_creator_id","created","id") WHERE "exams"."deleted_time" is null and "exams"."report_creator_id" is not null;--> statement-breakpoint
CREATE INDEX "exams_accession_idx" ON "exams" USING btree ("accession_number");