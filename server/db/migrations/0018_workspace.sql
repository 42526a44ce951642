CREATE TABLE "global_configs" (
	"key" varchar(64) PRIMARY KEY NOT NULL,
	"value" jsonb NOT NULL,
	"updated" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "kb_items" (
	"id" serial PRIMARY KEY NOT NULL,
	"bucket_id" integer NOT NULL,
	"parent_id" integer,
	"type" varchar(16) NOT NULL,
	"name" varchar(128) NOT NULL,
	"reference_id" integer,
	"content" text DEFAULT '' NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"created_by" integer,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"updated" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "learning_progress" (
	"account_id" integer NOT NULL,
	"learning_id" integer NOT NULL,
	"position_sec" real DEFAULT 0 NOT NULL,
	"completed" boolean DEFAULT false NOT NULL,
	"updated" timestamp with time zone NOT NULL,
	CONSTRAINT "learning_progress_account_id_learning_id_pk" PRIMARY KEY("account_id","learning_id")
);
--> statement-breakpoint
CREATE TABLE "learnings" (
	"id" serial PRIMARY KEY NOT NULL,
	"title" varchar(128) NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"video_url" varchar(1024) NOT NULL,
	"poster_url" varchar(1024),
	"duration_sec" real DEFAULT 0 NOT NULL,
	"category" varchar(64),
	"sort" integer DEFAULT 0 NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sample_graphs" (
	"id" serial PRIMARY KEY NOT NULL,
	"bucket_id" integer NOT NULL,
	"name" varchar(64) NOT NULL,
	"origin" varchar(64) DEFAULT '' NOT NULL,
	"url" varchar(1024) NOT NULL,
	"points" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"sort_index" integer DEFAULT 0 NOT NULL,
	"created_by" integer,
	"created" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "verification_codes" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"purpose" varchar(16) NOT NULL,
	"mobile" varchar(32) NOT NULL,
	"code_hash" varchar(128) NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX "report_templates_name_uq";--> statement-breakpoint
ALTER TABLE "report_templates" ALTER COLUMN "bucket_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "notification_prefs" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "print_templates" ADD COLUMN "layout_type" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "print_templates" ADD COLUMN "updated" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "report_templates" ADD COLUMN "group_id" integer;--> statement-breakpoint
ALTER TABLE "kb_items" ADD CONSTRAINT "kb_items_bucket_id_buckets_id_fk" FOREIGN KEY ("bucket_id") REFERENCES "public"."buckets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kb_items" ADD CONSTRAINT "kb_items_parent_id_kb_items_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."kb_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "learning_progress" ADD CONSTRAINT "learning_progress_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "learning_progress" ADD CONSTRAINT "learning_progress_learning_id_learnings_id_fk" FOREIGN KEY ("learning_id") REFERENCES "public"."learnings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sample_graphs" ADD CONSTRAINT "sample_graphs_bucket_id_buckets_id_fk" FOREIGN KEY ("bucket_id") REFERENCES "public"."buckets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "verification_codes" ADD CONSTRAINT "verification_codes_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "kb_items_tree_idx" ON "kb_items" USING btree ("bucket_id","parent_id","sort");--> statement-breakpoint
CREATE INDEX "sample_graphs_bucket_idx" ON "sample_graphs" USING btree ("bucket_id","sort_index");--> statement-breakpoint
CREATE INDEX "verification_codes_account_idx" ON "verification_codes" USING btree ("account_id","purpose","created");--> statement-breakpoint
ALTER TABLE "report_templates" ADD CONSTRAINT "report_templates_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "print_templates_bucket_idx" ON "print_templates" USING btree ("bucket_id");--> statement-breakpoint
CREATE UNIQUE INDEX "print_templates_name_uq" ON "print_templates" USING btree ("bucket_id",lower("name"));--> statement-breakpoint
CREATE INDEX "report_templates_group_idx" ON "report_templates" USING btree ("group_id");--> statement-breakpoint
CREATE UNIQUE INDEX "report_templates_name_uq" ON "report_templates" USING btree (coalesce("bucket_id", 0),coalesce("group_id", 0),coalesce("parent_id", 0),lower("name"));--> statement-breakpoint
ALTER TABLE "report_templates" ADD CONSTRAINT "report_templates_owner_ck" CHECK (("report_templates"."bucket_id" is null) <> ("report_templates"."group_id" is null));