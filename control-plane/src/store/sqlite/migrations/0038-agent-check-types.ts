/**
 * The check types each agent runs (RegisterRequest.check_types), kept on its session: placement gives
 * an agent only monitors of its types. A session registered before this field runs the first
 * protocol's types, which is what the default says; the agent's next Register writes what it declares.
 */
export default [
  // Frozen SQL: a migration never follows the live table definition.
  `ALTER TABLE agent_sessions ADD COLUMN check_types TEXT NOT NULL DEFAULT '["http","api","dns","tcp","domain"]'`,
];
