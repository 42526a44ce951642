CREATE TABLE "rate_counters" (
	"key" varchar(160) PRIMARY KEY NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	"blocked_until" timestamp with time zone
);--> statement-breakpoint
-- Counters carried over, so an upgrade does not lift a block that is running: login keys get their new names.
INSERT INTO "rate_counters" ("key", "window_start", "count", "blocked_until")
  SELECT 'login-' || "key", "window_start", "failures", "blocked_until" FROM "login_attempts";--> statement-breakpoint
INSERT INTO "rate_counters" ("key", "window_start", "count", "blocked_until")
  SELECT "key", "window_start", "count",
    CASE WHEN "key" LIKE '%-fail:%' AND "count" >= 10 THEN "window_start" + interval '15 minutes' END
  FROM "request_counters";--> statement-breakpoint
DROP TABLE "login_attempts" CASCADE;--> statement-breakpoint
DROP TABLE "request_counters" CASCADE;
