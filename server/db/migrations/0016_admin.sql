CREATE TABLE "assign_rules" (
	"id" serial PRIMARY KEY NOT NULL,
	"group_id" integer NOT NULL,
	"name" varchar(64) NOT NULL,
	"bucket_id" integer NOT NULL,
	"reporter_id" integer,
	"modality" varchar(8),
	"member_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"priority" integer DEFAULT 0 NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "bucket_extensions" (
	"id" serial PRIMARY KEY NOT NULL,
	"bucket_id" integer NOT NULL,
	"key" varchar(64) NOT NULL,
	"label" varchar(128) NOT NULL
);
--> statement-breakpoint
CREATE TABLE "critical_values" (
	"id" serial PRIMARY KEY NOT NULL,
	"bucket_id" integer NOT NULL,
	"name" varchar(128) NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "device_groups" (
	"id" serial PRIMARY KEY NOT NULL,
	"bucket_id" integer NOT NULL,
	"name" varchar(64) NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "devices" (
	"id" serial PRIMARY KEY NOT NULL,
	"bucket_id" integer NOT NULL,
	"device_group_id" integer,
	"name" varchar(64) NOT NULL,
	"modality" varchar(8) NOT NULL,
	"ae_title" varchar(16),
	"room" varchar(64),
	"sort_order" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "extension_packages" (
	"id" serial PRIMARY KEY NOT NULL,
	"bucket_id" integer NOT NULL,
	"name" varchar(64) NOT NULL,
	"type" varchar(8) DEFAULT 'report' NOT NULL,
	"fields" jsonb DEFAULT '[]'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "group_consultation_targets" (
	"group_id" integer NOT NULL,
	"bucket_id" integer NOT NULL,
	CONSTRAINT "group_consultation_targets_group_id_bucket_id_pk" PRIMARY KEY("group_id","bucket_id")
);
--> statement-breakpoint
CREATE TABLE "group_expert_buckets" (
	"group_id" integer NOT NULL,
	"bucket_id" integer NOT NULL,
	"free" boolean DEFAULT false NOT NULL,
	CONSTRAINT "group_expert_buckets_group_id_bucket_id_pk" PRIMARY KEY("group_id","bucket_id")
);
--> statement-breakpoint
CREATE TABLE "notification_settings" (
	"id" serial PRIMARY KEY NOT NULL,
	"group_id" integer NOT NULL,
	"bucket_id" integer NOT NULL,
	"type" varchar(32) NOT NULL,
	"account_ids" jsonb DEFAULT '[]'::jsonb NOT NULL
);
--> statement-breakpoint
ALTER TABLE "buckets" ADD COLUMN "is_focused" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "buckets" ADD COLUMN "free_efilm" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "buckets" ADD COLUMN "code_bound" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "groups" ADD COLUMN "logo" varchar(1024);--> statement-breakpoint
ALTER TABLE "groups" ADD COLUMN "url" varchar(1024);--> statement-breakpoint
ALTER TABLE "groups" ADD COLUMN "allow_registration" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "groups" ADD COLUMN "search_in_group" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "groups" ADD COLUMN "created_by" integer;--> statement-breakpoint
ALTER TABLE "procedures" ADD COLUMN "sort_order" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "queue_types" ADD COLUMN "sort_order" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "assign_rules" ADD CONSTRAINT "assign_rules_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assign_rules" ADD CONSTRAINT "assign_rules_bucket_id_buckets_id_fk" FOREIGN KEY ("bucket_id") REFERENCES "public"."buckets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assign_rules" ADD CONSTRAINT "assign_rules_reporter_id_accounts_id_fk" FOREIGN KEY ("reporter_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bucket_extensions" ADD CONSTRAINT "bucket_extensions_bucket_id_buckets_id_fk" FOREIGN KEY ("bucket_id") REFERENCES "public"."buckets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "critical_values" ADD CONSTRAINT "critical_values_bucket_id_buckets_id_fk" FOREIGN KEY ("bucket_id") REFERENCES "public"."buckets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_groups" ADD CONSTRAINT "device_groups_bucket_id_buckets_id_fk" FOREIGN KEY ("bucket_id") REFERENCES "public"."buckets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "devices" ADD CONSTRAINT "devices_bucket_id_buckets_id_fk" FOREIGN KEY ("bucket_id") REFERENCES "public"."buckets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "devices" ADD CONSTRAINT "devices_device_group_id_device_groups_id_fk" FOREIGN KEY ("device_group_id") REFERENCES "public"."device_groups"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "extension_packages" ADD CONSTRAINT "extension_packages_bucket_id_buckets_id_fk" FOREIGN KEY ("bucket_id") REFERENCES "public"."buckets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "group_consultation_targets" ADD CONSTRAINT "group_consultation_targets_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "group_consultation_targets" ADD CONSTRAINT "group_consultation_targets_bucket_id_buckets_id_fk" FOREIGN KEY ("bucket_id") REFERENCES "public"."buckets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "group_expert_buckets" ADD CONSTRAINT "group_expert_buckets_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "group_expert_buckets" ADD CONSTRAINT "group_expert_buckets_bucket_id_buckets_id_fk" FOREIGN KEY ("bucket_id") REFERENCES "public"."buckets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_settings" ADD CONSTRAINT "notification_settings_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_settings" ADD CONSTRAINT "notification_settings_bucket_id_buckets_id_fk" FOREIGN KEY ("bucket_id") REFERENCES "public"."buckets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "assign_rules_group_idx" ON "assign_rules" USING btree ("group_id","priority");--> statement-breakpoint
CREATE UNIQUE INDEX "bucket_extensions_key_uq" ON "bucket_extensions" USING btree ("bucket_id","key");--> statement-breakpoint
CREATE UNIQUE INDEX "critical_values_bucket_name_uq" ON "critical_values" USING btree ("bucket_id","name");--> statement-breakpoint
CREATE INDEX "device_groups_bucket_idx" ON "device_groups" USING btree ("bucket_id","sort_order");--> statement-breakpoint
CREATE INDEX "devices_bucket_idx" ON "devices" USING btree ("bucket_id","sort_order");--> statement-breakpoint
CREATE UNIQUE INDEX "extension_packages_name_uq" ON "extension_packages" USING btree ("bucket_id",lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "notification_settings_uq" ON "notification_settings" USING btree ("bucket_id","type");--> statement-breakpoint
-- Existing rows keep their present order (creation order) and lose repeated body-part names (areas §5: no duplicates).
UPDATE "procedures" SET "sort_order" = "id";--> statement-breakpoint
UPDATE "queue_types" SET "sort_order" = "id";--> statement-breakpoint
DELETE FROM "bodyparts" b USING "bodyparts" k WHERE b."bucket_id" = k."bucket_id" AND lower(b."name") = lower(k."name") AND b."id" > k."id";--> statement-breakpoint
CREATE UNIQUE INDEX "bodyparts_bucket_name_uq" ON "bodyparts" USING btree ("bucket_id",lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "procedures_bucket_code_uq" ON "procedures" USING btree ("bucket_id","code");--> statement-breakpoint
CREATE INDEX "procedures_bucket_order_idx" ON "procedures" USING btree ("bucket_id","sort_order");