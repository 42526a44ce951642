CREATE TABLE "upload_origins" (
	"exam_id" integer PRIMARY KEY NOT NULL,
	"code" varchar(64),
	"account_id" integer,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "upload_origins_one_origin_ck" CHECK (("upload_origins"."code" is null) <> ("upload_origins"."account_id" is null))
);
--> statement-breakpoint
ALTER TABLE "upload_origins" ADD CONSTRAINT "upload_origins_exam_id_exams_id_fk" FOREIGN KEY ("exam_id") REFERENCES "public"."exams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "upload_origins" ADD CONSTRAINT "upload_origins_code_upload_codes_code_fk" FOREIGN KEY ("code") REFERENCES "public"."upload_codes"("code") ON DELETE cascade ON UPDATE no action;