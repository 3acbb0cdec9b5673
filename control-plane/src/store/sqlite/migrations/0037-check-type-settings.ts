/**
 * Check types as modules (issue 54): a monitor's type-specific fields beyond the first protocol's
 * columns (assertions, packet_count, grpc_service, a database check's sealed URL…) in one JSON column,
 * so a new field of a type needs no migration. Existing monitors have none: their types' modules read
 * an absent field as its default.
 */
export default ["ALTER TABLE monitors ADD COLUMN settings TEXT NOT NULL DEFAULT '{}'"];
