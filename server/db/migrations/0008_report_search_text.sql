DROP INDEX "reports_finding_trgm";--> statement-breakpoint
DROP INDEX "reports_diagnosis_trgm";--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "search_text" text GENERATED ALWAYS AS (replace(replace(replace(replace(replace(replace(
    regexp_replace(regexp_replace(finding || chr(10) || diagnosis, '<(br|/p|/li|/h[1-6]|/div|/blockquote|/pre|/tr|/td|/th)[^>]*>', chr(10), 'gi'), '<[^>]*>', '', 'g'),
    '&lt;', '<'), '&gt;', '>'), '&quot;', '"'), '&#39;', ''''), '&nbsp;', ' '), '&amp;', '&')) STORED;--> statement-breakpoint
CREATE INDEX "reports_search_text_trgm" ON "reports" USING gin ("search_text" gin_trgm_ops);