/**
 * The database schema (Drizzle). One schema for PGlite and PostgreSQL; migrations are generated
 * from it by `npm run db:generate` and applied in code at start (server/db/migrate.ts).
 * One file per area; every table is exported from here. Names follow the spec: bucket = organisation, finding = findings, diagnosis = conclusion.
 */
export * from './accounts';
export * from './limits';
export * from './exams';
export * from './reports';
export * from './shares';
export * from './audit';
export * from './consultations';
export * from './registry';
export * from './calling';
export * from './admin';
export * from './uploads';
export * from './workspace';
export * from './payments';
export * from './dicom';
export * from './hl7';
export * from './hl7Outbound';
