CREATE TABLE "charge_orders" (
	"id" serial PRIMARY KEY NOT NULL,
	"out_trade_no" varchar(32) NOT NULL,
	"provider" varchar(16) NOT NULL,
	"group_id" integer NOT NULL,
	"order_id" integer,
	"package_id" integer NOT NULL,
	"account_id" integer NOT NULL,
	"amount_fen" integer NOT NULL,
	"description" varchar(128) NOT NULL,
	"status" varchar(8) DEFAULT 'created' NOT NULL,
	"code_url" text,
	"expires_at" timestamp with time zone NOT NULL,
	"transaction_id" varchar(64),
	"paid_at" timestamp with time zone,
	"returned_refund_no" varchar(64),
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "charge_orders_status_ck" CHECK ("charge_orders"."status" in ('created', 'paid', 'closed', 'failed')),
	CONSTRAINT "charge_orders_amount_ck" CHECK ("charge_orders"."amount_fen" > 0)
);
--> statement-breakpoint
CREATE TABLE "charge_packages" (
	"id" serial PRIMARY KEY NOT NULL,
	"group_id" integer,
	"kind" varchar(8) NOT NULL,
	"name" varchar(128) NOT NULL,
	"price_fen" integer DEFAULT 0 NOT NULL,
	"bonus_fen" integer DEFAULT 0 NOT NULL,
	"reports" integer DEFAULT 0 NOT NULL,
	"days" integer DEFAULT 0 NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "charge_packages_kind_ck" CHECK ("charge_packages"."kind" in ('single', 'plan', 'credit')),
	CONSTRAINT "charge_packages_amounts_ck" CHECK ("charge_packages"."price_fen" >= 0 and "charge_packages"."bonus_fen" >= 0 and "charge_packages"."reports" >= 0 and "charge_packages"."days" >= 0)
);
--> statement-breakpoint
CREATE TABLE "credit_ledger" (
	"id" serial PRIMARY KEY NOT NULL,
	"group_id" integer NOT NULL,
	"kind" varchar(8) NOT NULL,
	"amount_fen" integer NOT NULL,
	"balance_after_fen" integer NOT NULL,
	"order_id" integer,
	"charge_order_id" integer,
	"account_id" integer,
	"idempotency_key" varchar(96),
	"note" varchar(256),
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "credit_ledger_kind_ck" CHECK ("credit_ledger"."kind" in ('recharge', 'charge', 'refund', 'adjust')),
	CONSTRAINT "credit_ledger_balance_ck" CHECK ("credit_ledger"."balance_after_fen" >= 0)
);
--> statement-breakpoint
CREATE TABLE "expert_products" (
	"id" serial PRIMARY KEY NOT NULL,
	"bucket_id" integer NOT NULL,
	"modality" varchar(8),
	"name" varchar(128) NOT NULL,
	"price_fen" integer NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "expert_products_price_ck" CHECK ("expert_products"."price_fen" >= 0)
);
--> statement-breakpoint
CREATE TABLE "group_credits" (
	"group_id" integer PRIMARY KEY NOT NULL,
	"balance_fen" integer DEFAULT 0 NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"updated" timestamp with time zone,
	CONSTRAINT "group_credits_balance_ck" CHECK ("group_credits"."balance_fen" >= 0)
);
--> statement-breakpoint
CREATE TABLE "idempotency_keys" (
	"account_id" integer NOT NULL,
	"key" varchar(96) NOT NULL,
	"route" varchar(96) NOT NULL,
	"request_hash" varchar(64) NOT NULL,
	"status_code" smallint,
	"response" jsonb,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "idempotency_keys_account_id_key_pk" PRIMARY KEY("account_id","key")
);
--> statement-breakpoint
CREATE TABLE "payment_notifications" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider" varchar(16) NOT NULL,
	"notification_id" varchar(96) NOT NULL,
	"event_type" varchar(48) NOT NULL,
	"out_trade_no" varchar(64),
	"resource" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"result" varchar(32) NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "plan_subscriptions" (
	"id" serial PRIMARY KEY NOT NULL,
	"group_id" integer NOT NULL,
	"package_id" integer NOT NULL,
	"charge_order_id" integer,
	"reports_total" integer NOT NULL,
	"reports_used" integer DEFAULT 0 NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "plan_subscriptions_used_ck" CHECK ("plan_subscriptions"."reports_used" >= 0 and "plan_subscriptions"."reports_used" <= "plan_subscriptions"."reports_total")
);
--> statement-breakpoint
CREATE TABLE "report_order_targets" (
	"order_id" integer NOT NULL,
	"bucket_id" integer NOT NULL,
	"free" boolean DEFAULT false NOT NULL,
	"price_fen" integer NOT NULL,
	"expert_exam_id" integer,
	CONSTRAINT "report_order_targets_order_id_bucket_id_pk" PRIMARY KEY("order_id","bucket_id"),
	CONSTRAINT "report_order_targets_price_ck" CHECK ("report_order_targets"."price_fen" >= 0)
);
--> statement-breakpoint
CREATE TABLE "report_orders" (
	"id" serial PRIMARY KEY NOT NULL,
	"request_no" varchar(32) NOT NULL,
	"type" varchar(8) NOT NULL,
	"exam_id" integer NOT NULL,
	"from_bucket_id" integer NOT NULL,
	"group_id" integer NOT NULL,
	"applicant_id" integer NOT NULL,
	"patient_name" varchar(128) NOT NULL,
	"patient_gender" varchar(2) DEFAULT 'U' NOT NULL,
	"patient_age" varchar(8),
	"email" varchar(128),
	"mobile" varchar(32),
	"reason" text,
	"amount_fen" integer NOT NULL,
	"payment_status" smallint DEFAULT 0 NOT NULL,
	"progress" varchar(24) DEFAULT 'awaiting_payment' NOT NULL,
	"channel" varchar(8),
	"transaction_id" varchar(64),
	"paid_at" timestamp with time zone,
	"paid_description" varchar(256),
	"refund_no" varchar(64),
	"refund_at" timestamp with time zone,
	"refund_reason" varchar(512),
	"refund_operator_id" integer,
	"withdrawn_at" timestamp with time zone,
	"version" integer DEFAULT 1 NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"updated" timestamp with time zone,
	CONSTRAINT "report_orders_type_ck" CHECK ("report_orders"."type" in ('expert', 'remote')),
	CONSTRAINT "report_orders_amount_ck" CHECK ("report_orders"."amount_fen" >= 0),
	CONSTRAINT "report_orders_payment_status_ck" CHECK ("report_orders"."payment_status" between 0 and 3),
	CONSTRAINT "report_orders_progress_ck" CHECK ("report_orders"."progress" in ('awaiting_payment', 'queued', 'withdrawn')),
	CONSTRAINT "report_orders_channel_ck" CHECK ("report_orders"."channel" is null or "report_orders"."channel" in ('weixin', 'credit', 'plan', 'free'))
);
--> statement-breakpoint
CREATE TABLE "sandbox_trades" (
	"out_trade_no" varchar(32) PRIMARY KEY NOT NULL,
	"amount_fen" integer NOT NULL,
	"description" varchar(128) NOT NULL,
	"state" varchar(12) DEFAULT 'NOTPAY' NOT NULL,
	"transaction_id" varchar(64),
	"paid_at" timestamp with time zone,
	"expires_at" timestamp with time zone NOT NULL,
	"refunded_fen" integer DEFAULT 0 NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sandbox_trades_state_ck" CHECK ("sandbox_trades"."state" in ('NOTPAY', 'SUCCESS', 'CLOSED', 'PAYERROR', 'REFUND'))
);
--> statement-breakpoint
ALTER TABLE "charge_orders" ADD CONSTRAINT "charge_orders_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "charge_orders" ADD CONSTRAINT "charge_orders_order_id_report_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."report_orders"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "charge_orders" ADD CONSTRAINT "charge_orders_package_id_charge_packages_id_fk" FOREIGN KEY ("package_id") REFERENCES "public"."charge_packages"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "charge_orders" ADD CONSTRAINT "charge_orders_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "charge_packages" ADD CONSTRAINT "charge_packages_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_ledger" ADD CONSTRAINT "credit_ledger_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_ledger" ADD CONSTRAINT "credit_ledger_order_id_report_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."report_orders"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_ledger" ADD CONSTRAINT "credit_ledger_charge_order_id_charge_orders_id_fk" FOREIGN KEY ("charge_order_id") REFERENCES "public"."charge_orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_ledger" ADD CONSTRAINT "credit_ledger_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "expert_products" ADD CONSTRAINT "expert_products_bucket_id_buckets_id_fk" FOREIGN KEY ("bucket_id") REFERENCES "public"."buckets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "group_credits" ADD CONSTRAINT "group_credits_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan_subscriptions" ADD CONSTRAINT "plan_subscriptions_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan_subscriptions" ADD CONSTRAINT "plan_subscriptions_package_id_charge_packages_id_fk" FOREIGN KEY ("package_id") REFERENCES "public"."charge_packages"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan_subscriptions" ADD CONSTRAINT "plan_subscriptions_charge_order_id_charge_orders_id_fk" FOREIGN KEY ("charge_order_id") REFERENCES "public"."charge_orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_order_targets" ADD CONSTRAINT "report_order_targets_order_id_report_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."report_orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_order_targets" ADD CONSTRAINT "report_order_targets_bucket_id_buckets_id_fk" FOREIGN KEY ("bucket_id") REFERENCES "public"."buckets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_order_targets" ADD CONSTRAINT "report_order_targets_expert_exam_id_exams_id_fk" FOREIGN KEY ("expert_exam_id") REFERENCES "public"."exams"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_orders" ADD CONSTRAINT "report_orders_exam_id_exams_id_fk" FOREIGN KEY ("exam_id") REFERENCES "public"."exams"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_orders" ADD CONSTRAINT "report_orders_from_bucket_id_buckets_id_fk" FOREIGN KEY ("from_bucket_id") REFERENCES "public"."buckets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_orders" ADD CONSTRAINT "report_orders_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_orders" ADD CONSTRAINT "report_orders_applicant_id_accounts_id_fk" FOREIGN KEY ("applicant_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_orders" ADD CONSTRAINT "report_orders_refund_operator_id_accounts_id_fk" FOREIGN KEY ("refund_operator_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "charge_orders_out_trade_no_uq" ON "charge_orders" USING btree ("out_trade_no");--> statement-breakpoint
CREATE UNIQUE INDEX "charge_orders_transaction_uq" ON "charge_orders" USING btree ("transaction_id");--> statement-breakpoint
CREATE INDEX "charge_orders_order_idx" ON "charge_orders" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "charge_orders_group_idx" ON "charge_orders" USING btree ("group_id","id");--> statement-breakpoint
CREATE INDEX "credit_ledger_group_idx" ON "credit_ledger" USING btree ("group_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "credit_ledger_idempotency_uq" ON "credit_ledger" USING btree ("group_id","idempotency_key");--> statement-breakpoint
CREATE UNIQUE INDEX "credit_ledger_order_kind_uq" ON "credit_ledger" USING btree ("order_id","kind") WHERE "credit_ledger"."order_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "credit_ledger_charge_order_uq" ON "credit_ledger" USING btree ("charge_order_id") WHERE "credit_ledger"."charge_order_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "expert_products_bucket_modality_uq" ON "expert_products" USING btree ("bucket_id",coalesce("modality", ''));--> statement-breakpoint
CREATE UNIQUE INDEX "payment_notifications_uq" ON "payment_notifications" USING btree ("provider","notification_id");--> statement-breakpoint
CREATE UNIQUE INDEX "plan_subscriptions_charge_uq" ON "plan_subscriptions" USING btree ("charge_order_id");--> statement-breakpoint
CREATE INDEX "plan_subscriptions_group_idx" ON "plan_subscriptions" USING btree ("group_id","expires_at");--> statement-breakpoint
CREATE INDEX "report_order_targets_bucket_idx" ON "report_order_targets" USING btree ("bucket_id","order_id");--> statement-breakpoint
CREATE UNIQUE INDEX "report_order_targets_expert_exam_uq" ON "report_order_targets" USING btree ("expert_exam_id");--> statement-breakpoint
CREATE UNIQUE INDEX "report_orders_request_no_uq" ON "report_orders" USING btree ("request_no");--> statement-breakpoint
CREATE UNIQUE INDEX "report_orders_transaction_uq" ON "report_orders" USING btree ("transaction_id");--> statement-breakpoint
CREATE INDEX "report_orders_from_bucket_idx" ON "report_orders" USING btree ("from_bucket_id","id");--> statement-breakpoint
CREATE INDEX "report_orders_exam_idx" ON "report_orders" USING btree ("exam_id");--> statement-breakpoint
CREATE UNIQUE INDEX "report_orders_remote_once_uq" ON "report_orders" USING btree ("exam_id") WHERE "report_orders"."type" = 'remote' and "report_orders"."progress" <> 'withdrawn';