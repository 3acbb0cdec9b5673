/**
 * Every user's connected apps (admins, domain/access/connected-apps.ts): a workspace's grants by model.
 */
export default ['CREATE INDEX oauth_records_model ON oauth_records (workspace_id, model, created_at)'];
