-- Bigrams for 2-character search (server/http/bigrams.ts): the 2-character pieces of the lower-cased text without
-- whitespace (JavaScript's \s, spelled out) and '^'. IMMUTABLE: index expressions of exams_name_bigrams and
-- exams_registry_search_bigrams.
CREATE FUNCTION "exam_name_bigrams"("name" text) RETURNS text[] LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT coalesce(array_agg(DISTINCT substr(n.s, i, 2)), '{}'::text[])
  FROM (SELECT regexp_replace(lower("name"), '[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff^]+', '', 'g') AS s) n,
    generate_series(1, char_length(n.s) - 1) AS i
$$;--> statement-breakpoint
CREATE FUNCTION "exam_search_bigrams"("a" text, "b" text, "c" text, "d" text) RETURNS text[] LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(array_agg(DISTINCT substr(n.s, i, 2)), '{}'::text[])
  FROM unnest(ARRAY["a", "b", "c", "d"]) AS v(t),
    LATERAL (SELECT regexp_replace(lower(v.t), '[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff^]+', '', 'g') AS s) n,
    generate_series(1, char_length(n.s) - 1) AS i
$$;--> statement-breakpoint
CREATE INDEX "exams_name_bigrams" ON "exams" USING gin (exam_name_bigrams("patient_name"));--> statement-breakpoint
CREATE INDEX "exams_registry_search_bigrams" ON "exams" USING gin (exam_search_bigrams("patient_name", "patient_id", "patient_phone", "accession_number")) WHERE "exams"."deleted_time" is null and "exams"."registration_id" is not null;--> statement-breakpoint
CREATE INDEX "exams_accession_trgm" ON "exams" USING gin ("accession_number" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "exams_patient_id_trgm" ON "exams" USING gin ("patient_id" gin_trgm_ops);