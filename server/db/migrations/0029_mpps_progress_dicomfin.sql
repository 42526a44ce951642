ALTER TABLE "dicom_mpps" ADD COLUMN "station_ae" varchar(16);--> statement-breakpoint
ALTER TABLE "dicom_mpps" ADD COLUMN "images" integer;