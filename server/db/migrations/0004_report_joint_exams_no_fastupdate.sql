DROP INDEX "reports_joint_exam_ids_idx";--> statement-breakpoint
CREATE INDEX "reports_joint_exam_ids_idx" ON "reports" USING gin ("joint_exam_ids" jsonb_path_ops) WITH (fastupdate=false);