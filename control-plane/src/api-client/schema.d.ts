/**
 * Generated from the API's OpenAPI document by `npm run generate:api`. Do not edit: change the route's
 * zod schemas (control-plane/src/http) and regenerate.
 */
export type paths = {
    "/alerts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List alerts, newest first. Filter by status (comma-separated), source and creation time. */
        get: operations["getAlerts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/alerts/{uuid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get an alert with its timeline: raised, each notification attempt (to whom, how, outcome), acknowledged, resolved. */
        get: operations["getAlertsByUuid"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/alerts/acknowledge": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Acknowledge open alerts by UUID, recording you (and your key): their escalation stops. Alerts already acknowledged or resolved stay as they were; unknown UUIDs are reported as not found. */
        post: operations["postAlertsAcknowledge"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/alerts/resolve": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Resolve alerts by UUID, recording you (and your key) as the resolver. Alerts already resolved stay as they were; unknown UUIDs are reported as not found. */
        post: operations["postAlertsResolve"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api-keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Your named API keys (admins: every key of the workspace), newest first and paged, with the last four characters, expiry and last use. Active legacy keys are listed separately, whole, in `legacy_keys` (one per user at most). */
        get: operations["getApiKeys"];
        put?: never;
        /** Create a named key for yourself (web app session only: an API key cannot mint keys). expiry: none, 1d, 7d, 30d, 90d, or a date (YYYY-MM-DD, valid through that UTC day) or date-time. The value is in `key`, shown this once. */
        post: operations["postApiKeys"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api-keys/{id}/revoke": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Revoke a key: access ends at once and for good. Your own keys; admins: any key of the workspace. */
        post: operations["postApiKeysByIdRevoke"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api-keys/legacy/regenerate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Regenerate your legacy key (web app session only): the old value stops at once; the new one is in `key`, shown this once. */
        post: operations["postApiKeysLegacyRegenerate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/channel-kinds": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The notification kinds a channel can be: for each, its `type`, its name, the JSON Schema of its `config` (the same rules the API checks), which config fields are secrets (write-only: shown as at most their last four characters, kept when a PATCH leaves them out) and which alert events after "raised" it is sent (acknowledged, resolved). */
        get: operations["getChannelKinds"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/channels": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List notification channels, newest first. */
        get: operations["getChannels"];
        put?: never;
        /** Create a channel. `config` is in the words of the kind's service (GET /channel-kinds lists every kind with its JSON Schema). A webhook's response carries `signing_secret` once (HMAC-SHA256 signature in X-Lookout-Signature). Secrets (tokens, keys, webhook URLs whose path is the secret) are write-only. */
        post: operations["postChannels"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/channels/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a notification channel. */
        get: operations["getChannelsById"];
        put?: never;
        post?: never;
        /** Delete a channel that no escalation policy notifies. */
        delete: operations["deleteChannelsById"];
        options?: never;
        head?: never;
        /** Rename a channel or replace its config (the whole config of its type, except secrets: one left out, or sent back as the hint the API shows, keeps its value). */
        patch: operations["patchChannelsById"];
        trace?: never;
    };
    "/channels/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The channel’s delivery log, newest first, paged by `cursor`: every attempt of every notification and test, with its outcome, the status the service answered, the error, and whether it was retried. */
        get: operations["getChannelsByIdDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/channels/{id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send one test notification through the channel now and report its outcome at once: `ok`, `outcome` (sent or failed), the service's answer (`status_code`, `response`: the start of its body), `error`, `retry_after_seconds` when it asked to wait, and `would_retry` (whether a real notification would try again after this failure). A test is never retried; the attempt is logged like any delivery. */
        post: operations["postChannelsByIdTest"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/connected-apps": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The apps (AI assistants using the hosted MCP connector) you authorized with OAuth, newest first: the client, what it may do (scope "mcp": act as you, with your role), when granted and until when. */
        get: operations["getConnectedApps"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/connected-apps/{id}/revoke": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Revoke one of your connected apps: its grant and every access and refresh token issued under it stop working at once. */
        post: operations["postConnectedAppsByIdRevoke"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/escalation-policies": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the workspace’s escalation policies, newest first (one is the default). */
        get: operations["getEscalationPolicies"];
        put?: never;
        /** Create a policy: ordered steps (wait N minutes after the previous step, then notify users by email and/or channels), repeated `repeat` more times until acknowledged. `is_default: true` makes it the workspace default. */
        post: operations["postEscalationPolicies"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/escalation-policies/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get an escalation policy. */
        get: operations["getEscalationPoliciesById"];
        put?: never;
        post?: never;
        /** Delete a policy that is not the default and that no monitor, heartbeat or integration uses. */
        delete: operations["deleteEscalationPoliciesById"];
        options?: never;
        head?: never;
        /** Change a policy. Alerts already escalating follow the new steps from their current position. */
        patch: operations["patchEscalationPoliciesById"];
        trace?: never;
    };
    "/hb/ping/{ping_key}/{slug}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Record a success ping: the job ran. Recorded at arrival time. HEAD works the same (headers, no body). Also served at /hb/ping/{ping_key}/{slug}. */
        get: operations["getHbPingByPingKeyBySlug"];
        put?: never;
        /** Record a success ping: the job ran. A JSON body is {"timestamp": <unix seconds>} (the job’s finish time: not before the heartbeat was created, at most 5 minutes ahead; a time older than the last ping is logged but moves nothing); any other body (text/plain, e.g. the job’s output) is kept with the ping, up to 10,000 bytes, and shown on the alert it raises. Also served at /hb/ping/{ping_key}/{slug}. */
        post: operations["postHbPingByPingKeyBySlug"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/hb/ping/{ping_key}/{slug}/{exit_status}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The job’s exit status, 0–255: 0 is a success, anything else a failure. Recorded at arrival time. HEAD works the same (headers, no body). Also served at /hb/ping/{ping_key}/{slug}/{exit_status}. */
        get: operations["getHbPingByPingKeyBySlugByExitStatus"];
        put?: never;
        /** The job’s exit status, 0–255: 0 is a success, anything else a failure. A JSON body is {"timestamp": <unix seconds>} (the job’s finish time: not before the heartbeat was created, at most 5 minutes ahead; a time older than the last ping is logged but moves nothing); any other body (text/plain, e.g. the job’s output) is kept with the ping, up to 10,000 bytes, and shown on the alert it raises. Also served at /hb/ping/{ping_key}/{slug}/{exit_status}. */
        post: operations["postHbPingByPingKeyBySlugByExitStatus"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/hb/ping/{ping_key}/{slug}/fail": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The job failed: the heartbeat goes down and an alert is raised at once. Recorded at arrival time. HEAD works the same (headers, no body). Also served at /hb/ping/{ping_key}/{slug}/fail. */
        get: operations["getHbPingByPingKeyBySlugFail"];
        put?: never;
        /** The job failed: the heartbeat goes down and an alert is raised at once. A JSON body is {"timestamp": <unix seconds>} (the job’s finish time: not before the heartbeat was created, at most 5 minutes ahead; a time older than the last ping is logged but moves nothing); any other body (text/plain, e.g. the job’s output) is kept with the ping, up to 10,000 bytes, and shown on the alert it raises. Also served at /hb/ping/{ping_key}/{slug}/fail. */
        post: operations["postHbPingByPingKeyBySlugFail"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/hb/ping/{ping_key}/{slug}/start": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A run began: it must finish (success, fail or exit status) within the grace time. Recorded at arrival time. HEAD works the same (headers, no body). Also served at /hb/ping/{ping_key}/{slug}/start. */
        get: operations["getHbPingByPingKeyBySlugStart"];
        put?: never;
        /** A run began: it must finish (success, fail or exit status) within the grace time. A JSON body is {"timestamp": <unix seconds>} (the job’s finish time: not before the heartbeat was created, at most 5 minutes ahead; a time older than the last ping is logged but moves nothing); any other body (text/plain, e.g. the job’s output) is kept with the ping, up to 10,000 bytes, and shown on the alert it raises. Also served at /hb/ping/{ping_key}/{slug}/start. */
        post: operations["postHbPingByPingKeyBySlugStart"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/hb/ping/{uuid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Record a success ping: the job ran. Recorded at arrival time. HEAD works the same (headers, no body). Also served at /hb/ping/{uuid}. */
        get: operations["getHbPingByUuid"];
        put?: never;
        /** Record a success ping: the job ran. A JSON body is {"timestamp": <unix seconds>} (the job’s finish time: not before the heartbeat was created, at most 5 minutes ahead; a time older than the last ping is logged but moves nothing); any other body (text/plain, e.g. the job’s output) is kept with the ping, up to 10,000 bytes, and shown on the alert it raises. Also served at /hb/ping/{uuid}. */
        post: operations["postHbPingByUuid"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/hb/ping/{uuid}/{exit_status}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The job’s exit status, 0–255: 0 is a success, anything else a failure. Recorded at arrival time. HEAD works the same (headers, no body). Also served at /hb/ping/{uuid}/{exit_status}. */
        get: operations["getHbPingByUuidByExitStatus"];
        put?: never;
        /** The job’s exit status, 0–255: 0 is a success, anything else a failure. A JSON body is {"timestamp": <unix seconds>} (the job’s finish time: not before the heartbeat was created, at most 5 minutes ahead; a time older than the last ping is logged but moves nothing); any other body (text/plain, e.g. the job’s output) is kept with the ping, up to 10,000 bytes, and shown on the alert it raises. Also served at /hb/ping/{uuid}/{exit_status}. */
        post: operations["postHbPingByUuidByExitStatus"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/hb/ping/{uuid}/fail": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The job failed: the heartbeat goes down and an alert is raised at once. Recorded at arrival time. HEAD works the same (headers, no body). Also served at /hb/ping/{uuid}/fail. */
        get: operations["getHbPingByUuidFail"];
        put?: never;
        /** The job failed: the heartbeat goes down and an alert is raised at once. A JSON body is {"timestamp": <unix seconds>} (the job’s finish time: not before the heartbeat was created, at most 5 minutes ahead; a time older than the last ping is logged but moves nothing); any other body (text/plain, e.g. the job’s output) is kept with the ping, up to 10,000 bytes, and shown on the alert it raises. Also served at /hb/ping/{uuid}/fail. */
        post: operations["postHbPingByUuidFail"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/hb/ping/{uuid}/start": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A run began: it must finish (success, fail or exit status) within the grace time. Recorded at arrival time. HEAD works the same (headers, no body). Also served at /hb/ping/{uuid}/start. */
        get: operations["getHbPingByUuidStart"];
        put?: never;
        /** A run began: it must finish (success, fail or exit status) within the grace time. A JSON body is {"timestamp": <unix seconds>} (the job’s finish time: not before the heartbeat was created, at most 5 minutes ahead; a time older than the last ping is logged but moves nothing); any other body (text/plain, e.g. the job’s output) is kept with the ping, up to 10,000 bytes, and shown on the alert it raises. Also served at /hb/ping/{uuid}/start. */
        post: operations["postHbPingByUuidStart"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/heartbeats": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List heartbeats, newest first, with their state and last ping; search with `q` (a case-insensitive part of the name or the slug). */
        get: operations["getHeartbeats"];
        put?: never;
        /** Create a heartbeat; the response carries its ping URL. */
        post: operations["postHeartbeats"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/heartbeats/{uuid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a heartbeat. */
        get: operations["getHeartbeatsByUuid"];
        put?: never;
        post?: never;
        /** Delete a heartbeat and its pings. */
        delete: operations["deleteHeartbeatsByUuid"];
        options?: never;
        head?: never;
        /** Change a heartbeat’s name, period or schedule (a period given clears the schedule; schedule null goes back to the period), time zone, slug, grace or policy, or pause it. */
        patch: operations["patchHeartbeatsByUuid"];
        trace?: never;
    };
    "/heartbeats/{uuid}/pings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Pings of a heartbeat, newest first by ping time, paged: kind (success, start, fail), exit status, run id, body, and for a finish, the duration of the run it ended: from the start with the same run id, or without run ids from the start just before it (on the same page). */
        get: operations["getHeartbeatsByUuidPings"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/integrations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List integrations, newest first (service keys are never shown again). */
        get: operations["getIntegrations"];
        put?: never;
        /** Create an integration (an inbound alert source: webhook, alertmanager, grafana or pagerduty). The response carries its service key, shown this once, and the endpoint to send events to. */
        post: operations["postIntegrations"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/integrations/{integration_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get an integration. */
        get: operations["getIntegrationsByIntegrationId"];
        put?: never;
        post?: never;
        /** Delete an integration; its key stops working. Its alerts stay. */
        delete: operations["deleteIntegrationsByIntegrationId"];
        options?: never;
        head?: never;
        /** Rename an integration or change the escalation policy of its alerts. */
        patch: operations["patchIntegrationsByIntegrationId"];
        trace?: never;
    };
    "/integrations/{integration_id}/rotate-key": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Replace the integration’s service key; the new one is in the response, shown this once, and the old one stops working at once. */
        post: operations["postIntegrationsByIntegrationIdRotateKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/integrations/alertmanager/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Prometheus Alertmanager webhook (webhook_configs, payload version 4). Each alert’s fingerprint is its dedup key: firing opens or updates, resolved resolves. */
        post: operations["postIntegrationsAlertmanagerEvents"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/integrations/grafana/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Grafana alerting webhook contact point. Each alert’s fingerprint is its dedup key: firing opens or updates, resolved resolves. */
        post: operations["postIntegrationsGrafanaEvents"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/integrations/pagerduty/v2/enqueue": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** PagerDuty Events API v2: the integration’s service key is the routing_key; trigger, acknowledge and resolve by dedup_key. Also served at /v2/enqueue, so a tool’s PagerDuty URL can simply point at Lookout. */
        post: operations["postIntegrationsPagerdutyV2Enqueue"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/integrations/webhook/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Generic webhook: {"title", "description"?, "severity"? (critical, warning, info), "dedup_key"?}. A repeated dedup key updates the unresolved alert; without one, each call opens an alert. There is no recovery signal: resolve with POST /alerts/resolve. */
        post: operations["postIntegrationsWebhookEvents"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/invitations/accept": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Accept an invitation: the token from the invitation link and a password of at least 12 characters. Sets the password and signs in (the session cookie, and the CSRF token as for POST /session). A link works once, for 7 days, on its own workspace only. */
        post: operations["postInvitationsAccept"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/maintenance-windows": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List maintenance windows, latest start first. */
        get: operations["getMaintenanceWindows"];
        put?: never;
        /** Plan a window for a monitor, a heartbeat or the whole workspace (`scope_type`, `scope_id`). Alerts raised inside it are recorded but not escalated. */
        post: operations["postMaintenanceWindows"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/maintenance-windows/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a maintenance window. */
        get: operations["getMaintenanceWindowsById"];
        put?: never;
        post?: never;
        /** Delete a maintenance window (to end an active one and keep its record: POST …/end). */
        delete: operations["deleteMaintenanceWindowsById"];
        options?: never;
        head?: never;
        /** Rename a window or move its start or end (its scope stays). The times follow the rules of a new window; an ended window cannot change (409). */
        patch: operations["patchMaintenanceWindowsById"];
        trace?: never;
    };
    "/maintenance-windows/{id}/end": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** End an active window now: its end becomes the present, and it stays listed. 409 for one that has ended or not started (delete that one instead). */
        post: operations["postMaintenanceWindowsByIdEnd"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/monitors": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List monitors, newest first, each with its `status` (up, down, paused, pending: no verdict yet, maintenance: in an active maintenance window), `last_checked_at`, `uptime_24h` and `uptime_30d` (percent of successful checks across locations in the hourly buckets of the last 24 hours / 30 days, the current hour included; null without checks), `last_response_time_ms` (the newest successful check) and `recent_checks` (the 30 newest checks across locations, oldest first). Filter with `status=down` or several at once, `status=up,pending`; search with `q` (a case-insensitive part of the name or the target). */
        get: operations["getMonitors"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/monitors/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a monitor, with its `status`, `last_checked_at`, `uptime_24h`, `uptime_30d`, `last_response_time_ms` and `recent_checks` (as in the list). */
        get: operations["getMonitorsById"];
        put?: never;
        post?: never;
        /** Delete a monitor. */
        delete: operations["deleteMonitorsById"];
        options?: never;
        head?: never;
        /** Change some fields of a monitor; the result is checked as a whole. */
        patch: operations["patchMonitorsById"];
        trace?: never;
    };
    "/monitors/{id}/check": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Check now: asks every location of the monitor to run it at once, outside its schedule. The results arrive like any other (`GET /monitors/{id}/results`, with `run_now_request_id`). */
        post: operations["postMonitorsByIdCheck"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/monitors/{id}/pause": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Stop running checks until resumed. */
        post: operations["postMonitorsByIdPause"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/monitors/{id}/results": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Check results of a monitor, newest first, from every location (or one). */
        get: operations["getMonitorsByIdResults"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/monitors/{id}/resume": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Run checks again. */
        post: operations["postMonitorsByIdResume"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/monitors/{id}/uptime": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Share of successful checks in a window (default: the last 24 hours), across locations. Null when there were no checks. Answered from hourly rollups (kept at least 35 days, longer than results) and, for the partial hours at the window’s edges, from the results; an edge hour older than the results’ retention counts whole. */
        get: operations["getMonitorsByIdUptime"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/monitors/batch": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Create up to 1000 monitors at once, all or none: `{"monitors": [<the body of POST /monitors/create>, …]}`. Every item is checked as a single create is; a 422 names every bad field of every item by its place (`monitors[3].url`) and creates nothing. A batch that would take the workspace past its plan's monitor limit is refused whole (402). The monitors are stored in one transaction; the first 100 are checked at once, the rest start on their schedule (spread over one interval). The response lists them in the order sent, and `warnings` (`monitors[i].check_interval_seconds`) says what was adjusted. */
        post: operations["postMonitorsBatch"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/monitors/batch/check": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Check a batch as `POST /monitors/batch` would (every item, and the plan monitor limit against the count now plus `in_other_batches`: monitors the caller will create in other batches) without creating anything: 200 with the number of monitors it would create and its `warnings`, or the same 422 or 402. */
        post: operations["postMonitorsBatchCheck"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/monitors/create": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Create a monitor; it is checked at once in every location, then on its schedule. An interval below the plan minimum is raised to it, and `warnings` says so. After a failed check a location checks again every `retry_interval_seconds` (default 15, at most the interval) until `failure_threshold` checks in a row failed or one passed. */
        post: operations["postMonitorsCreate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ping-key": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The workspace’s ping key for slug pings (/hb/ping/{ping_key}/{slug}, also /start, /fail, /{exit_status}; ?create=1 creates an unknown slug’s heartbeat). Made on first read. */
        get: operations["getPingKey"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ping-key/regenerate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Replace the workspace’s ping key: slug URLs with the old key stop working. */
        post: operations["postPingKeyRegenerate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/regions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The regions monitors may run from (the names `check_locations` takes), each with its health: `healthy` when an agent there is reporting results, and how many of your monitors (not paused) it checks (0 for a region you do not use). The list is short (the regions configured), so it is one page. */
        get: operations["getRegions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/session": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The signed-in user and workspace, and a CSRF token for the session. */
        get: operations["getSession"];
        put?: never;
        /** Sign in to the web app with email and password: sets the HttpOnly session cookie and returns the user and the CSRF token every write with the session must send in X-CSRF-Token. Also sets the device cookie: a browser that has signed in to an account before is held only to its own failed sign-ins for it, never locked out by guesses from elsewhere. */
        post: operations["postSession"];
        /** Sign out: ends this session and clears its cookie. */
        delete: operations["deleteSession"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/session/password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Change your password (the current one is needed). Ends every session of yours, other browsers included; this browser gets a new session cookie and CSRF token. */
        post: operations["postSessionPassword"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/settings/mail": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Where the workspace’s email goes: `transport` is `workspace` (its own SMTP server, in `settings`), `deployment` (the server the operator configured) or `none` (email fails at once, saying so). The password is never returned: `password_set` says whether one is stored. */
        get: operations["getSettingsMail"];
        /** Set the workspace’s own SMTP server, whole: `host`, `port`, `tls` (`starttls`, `tls` or `none`), `username`, `password` (write-only: omitted keeps the stored one, null removes it; the host or username cannot change without entering it again), `from_address`. Its alert email goes through it from then on. */
        put: operations["putSettingsMail"];
        post?: never;
        /** Remove the workspace’s own SMTP server (its password with it): its email goes through the deployment’s server again, if there is one. */
        delete: operations["deleteSettingsMail"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/settings/mail/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send one test email now, through the server the workspace’s alert email uses, to `to` or else the calling admin, and answer with the outcome: `ok`, `outcome` (sent or failed), `transport`, `to`, `status_code` (the SMTP reply code, if any), `error` and `would_retry` (whether an alert email would try again after this failure). Never retried. */
        post: operations["postSettingsMailTest"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/status-pages": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List status pages, newest first, each component with its live `status`. */
        get: operations["getStatusPages"];
        put?: never;
        /** Create a status page: `name`, `slug` (`[a-z0-9-]`, unique in the workspace; the page is at /status/{slug}), `custom_domain` (served once proved in DNS: see `custom_domain_records`; unique among proved domains), `visibility` (`public`, or `password` with `password`), `accent_color` (#rrggbb), `auto_draft_incidents` (a linked monitor going down opens a draft incident), and ordered `components` `[{name, description?, group?, monitor_id? | heartbeat_id?, status?}]` (neither link: set by hand, with `status`). */
        post: operations["postStatusPages"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/status-pages/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a status page, each component with its live `status`. */
        get: operations["getStatusPagesById"];
        put?: never;
        post?: never;
        /** Delete a status page and its incidents. */
        delete: operations["deleteStatusPagesById"];
        options?: never;
        head?: never;
        /** Edit a status page: each field given replaces the stored one; `components` replaces the list (a component keeps its history when sent with its `id`). A new password ends every reader’s access. */
        patch: operations["patchStatusPagesById"];
        trace?: never;
    };
    "/status-pages/{id}/custom-domain/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Check the page’s custom domain now: verified when DNS has either record of `custom_domain_records` (TXT `_lookout-challenge.<domain>` with the page’s token, or a CNAME to the workspace host). Only a verified domain is served. At most one check per page every 10 s. */
        post: operations["postStatusPagesByIdCustomDomainVerify"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/status-pages/{id}/incidents": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the page’s incidents, newest first, drafts included (`published=false`: only drafts). */
        get: operations["getStatusPagesByIdIncidents"];
        put?: never;
        /** Report an incident: `title`, `status` (investigating, identified, monitoring, resolved), `message` (its first update), `components` `{<component id>: <component status>}` (how badly each is affected); `published: false` keeps it a draft. */
        post: operations["postStatusPagesByIdIncidents"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/status-pages/{id}/incidents/{incident_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get an incident with its updates. */
        get: operations["getStatusPagesByIdIncidentsByIncidentId"];
        put?: never;
        post?: never;
        /** Delete an incident for good. */
        delete: operations["deleteStatusPagesByIdIncidentsByIncidentId"];
        options?: never;
        head?: never;
        /** Rename an incident, or write its post-mortem (Markdown, once it is resolved; null removes it). */
        patch: operations["patchStatusPagesByIdIncidentsByIncidentId"];
        trace?: never;
    };
    "/status-pages/{id}/incidents/{incident_id}/discard": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Discard a draft incident: it is closed and never shown (kept, so the outage that opened an automatic draft does not open another). 409 for a published incident. */
        post: operations["postStatusPagesByIdIncidentsByIncidentIdDiscard"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/status-pages/{id}/incidents/{incident_id}/publish": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Publish a draft incident: from now on the public page shows it. 409 when it is published already. */
        post: operations["postStatusPagesByIdIncidentsByIncidentIdPublish"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/status-pages/{id}/incidents/{incident_id}/updates": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Post an incident update: `status`, `message`, and optionally `components` (the components it now affects and how badly). Status `resolved` closes the incident. */
        post: operations["postStatusPagesByIdIncidentsByIncidentIdUpdates"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/status-pages/{id}/subscribers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the page’s email subscribers, newest first (`pending` until they follow the confirmation link). Personal data: admins only. */
        get: operations["getStatusPagesByIdSubscribers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/status-pages/{id}/subscribers/{subscriber_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete a subscriber (and any mail still queued for it). */
        delete: operations["deleteStatusPagesByIdSubscribersBySubscriberId"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The users of this workspace (admins), newest first and paged: id (for escalation policy steps), email, role, status (`active`, or `invited` until they set a password, with invitation_expires_at), created_at, last_sign_in_at, and failed_sign_ins (count of the latest failed web sign-ins in a row, since: the successful sign-in before them, last_at, last_address). */
        get: operations["getUsers"];
        put?: never;
        /** Invite a user by email with a role (admins). Returns the user and a one-time invitation_url, valid 7 days, for them to set a password; it is shown only in this response (no email is sent: pass it on). Inviting an email that has not joined yet gives a new link and replaces the old one. */
        post: operations["postUsers"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Remove a user (admins): in one step their sessions end, their API keys are revoked, any invitation is void and they leave the escalation steps that notify others too (those policies’ updated_at changes). Refused (409) for the last admin of the workspace, and for a user who is the only one some escalation step notifies: the error names those policies and steps (`details`: one per policy, with its id), to change first. */
        delete: operations["deleteUsersById"];
        options?: never;
        head?: never;
        /** Change a user’s role (admins). Their sessions and keys act with the new role from their next request. The last admin of the workspace cannot be demoted. */
        patch: operations["patchUsersById"];
        trace?: never;
    };
    "/users/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** You, as admins see you in the users list: id, email, role, status, created_at, last_sign_in_at, and failed_sign_ins (count of the latest failed web sign-ins in a row, since: the successful sign-in before them, last_at, last_address). Any role, with a session or an API key. */
        get: operations["getUsersMe"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users/me/contact-methods": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Your contact methods, oldest first (at most 10, one page), and the types you can add here (email and ntfy always; sms, telegram and pushover when the deployment has set up Twilio, a Telegram bot or a Pushover application). Escalation steps that name you reach your account email and every method you have verified. */
        get: operations["getUsersMeContactMethods"];
        put?: never;
        /** Add a contact method: `{"type": "email", "address"}`, `{"type": "sms", "phone"}` (E.164), `{"type": "telegram", "chat_id"}` (your chat with the deployment’s bot), `{"type": "ntfy", "topic", "server_url"?, "access_token"?}` or `{"type": "pushover", "user_key"}`. It is not used until verified: send a code, then enter it. */
        post: operations["postUsersMeContactMethods"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users/me/contact-methods/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Remove one of your contact methods. */
        delete: operations["deleteUsersMeContactMethodsById"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users/me/contact-methods/{id}/send-code": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send a test message carrying a 6-digit verification code through the method, once (no retries), and report the service’s answer (its status; its body to admins only). The code works for 15 minutes and 5 tries; a new one can be asked for after a minute. */
        post: operations["postUsersMeContactMethodsByIdSendCode"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users/me/contact-methods/{id}/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Enter the code sent through the method (`{"code": "123456"}`): right, it is verified and escalations use it. */
        post: operations["postUsersMeContactMethodsByIdVerify"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/workspace/connected-apps": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every user's connected apps in this workspace (admins), newest first: as GET /connected-apps, each with the user it acts as (`user_id`, `user_email`). */
        get: operations["getWorkspaceConnectedApps"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/workspace/connected-apps/{id}/revoke": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Revoke any user's connected app (admins): its grant and every access and refresh token issued under it stop working at once. */
        post: operations["postWorkspaceConnectedAppsByIdRevoke"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
};
export type webhooks = Record<string, never>;
export type components = {
    schemas: {
        Actor: {
            api_key_id: string | null;
            /** @constant */
            type: "user";
            user_id: string;
        } | {
            /** @constant */
            type: "system";
        } | {
            integration_id: string;
            /** @constant */
            type: "integration";
        } | {
            channel_id: string | null;
            recipient: string;
            /** @constant */
            type: "link";
            user_id: string | null;
            /** @enum {string} */
            via: "email" | "webhook" | "slack" | "discord" | "teams" | "mattermost" | "google_chat" | "telegram" | "matrix" | "ntfy" | "gotify" | "pushover" | "pagerduty" | "opsgenie" | "twilio_sms";
        };
        Alert: {
            acknowledged_at: string | null;
            acknowledged_by: components["schemas"]["Actor"] | null;
            cause: string;
            /** Format: date-time */
            created_at: string;
            dedup_key: string;
            description: string | null;
            escalation: {
                finished: boolean;
                next_step: number | null;
                next_step_at: string | null;
                policy_id: string;
                round: number;
                suppressed_by: {
                    name: string;
                    window_id: string;
                } | null;
            } | null;
            escalation_policy_id: string | null;
            id: string;
            resolved_at: string | null;
            resolved_by: components["schemas"]["Actor"] | null;
            /** @enum {string} */
            severity: "critical" | "warning" | "info";
            source_id: string;
            /** @enum {string} */
            source_type: "monitor" | "heartbeat" | "integration" | "region";
            /** @enum {string} */
            status: "open" | "acknowledged" | "resolved";
            title: string;
            /** Format: date-time */
            updated_at: string;
        };
        AlertDetail: {
            acknowledged_at: string | null;
            acknowledged_by: components["schemas"]["Actor"] | null;
            cause: string;
            /** Format: date-time */
            created_at: string;
            dedup_key: string;
            description: string | null;
            escalation: {
                finished: boolean;
                next_step: number | null;
                next_step_at: string | null;
                policy_id: string;
                round: number;
                suppressed_by: {
                    name: string;
                    window_id: string;
                } | null;
            } | null;
            escalation_policy_id: string | null;
            id: string;
            resolved_at: string | null;
            resolved_by: components["schemas"]["Actor"] | null;
            /** @enum {string} */
            severity: "critical" | "warning" | "info";
            source_id: string;
            /** @enum {string} */
            source_type: "monitor" | "heartbeat" | "integration" | "region";
            /** @enum {string} */
            status: "open" | "acknowledged" | "resolved";
            timeline: ({
                /** Format: date-time */
                at: string;
                /** @constant */
                type: "raised";
            } | {
                /** Format: date-time */
                at: string;
                /** @constant */
                type: "suppressed";
                window_id: string;
                window_name: string;
            } | {
                /** Format: date-time */
                at: string;
                attempt: number;
                channel_id: string | null;
                error: string | null;
                /** @enum {string} */
                event: "raised" | "acknowledged" | "resolved";
                name: string | null;
                /** @enum {string} */
                outcome: "sent" | "retrying" | "failed";
                round: number | null;
                status_code: number | null;
                step: number | null;
                to: string;
                /** @constant */
                type: "notification";
                user_id: string | null;
                /** @enum {string} */
                via: "email" | "webhook" | "slack" | "discord" | "teams" | "mattermost" | "google_chat" | "telegram" | "matrix" | "ntfy" | "gotify" | "pushover" | "pagerduty" | "opsgenie" | "twilio_sms";
            } | {
                /** Format: date-time */
                at: string;
                by: components["schemas"]["Actor"] | null;
                /** @constant */
                type: "acknowledged";
            } | {
                /** Format: date-time */
                at: string;
                by: components["schemas"]["Actor"] | null;
                /** @constant */
                type: "resolved";
            })[];
            title: string;
            /** Format: date-time */
            updated_at: string;
        };
        ApiKey: {
            /** Format: date-time */
            created_at: string;
            expires_at: string | null;
            id: string;
            /** @enum {string} */
            kind: "named" | "legacy";
            last_four: string;
            last_used_at: string | null;
            last_used_from: string | null;
            name: string;
            revoked_at: string | null;
            /** @enum {string} */
            status: "active" | "expired" | "revoked";
            user_email: string | null;
            user_id: string;
        };
        Channel: {
            config: {
                addresses: string[];
            };
            /** Format: date-time */
            created_at: string;
            id: string;
            name: string;
            /** @constant */
            type: "email";
            /** Format: date-time */
            updated_at: string;
        } | {
            config: {
                /** @default {} */
                headers: {
                    [key: string]: string;
                };
                url: string;
            };
            /** Format: date-time */
            created_at: string;
            id: string;
            name: string;
            /** @constant */
            type: "webhook";
            /** Format: date-time */
            updated_at: string;
        } | {
            config: {
                url: string;
            };
            /** Format: date-time */
            created_at: string;
            id: string;
            name: string;
            /** @constant */
            type: "slack";
            /** Format: date-time */
            updated_at: string;
        } | {
            config: {
                webhook_url: string;
            };
            /** Format: date-time */
            created_at: string;
            id: string;
            name: string;
            /** @constant */
            type: "discord";
            /** Format: date-time */
            updated_at: string;
        } | {
            config: {
                webhook_url: string;
            };
            /** Format: date-time */
            created_at: string;
            id: string;
            name: string;
            /** @constant */
            type: "teams";
            /** Format: date-time */
            updated_at: string;
        } | {
            config: {
                webhook_url: string;
            };
            /** Format: date-time */
            created_at: string;
            id: string;
            name: string;
            /** @constant */
            type: "mattermost";
            /** Format: date-time */
            updated_at: string;
        } | {
            config: {
                webhook_url: string;
            };
            /** Format: date-time */
            created_at: string;
            id: string;
            name: string;
            /** @constant */
            type: "google_chat";
            /** Format: date-time */
            updated_at: string;
        } | {
            config: {
                /** @default https://api.telegram.org */
                api_url: string;
                bot_token: string;
                chat_id: string;
            };
            /** Format: date-time */
            created_at: string;
            id: string;
            name: string;
            /** @constant */
            type: "telegram";
            /** Format: date-time */
            updated_at: string;
        } | {
            config: {
                access_token: string;
                homeserver_url: string;
                room_id: string;
            };
            /** Format: date-time */
            created_at: string;
            id: string;
            name: string;
            /** @constant */
            type: "matrix";
            /** Format: date-time */
            updated_at: string;
        } | {
            config: {
                access_token?: string;
                /** @default https://ntfy.sh */
                server_url: string;
                topic: string;
            };
            /** Format: date-time */
            created_at: string;
            id: string;
            name: string;
            /** @constant */
            type: "ntfy";
            /** Format: date-time */
            updated_at: string;
        } | {
            config: {
                app_token: string;
                server_url: string;
            };
            /** Format: date-time */
            created_at: string;
            id: string;
            name: string;
            /** @constant */
            type: "gotify";
            /** Format: date-time */
            updated_at: string;
        } | {
            config: {
                /** @default https://api.pushover.net */
                api_url: string;
                app_token: string;
                user_key: string;
            };
            /** Format: date-time */
            created_at: string;
            id: string;
            name: string;
            /** @constant */
            type: "pushover";
            /** Format: date-time */
            updated_at: string;
        } | {
            config: {
                /** @default https://events.pagerduty.com */
                api_url: string;
                routing_key: string;
            };
            /** Format: date-time */
            created_at: string;
            id: string;
            name: string;
            /** @constant */
            type: "pagerduty";
            /** Format: date-time */
            updated_at: string;
        } | {
            config: {
                api_key: string;
                /** @default https://api.opsgenie.com */
                api_url: string;
            };
            /** Format: date-time */
            created_at: string;
            id: string;
            name: string;
            /** @constant */
            type: "opsgenie";
            /** Format: date-time */
            updated_at: string;
        } | {
            config: {
                account_sid: string;
                /** @default https://api.twilio.com */
                api_url: string;
                auth_token: string;
                from: string;
                to: string[];
            };
            /** Format: date-time */
            created_at: string;
            id: string;
            name: string;
            /** @constant */
            type: "twilio_sms";
            /** Format: date-time */
            updated_at: string;
        };
        ChannelCreated: {
            config: {
                addresses: string[];
            };
            /** Format: date-time */
            created_at: string;
            id: string;
            name: string;
            signing_secret?: string;
            /** @constant */
            type: "email";
            /** Format: date-time */
            updated_at: string;
        } | {
            config: {
                /** @default {} */
                headers: {
                    [key: string]: string;
                };
                url: string;
            };
            /** Format: date-time */
            created_at: string;
            id: string;
            name: string;
            signing_secret?: string;
            /** @constant */
            type: "webhook";
            /** Format: date-time */
            updated_at: string;
        } | {
            config: {
                url: string;
            };
            /** Format: date-time */
            created_at: string;
            id: string;
            name: string;
            signing_secret?: string;
            /** @constant */
            type: "slack";
            /** Format: date-time */
            updated_at: string;
        } | {
            config: {
                webhook_url: string;
            };
            /** Format: date-time */
            created_at: string;
            id: string;
            name: string;
            signing_secret?: string;
            /** @constant */
            type: "discord";
            /** Format: date-time */
            updated_at: string;
        } | {
            config: {
                webhook_url: string;
            };
            /** Format: date-time */
            created_at: string;
            id: string;
            name: string;
            signing_secret?: string;
            /** @constant */
            type: "teams";
            /** Format: date-time */
            updated_at: string;
        } | {
            config: {
                webhook_url: string;
            };
            /** Format: date-time */
            created_at: string;
            id: string;
            name: string;
            signing_secret?: string;
            /** @constant */
            type: "mattermost";
            /** Format: date-time */
            updated_at: string;
        } | {
            config: {
                webhook_url: string;
            };
            /** Format: date-time */
            created_at: string;
            id: string;
            name: string;
            signing_secret?: string;
            /** @constant */
            type: "google_chat";
            /** Format: date-time */
            updated_at: string;
        } | {
            config: {
                /** @default https://api.telegram.org */
                api_url: string;
                bot_token: string;
                chat_id: string;
            };
            /** Format: date-time */
            created_at: string;
            id: string;
            name: string;
            signing_secret?: string;
            /** @constant */
            type: "telegram";
            /** Format: date-time */
            updated_at: string;
        } | {
            config: {
                access_token: string;
                homeserver_url: string;
                room_id: string;
            };
            /** Format: date-time */
            created_at: string;
            id: string;
            name: string;
            signing_secret?: string;
            /** @constant */
            type: "matrix";
            /** Format: date-time */
            updated_at: string;
        } | {
            config: {
                access_token?: string;
                /** @default https://ntfy.sh */
                server_url: string;
                topic: string;
            };
            /** Format: date-time */
            created_at: string;
            id: string;
            name: string;
            signing_secret?: string;
            /** @constant */
            type: "ntfy";
            /** Format: date-time */
            updated_at: string;
        } | {
            config: {
                app_token: string;
                server_url: string;
            };
            /** Format: date-time */
            created_at: string;
            id: string;
            name: string;
            signing_secret?: string;
            /** @constant */
            type: "gotify";
            /** Format: date-time */
            updated_at: string;
        } | {
            config: {
                /** @default https://api.pushover.net */
                api_url: string;
                app_token: string;
                user_key: string;
            };
            /** Format: date-time */
            created_at: string;
            id: string;
            name: string;
            signing_secret?: string;
            /** @constant */
            type: "pushover";
            /** Format: date-time */
            updated_at: string;
        } | {
            config: {
                /** @default https://events.pagerduty.com */
                api_url: string;
                routing_key: string;
            };
            /** Format: date-time */
            created_at: string;
            id: string;
            name: string;
            signing_secret?: string;
            /** @constant */
            type: "pagerduty";
            /** Format: date-time */
            updated_at: string;
        } | {
            config: {
                api_key: string;
                /** @default https://api.opsgenie.com */
                api_url: string;
            };
            /** Format: date-time */
            created_at: string;
            id: string;
            name: string;
            signing_secret?: string;
            /** @constant */
            type: "opsgenie";
            /** Format: date-time */
            updated_at: string;
        } | {
            config: {
                account_sid: string;
                /** @default https://api.twilio.com */
                api_url: string;
                auth_token: string;
                from: string;
                to: string[];
            };
            /** Format: date-time */
            created_at: string;
            id: string;
            name: string;
            signing_secret?: string;
            /** @constant */
            type: "twilio_sms";
            /** Format: date-time */
            updated_at: string;
        };
        ChannelKind: {
            config_schema: {
                [key: string]: unknown;
            };
            follows: ("acknowledged" | "resolved")[];
            label: string;
            secrets: string[];
            type: string;
        };
        CheckResult: {
            dns_records: string[];
            domain_expires_at: string | null;
            error_kind: string | null;
            error_message: string | null;
            id: string;
            instance_id: string;
            location: string;
            monitor_id: string;
            monitor_version: number;
            ok: boolean;
            /** Format: date-time */
            received_at: string;
            response_time_ms: number;
            run_now_request_id: string | null;
            /** Format: date-time */
            scheduled_at: string;
            /** Format: date-time */
            started_at: string;
            status_code: number | null;
            timings: {
                connect_ms: number;
                dns_ms: number;
                first_byte_ms: number;
                tls_ms: number;
                total_ms: number;
            } | null;
            tls_valid_to: string | null;
        };
        ConnectedApp: {
            client_id: string;
            client_name: string | null;
            client_uri: string | null;
            expires_at: string | null;
            /** Format: date-time */
            granted_at: string;
            id: string;
            redirect_uris: string[];
            scope: string;
            user_email: string | null;
            user_id: string;
        };
        ContactMethod: {
            address: string;
            code_expires_at: string | null;
            code_sent_at: string | null;
            /** Format: date-time */
            created_at: string;
            id: string;
            label: string;
            /** @constant */
            type: "email";
            verified: boolean;
            verified_at: string | null;
        } | {
            code_expires_at: string | null;
            code_sent_at: string | null;
            /** Format: date-time */
            created_at: string;
            id: string;
            label: string;
            phone: string;
            /** @constant */
            type: "sms";
            verified: boolean;
            verified_at: string | null;
        } | {
            chat_id: string;
            code_expires_at: string | null;
            code_sent_at: string | null;
            /** Format: date-time */
            created_at: string;
            id: string;
            label: string;
            /** @constant */
            type: "telegram";
            verified: boolean;
            verified_at: string | null;
        } | {
            access_token: string | null;
            code_expires_at: string | null;
            code_sent_at: string | null;
            /** Format: date-time */
            created_at: string;
            id: string;
            label: string;
            server_url: string;
            topic: string;
            /** @constant */
            type: "ntfy";
            verified: boolean;
            verified_at: string | null;
        } | {
            code_expires_at: string | null;
            code_sent_at: string | null;
            /** Format: date-time */
            created_at: string;
            id: string;
            label: string;
            /** @constant */
            type: "pushover";
            user_key: string;
            verified: boolean;
            verified_at: string | null;
        };
        Delivery: {
            alert_id: string | null;
            /** Format: date-time */
            at: string;
            attempt: number;
            channel_id: string | null;
            error: string | null;
            id: string;
            idempotency_key: string | null;
            /** @enum {string} */
            kind: "email" | "webhook" | "slack" | "discord" | "teams" | "mattermost" | "google_chat" | "telegram" | "matrix" | "ntfy" | "gotify" | "pushover" | "pagerduty" | "opsgenie" | "twilio_sms";
            /** @enum {string} */
            outcome: "sent" | "retrying" | "failed";
            permanent: boolean;
            remote_id: string | null;
            round: number | null;
            status_code: number | null;
            step: number | null;
            target: string;
            test: boolean;
            user_id: string | null;
        };
        Error: {
            error: {
                /** @enum {string} */
                code: "bad_request" | "unsupported_media_type" | "payload_too_large" | "request_timeout" | "unauthorized" | "forbidden" | "not_found" | "method_not_allowed" | "conflict" | "limit_reached" | "validation_failed" | "plan_limit_reached" | "rate_limited" | "unavailable" | "internal";
                details: {
                    field: string;
                    message: string;
                }[];
                message: string;
            };
        };
        EscalationPolicy: {
            /** Format: date-time */
            created_at: string;
            id: string;
            is_default: boolean;
            name: string;
            repeat: number;
            steps: {
                notify_channel_ids: string[];
                notify_user_ids: string[];
                wait_minutes: number;
            }[];
            /** Format: date-time */
            updated_at: string;
        };
        Heartbeat: {
            alert_id: string | null;
            /** Format: date-time */
            created_at: string;
            display_name: string;
            escalation_policy_id: string;
            grace_seconds: number;
            id: string;
            last_duration_ms: number | null;
            last_ping_at: string | null;
            next_expected_at: string | null;
            paused: boolean;
            period_seconds: number | null;
            ping_snippets: components["schemas"]["PingSnippet"][];
            ping_url: string;
            pinging_too_often: boolean;
            schedule: string | null;
            schedule_text: string;
            slug: string | null;
            start_rid: string | null;
            started_at: string | null;
            /** @enum {string} */
            state: "new" | "up" | "late" | "down" | "paused";
            timezone: string;
            /** Format: date-time */
            updated_at: string;
            version: number;
        };
        Incident: {
            automatic: boolean;
            components: {
                [key: string]: "operational" | "degraded_performance" | "partial_outage" | "major_outage" | "under_maintenance";
            };
            /** Format: date-time */
            created_at: string;
            id: string;
            page_id: string;
            postmortem: string | null;
            published: boolean;
            resolved_at: string | null;
            /** @enum {string} */
            status: "investigating" | "identified" | "monitoring" | "resolved";
            title: string;
            /** Format: date-time */
            updated_at: string;
            updates: {
                components: {
                    [key: string]: "operational" | "degraded_performance" | "partial_outage" | "major_outage" | "under_maintenance";
                };
                /** Format: date-time */
                created_at: string;
                created_by: string | null;
                id: string;
                message: string;
                /** @enum {string} */
                status: "investigating" | "identified" | "monitoring" | "resolved";
            }[];
        };
        Integration: {
            /** Format: date-time */
            created_at: string;
            endpoint: string;
            escalation_policy_id: string | null;
            id: string;
            key_last_four: string;
            /** @enum {string} */
            kind: "webhook" | "alertmanager" | "grafana" | "pagerduty";
            name: string;
            /** Format: date-time */
            updated_at: string;
        };
        MailSettings: {
            deployment_transport: boolean;
            settings: {
                from_address: string;
                host: string;
                password_set: boolean;
                port: number;
                /** @enum {string} */
                tls: "starttls" | "tls" | "none";
                /** Format: date-time */
                updated_at: string;
                username: string | null;
            } | null;
            /** @enum {string} */
            transport: "workspace" | "deployment" | "none";
        };
        MaintenanceWindow: {
            active: boolean;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            ends_at: string;
            id: string;
            name: string;
            scope_id: string | null;
            /** @enum {string} */
            scope_type: "workspace" | "monitor" | "heartbeat";
            /** Format: date-time */
            starts_at: string;
        };
        Member: {
            /** Format: date-time */
            created_at: string;
            email: string;
            failed_sign_ins: {
                count: number;
                last_address: string | null;
                last_at: string | null;
                since: string | null;
            };
            id: string;
            invitation_expires_at: string | null;
            last_sign_in_at: string | null;
            /** @enum {string} */
            role: "admin" | "member" | "viewer";
            /** @enum {string} */
            status: "active" | "invited";
        };
        Monitor: {
            auth: ({
                /** @constant */
                type: "basic";
                username: string;
            } | {
                /** @constant */
                type: "bearer";
            }) | null;
            check_interval_seconds: number;
            check_locations: string[];
            /** Format: date-time */
            created_at: string;
            display_name: string;
            dns_expected_values: string[];
            dns_record_type: ("A" | "AAAA" | "CNAME" | "MX" | "TXT" | "NS") | null;
            dns_resolver: string | null;
            domain_expiry_alert_days: number;
            escalation_policy_id: string;
            expected_status_code: number;
            failure_threshold: number;
            follow_redirects: boolean;
            http_method: string | null;
            id: string;
            last_checked_at: string | null;
            last_response_time_ms: number | null;
            /** @enum {string} */
            monitor_type: "http" | "api" | "dns" | "tcp" | "domain";
            paused: boolean;
            port: number | null;
            recent_checks: {
                /** Format: date-time */
                at: string;
                location: string;
                ok: boolean;
                response_time_ms: number | null;
            }[];
            request_body: string | null;
            request_headers: {
                [key: string]: string;
            };
            required_keyword: string | null;
            response_time_threshold_ms: number | null;
            retry_interval_seconds: number;
            ssl_cert_expiry_alert_days: number;
            ssl_cert_monitoring: boolean;
            /** @enum {string} */
            status: "up" | "down" | "paused" | "pending" | "maintenance";
            timeout_seconds: number;
            /** Format: date-time */
            updated_at: string;
            uptime_24h: number | null;
            uptime_30d: number | null;
            url: string;
            version: number;
        };
        PingKey: {
            /** Format: date-time */
            created_at: string;
            ping_key: string;
            ping_url_template: string;
        };
        PingRecorded: {
            message: string;
            /** @constant */
            status: "ok";
        };
        PingSnippet: {
            /** @enum {string} */
            kind: "crontab" | "systemd" | "kubernetes";
            text: string;
            title: string;
        };
        RegionHealth: {
            healthy: boolean;
            monitors: number;
            region: string;
            /** @enum {string} */
            status: "healthy" | "unhealthy";
        };
        Session: {
            csrf_token: string;
            /** Format: date-time */
            expires_at: string;
            user: {
                email: string;
                id: string;
                /** @enum {string} */
                role: "admin" | "member" | "viewer";
            };
            workspace: {
                id: string;
                name: string;
                plan: string;
                subdomain: string;
            };
        };
        StatusPage: {
            accent_color: string | null;
            auto_draft_incidents: boolean;
            components: components["schemas"]["StatusPageComponent"][];
            /** Format: date-time */
            created_at: string;
            custom_domain: string | null;
            custom_domain_checked_at: string | null;
            custom_domain_error: string | null;
            custom_domain_failures: number;
            custom_domain_records: {
                name: string;
                /** @enum {string} */
                type: "TXT" | "CNAME";
                value: string;
            }[];
            custom_domain_status: ("pending" | "verified" | "failed") | null;
            id: string;
            name: string;
            public_url: string;
            slug: string;
            subscriber_count: number;
            /** Format: date-time */
            updated_at: string;
            /** @enum {string} */
            visibility: "public" | "password";
        };
        StatusPageComponent: {
            description: string | null;
            group: string | null;
            heartbeat_id: string | null;
            id: string;
            monitor_id: string | null;
            name: string;
            /** @enum {string} */
            status: "operational" | "degraded_performance" | "partial_outage" | "major_outage" | "under_maintenance" | "unknown";
        };
        StatusPageSubscriber: {
            confirmed_at: string | null;
            /** Format: date-time */
            created_at: string;
            email: string;
            id: string;
            /** @enum {string} */
            status: "pending" | "confirmed";
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
};
export type $defs = Record<string, never>;
export interface operations {
    getAlerts: {
        parameters: {
            query?: {
                cursor?: string;
                limit?: number;
                since?: string;
                source_id?: string;
                source_type?: "monitor" | "heartbeat" | "integration" | "region";
                status?: string;
                until?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Alert"][];
                        next_cursor: string | null;
                    };
                };
            };
            /** @description Missing, invalid, revoked or expired key or session, or one of another workspace */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Your role does not allow this, or a session write without the CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid fields (body or query parameters), each listed in details */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed credentials from this address; retry after Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAlertsByUuid: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                uuid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AlertDetail"];
                };
            };
            /** @description Missing, invalid, revoked or expired key or session, or one of another workspace */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Your role does not allow this, or a session write without the CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such alert in this workspace */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed credentials from this address; retry after Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAlertsAcknowledge: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    UUIDs: string[];
                };
            };
        };
        responses: {
            /** @description {"acknowledged": [...], "already_acknowledged": [...], "already_resolved": [...], "not_found": [...]} */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        acknowledged: components["schemas"]["Alert"][];
                        already_acknowledged: components["schemas"]["Alert"][];
                        already_resolved: components["schemas"]["Alert"][];
                        not_found: string[];
                    };
                };
            };
            /** @description Malformed JSON, or a body that is not application/json */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid, revoked or expired key or session, or one of another workspace */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Your role does not allow this, or a session write without the CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than this endpoint accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid fields (body or query parameters), each listed in details */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed credentials from this address; retry after Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAlertsResolve: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    UUIDs: string[];
                };
            };
        };
        responses: {
            /** @description {"resolved": [...], "already_resolved": [...], "not_found": [...]} */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        already_resolved: components["schemas"]["Alert"][];
                        not_found: string[];
                        resolved: components["schemas"]["Alert"][];
                    };
                };
            };
            /** @description Malformed JSON, or a body that is not application/json */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid, revoked or expired key or session, or one of another workspace */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Your role does not allow this, or a session write without the CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than this endpoint accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid fields (body or query parameters), each listed in details */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed credentials from this address; retry after Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getApiKeys: {
        parameters: {
            query?: {
                cursor?: string;
                limit?: number;
                user_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["ApiKey"][];
                        legacy_keys: components["schemas"]["ApiKey"][];
                        next_cursor: string | null;
                    };
                };
            };
            /** @description Missing, invalid, revoked or expired key or session, or one of another workspace */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Your role does not allow this, or a session write without the CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid fields (body or query parameters), each listed in details */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed credentials from this address; retry after Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postApiKeys: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    expiry: string;
                    name: string;
                };
            };
        };
        responses: {
            /** @description The key, with its value in `key` (shown once) */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        created_at: string;
                        expires_at: string | null;
                        id: string;
                        key: string;
                        /** @enum {string} */
                        kind: "named" | "legacy";
                        last_four: string;
                        last_used_at: string | null;
                        last_used_from: string | null;
                        name: string;
                        revoked_at: string | null;
                        /** @enum {string} */
                        status: "active" | "expired" | "revoked";
                        user_email: string | null;
                        user_id: string;
                    };
                };
            };
            /** @description Malformed JSON, or a body that is not application/json */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not signed in, or the session ended or belongs to another workspace */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Called with an API key */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description You already have 25 active keys */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than this endpoint accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid fields (body or query parameters), each listed in details */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed credentials from this address; retry after Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postApiKeysByIdRevoke: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The key, now revoked */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKey"];
                };
            };
            /** @description Malformed JSON, or a body that is not application/json */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid, revoked or expired key or session, or one of another workspace */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Your role does not allow this, or a session write without the CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such key visible to you */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than this endpoint accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid fields (body or query parameters), each listed in details */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed credentials from this address; retry after Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postApiKeysLegacyRegenerate: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The new legacy key, with its value in `key` (shown once) */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        created_at: string;
                        expires_at: string | null;
                        id: string;
                        key: string;
                        /** @enum {string} */
                        kind: "named" | "legacy";
                        last_four: string;
                        last_used_at: string | null;
                        last_used_from: string | null;
                        name: string;
                        revoked_at: string | null;
                        /** @enum {string} */
                        status: "active" | "expired" | "revoked";
                        user_email: string | null;
                        user_id: string;
                    };
                };
            };
            /** @description Malformed JSON, or a body that is not application/json */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not signed in, or the session ended or belongs to another workspace */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Called with an API key */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than this endpoint accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid fields (body or query parameters), each listed in details */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed credentials from this address; retry after Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getChannelKinds: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["ChannelKind"][];
                    };
                };
            };
            /** @description Missing, invalid, revoked or expired key or session, or one of another workspace */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Your role does not allow this, or a session write without the CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed credentials from this address; retry after Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getChannels: {
        parameters: {
            query?: {
                cursor?: string;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Channel"][];
                        next_cursor: string | null;
                    };
                };
            };
            /** @description Missing, invalid, revoked or expired key or session, or one of another workspace */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Your role does not allow this, or a session write without the CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid fields (body or query parameters), each listed in details */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed credentials from this address; retry after Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postChannels: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    config: {
                        /** @description Who gets the mail. */
                        addresses: string[];
                    };
                    name: string;
                    /** @constant */
                    type: "email";
                } | {
                    config: {
                        /**
                         * @description Extra request headers. Their values are write-only: each shown as its last four characters; sent back so, it is kept.
                         * @default {}
                         */
                        headers?: {
                            [key: string]: string;
                        };
                        /** @description Where the JSON is POSTed. Write-only: shown as its origin and last four characters. */
                        url: string;
                    };
                    name: string;
                    /** @constant */
                    type: "webhook";
                } | {
                    config: {
                        /** @description The incoming webhook URL (https://hooks.slack.com/services/…). */
                        url: string;
                    };
                    name: string;
                    /** @constant */
                    type: "slack";
                } | {
                    config: {
                        /** @description The channel webhook URL (https://discord.com/api/webhooks/…). */
                        webhook_url: string;
                    };
                    name: string;
                    /** @constant */
                    type: "discord";
                } | {
                    config: {
                        /** @description The Workflows webhook URL of the channel. */
                        webhook_url: string;
                    };
                    name: string;
                    /** @constant */
                    type: "teams";
                } | {
                    config: {
                        /** @description The incoming webhook URL (https://your-mattermost/hooks/…). */
                        webhook_url: string;
                    };
                    name: string;
                    /** @constant */
                    type: "mattermost";
                } | {
                    config: {
                        /** @description The space webhook URL (https://chat.googleapis.com/v1/spaces/…/messages?key=…&token=…). */
                        webhook_url: string;
                    };
                    name: string;
                    /** @constant */
                    type: "google_chat";
                } | {
                    config: {
                        /**
                         * @description The service's address (default https://api.telegram.org).
                         * @default https://api.telegram.org
                         */
                        api_url?: string;
                        /** @description The bot token from @BotFather (123456:ABC…). */
                        bot_token: string;
                        /** @description The chat: a numeric id, or @username of a channel. */
                        chat_id: string;
                    };
                    name: string;
                    /** @constant */
                    type: "telegram";
                } | {
                    config: {
                        /** @description The access token of the account that posts. */
                        access_token: string;
                        /** @description The homeserver (https://matrix.example.org). */
                        homeserver_url: string;
                        /** @description The room id (!abc:example.org). */
                        room_id: string;
                    };
                    name: string;
                    /** @constant */
                    type: "matrix";
                } | {
                    config: {
                        /** @description An access token for a protected topic (tk_…). */
                        access_token?: string;
                        /**
                         * @description The ntfy server (default https://ntfy.sh).
                         * @default https://ntfy.sh
                         */
                        server_url?: string;
                        /** @description The topic. */
                        topic: string;
                    };
                    name: string;
                    /** @constant */
                    type: "ntfy";
                } | {
                    config: {
                        /** @description The application's token. */
                        app_token: string;
                        /** @description The Gotify server (https://gotify.example.org). */
                        server_url: string;
                    };
                    name: string;
                    /** @constant */
                    type: "gotify";
                } | {
                    config: {
                        /**
                         * @description The service's address (default https://api.pushover.net).
                         * @default https://api.pushover.net
                         */
                        api_url?: string;
                        /** @description The application's API token. */
                        app_token: string;
                        /** @description The user or group key. */
                        user_key: string;
                    };
                    name: string;
                    /** @constant */
                    type: "pushover";
                } | {
                    config: {
                        /**
                         * @description The service's address (default https://events.pagerduty.com).
                         * @default https://events.pagerduty.com
                         */
                        api_url?: string;
                        /** @description The integration (routing) key. */
                        routing_key: string;
                    };
                    name: string;
                    /** @constant */
                    type: "pagerduty";
                } | {
                    config: {
                        /** @description The API key of an API integration. */
                        api_key: string;
                        /**
                         * @description The service's address (default https://api.opsgenie.com).
                         * @default https://api.opsgenie.com
                         */
                        api_url?: string;
                    };
                    name: string;
                    /** @constant */
                    type: "opsgenie";
                } | {
                    config: {
                        /** @description The account SID. */
                        account_sid: string;
                        /**
                         * @description The service's address (default https://api.twilio.com).
                         * @default https://api.twilio.com
                         */
                        api_url?: string;
                        /** @description The auth token. */
                        auth_token: string;
                        /** @description The sending number (E.164) or a messaging service SID (MG…). */
                        from: string;
                        /** @description The recipients (E.164). */
                        to: string[];
                    };
                    name: string;
                    /** @constant */
                    type: "twilio_sms";
                };
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChannelCreated"];
                };
            };
            /** @description Malformed JSON, or a body that is not application/json */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid, revoked or expired key or session, or one of another workspace */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Your role does not allow this, or a session write without the CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than this endpoint accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid fields (body or query parameters), each listed in details */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed credentials from this address; retry after Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getChannelsById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Channel"];
                };
            };
            /** @description Missing, invalid, revoked or expired key or session, or one of another workspace */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Your role does not allow this, or a session write without the CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such channel in this workspace */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed credentials from this address; retry after Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteChannelsById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Missing, invalid, revoked or expired key or session, or one of another workspace */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Your role does not allow this, or a session write without the CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such channel in this workspace */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Still used by a policy */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed credentials from this address; retry after Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    patchChannelsById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    config?: {
                        [key: string]: unknown;
                    };
                    name?: string;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Channel"];
                };
            };
            /** @description Malformed JSON, or a body that is not application/json */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid, revoked or expired key or session, or one of another workspace */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Your role does not allow this, or a session write without the CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such channel in this workspace */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than this endpoint accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid fields (body or query parameters), each listed in details */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed credentials from this address; retry after Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getChannelsByIdDeliveries: {
        parameters: {
            query?: {
                cursor?: string;
                limit?: number;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Delivery"][];
                        next_cursor: string | null;
                    };
                };
            };
            /** @description Missing, invalid, revoked or expired key or session, or one of another workspace */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Your role does not allow this, or a session write without the CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such channel in this workspace */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid fields (body or query parameters), each listed in details */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed credentials from this address; retry after Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postChannelsByIdTest: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        attempts: components["schemas"]["Delivery"][];
                        error: string | null;
                        ok: boolean;
                        /** @enum {string} */
                        outcome: "sent" | "failed";
                        response: string | null;
                        retry_after_seconds: number | null;
                        status_code: number | null;
                        would_retry: boolean;
                    };
                };
            };
            /** @description Malformed JSON, or a body that is not application/json */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid, revoked or expired key or session, or one of another workspace */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Your role does not allow this, or a session write without the CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such channel in this workspace */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than this endpoint accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid fields (body or query parameters), each listed in details */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed credentials from this address; retry after Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getConnectedApps: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["ConnectedApp"][];
                        next_cursor: string | null;
                    };
                };
            };
            /** @description Not signed in, or the session ended or belongs to another workspace */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Called with an API key (this needs a web app session), or without the CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed credentials from this address; retry after Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postConnectedAppsByIdRevoke: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Revoked */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConnectedApp"];
                };
            };
            /** @description Malformed JSON, or a body that is not application/json */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not signed in, or the session ended or belongs to another workspace */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Called with an API key (this needs a web app session), or without the CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such connected app of yours */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than this endpoint accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid fields (body or query parameters), each listed in details */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed credentials from this address; retry after Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getEscalationPolicies: {
        parameters: {
            query?: {
                cursor?: string;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["EscalationPolicy"][];
                        next_cursor: string | null;
                    };
                };
            };
            /** @description Missing, invalid, revoked or expired key or session, or one of another workspace */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Your role does not allow this, or a session write without the CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid fields (body or query parameters), each listed in details */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed credentials from this address; retry after Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postEscalationPolicies: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @default false */
                    is_default?: boolean;
                    name: string;
                    /** @default 0 */
                    repeat?: number;
                    steps: {
                        /** @default [] */
                        notify_channel_ids?: string[];
                        /** @default [] */
                        notify_user_ids?: string[];
                        wait_minutes: number;
                    }[];
                };
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EscalationPolicy"];
                };
            };
            /** @description Malformed JSON, or a body that is not application/json */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid, revoked or expired key or session, or one of another workspace */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Your role does not allow this, or a session write without the CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than this endpoint accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid fields (body or query parameters), each listed in details */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed credentials from this address; retry after Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getEscalationPoliciesById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EscalationPolicy"];
                };
            };
            /** @description Missing, invalid, revoked or expired key or session, or one of another workspace */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Your role does not allow this, or a session write without the CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such policy in this workspace */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed credentials from this address; retry after Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteEscalationPoliciesById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Missing, invalid, revoked or expired key or session, or one of another workspace */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Your role does not allow this, or a session write without the CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such policy in this workspace */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The default, or still in use */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed credentials from this address; retry after Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    patchEscalationPoliciesById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    is_default?: boolean;
                    name?: string;
                    repeat?: number;
                    steps?: {
                        /** @default [] */
                        notify_channel_ids?: string[];
                        /** @default [] */
                        notify_user_ids?: string[];
                        wait_minutes: number;
                    }[];
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EscalationPolicy"];
                };
            };
            /** @description Malformed JSON, or a body that is not application/json */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid, revoked or expired key or session, or one of another workspace */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Your role does not allow this, or a session write without the CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such policy in this workspace */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than this endpoint accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid fields (body or query parameters), each listed in details */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed credentials from this address; retry after Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getHbPingByPingKeyBySlug: {
        parameters: {
            query?: {
                create?: "0" | "1";
                rid?: string;
            };
            header?: never;
            path: {
                ping_key: string;
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description {"message": "Ping recorded.", "status": "ok"} */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PingRecorded"];
                };
            };
            /** @description Creating the heartbeat would pass the plan’s cap */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown ping key, or unknown slug without ?create=1 */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid fields (body or query parameters), each listed in details */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Pinged too often; retry after Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postHbPingByPingKeyBySlug: {
        parameters: {
            query?: {
                create?: "0" | "1";
                rid?: string;
            };
            header?: never;
            path: {
                ping_key: string;
                slug: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    timestamp?: number;
                };
            };
        };
        responses: {
            /** @description {"message": "Ping recorded.", "status": "ok"} */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PingRecorded"];
                };
            };
            /** @description Malformed JSON, or a body that is not application/json */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Creating the heartbeat would pass the plan’s cap */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown ping key, or unknown slug without ?create=1 */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than this endpoint accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid fields (body or query parameters), each listed in details */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Pinged too often; retry after Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getHbPingByPingKeyBySlugByExitStatus: {
        parameters: {
            query?: {
                create?: "0" | "1";
                rid?: string;
            };
            header?: never;
            path: {
                exit_status: string;
                ping_key: string;
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description {"message": "Ping recorded.", "status": "ok"} */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PingRecorded"];
                };
            };
            /** @description Creating the heartbeat would pass the plan’s cap */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown ping key, or unknown slug without ?create=1 */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid fields (body or query parameters), each listed in details */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Pinged too often; retry after Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postHbPingByPingKeyBySlugByExitStatus: {
        parameters: {
            query?: {
                create?: "0" | "1";
                rid?: string;
            };
            header?: never;
            path: {
                exit_status: string;
                ping_key: string;
                slug: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    timestamp?: number;
                };
            };
        };
        responses: {
            /** @description {"message": "Ping recorded.", "status": "ok"} */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PingRecorded"];
                };
            };
            /** @description Malformed JSON, or a body that is not application/json */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Creating the heartbeat would pass the plan’s cap */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown ping key, or unknown slug without ?create=1 */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than this endpoint accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid fields (body or query parameters), each listed in details */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Pinged too often; retry after Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getHbPingByPingKeyBySlugFail: {
        parameters: {
            query?: {
                create?: "0" | "1";
                rid?: string;
            };
            header?: never;
            path: {
                ping_key: string;
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description {"message": "Ping recorded.", "status": "ok"} */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PingRecorded"];
                };
            };
            /** @description Creating the heartbeat would pass the plan’s cap */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown ping key, or unknown slug without ?create=1 */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid fields (body or query parameters), each listed in details */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Pinged too often; retry after Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postHbPingByPingKeyBySlugFail: {
        parameters: {
            query?: {
                create?: "0" | "1";
                rid?: string;
            };
            header?: never;
            path: {
                ping_key: string;
                slug: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    timestamp?: number;
                };
            };
        };
        responses: {
            /** @description {"message": "Ping recorded.", "status": "ok"} */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PingRecorded"];
                };
            };
            /** @description Malformed JSON, or a body that is not application/json */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Creating the heartbeat would pass the plan’s cap */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown ping key, or unknown slug without ?create=1 */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than this endpoint accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid fields (body or query parameters), each listed in details */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Pinged too often; retry after Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getHbPingByPingKeyBySlugStart: {
        parameters: {
            query?: {
                create?: "0" | "1";
                rid?: string;
            };
            header?: never;
            path: {
                ping_key: string;
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description {"message": "Ping recorded.", "status": "ok"} */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PingRecorded"];
                };
            };
            /** @description Creating the heartbeat would pass the plan’s cap */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown ping key, or unknown slug without ?create=1 */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid fields (body or query parameters), each listed in details */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Pinged too often; retry after Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postHbPingByPingKeyBySlugStart: {
        parameters: {
            query?: {
                create?: "0" | "1";
                rid?: string;
            };
            header?: never;
            path: {
                ping_key: string;
                slug: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    timestamp?: number;
                };
            };
        };
        responses: {
            /** @description {"message": "Ping recorded.", "status": "ok"} */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PingRecorded"];
                };
            };
            /** @description Malformed JSON, or a body that is not application/json */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Creating the heartbeat would pass the plan’s cap */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown ping key, or unknown slug without ?create=1 */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than this endpoint accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid fields (body or query parameters), each listed in details */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Pinged too often; retry after Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getHbPingByUuid: {
        parameters: {
            query?: {
                rid?: string;
            };
            header?: never;
            path: {
                uuid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description {"message": "Ping recorded.", "status": "ok"} */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PingRecorded"];
                };
            };
            /** @description Unknown uuid */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid fields (body or query parameters), each listed in details */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Pinged too often; retry after Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postHbPingByUuid: {
        parameters: {
            query?: {
                rid?: string;
            };
            header?: never;
            path: {
                uuid: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    timestamp?: number;
                };
            };
        };
        responses: {
            /** @description {"message": "Ping recorded.", "status": "ok"} */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PingRecorded"];
                };
            };
            /** @description Malformed JSON, or a body that is not application/json */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown uuid */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than this endpoint accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid fields (body or query parameters), each listed in details */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Pinged too often; retry after Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getHbPingByUuidByExitStatus: {
        parameters: {
            query?: {
                rid?: string;
            };
            header?: never;
            path: {
                exit_status: string;
                uuid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description {"message": "Ping recorded.", "status": "ok"} */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PingRecorded"];
                };
            };
            /** @description Unknown uuid */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid fields (body or query parameters), each listed in details */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Pinged too often; retry after Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postHbPingByUuidByExitStatus: {
        parameters: {
            query?: {
                rid?: string;
            };
            header?: never;
            path: {
                exit_status: string;
                uuid: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    timestamp?: number;
                };
            };
        };
        responses: {
            /** @description {"message": "Ping recorded.", "status": "ok"} */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PingRecorded"];
                };
            };
            /** @description Malformed JSON, or a body that is not application/json */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown uuid */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than this endpoint accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid fields (body or query parameters), each listed in details */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Pinged too often; retry after Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getHbPingByUuidFail: {
        parameters: {
            query?: {
                rid?: string;
            };
            header?: never;
            path: {
                uuid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description {"message": "Ping recorded.", "status": "ok"} */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PingRecorded"];
                };
            };
            /** @description Unknown uuid */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid fields (body or query parameters), each listed in details */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Pinged too often; retry after Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postHbPingByUuidFail: {
        parameters: {
            query?: {
                rid?: string;
            };
            header?: never;
            path: {
                uuid: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    timestamp?: number;
                };
            };
        };
        responses: {
            /** @description {"message": "Ping recorded.", "status": "ok"} */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PingRecorded"];
                };
            };
            /** @description Malformed JSON, or a body that is not application/json */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown uuid */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than this endpoint accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid fields (body or query parameters), each listed in details */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Pinged too often; retry after Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getHbPingByUuidStart: {
        parameters: {
            query?: {
                rid?: string;
            };
            header?: never;
            path: {
                uuid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description {"message": "Ping recorded.", "status": "ok"} */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PingRecorded"];
                };
            };
            /** @description Unknown uuid */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid fields (body or query parameters), each listed in details */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Pinged too often; retry after Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postHbPingByUuidStart: {
        parameters: {
            query?: {
                rid?: string;
            };
            header?: never;
            path: {
                uuid: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    timestamp?: number;
                };
            };
        };
        responses: {
            /** @description {"message": "Ping recorded.", "status": "ok"} */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PingRecorded"];
                };
            };
            /** @description Malformed JSON, or a body that is not application/json */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown uuid */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than this endpoint accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid fields (body or query parameters), each listed in details */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Pinged too often; retry after Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getHeartbeats: {
        parameters: {
            query?: {
                cursor?: string;
                limit?: number;
                q?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Heartbeat"][];
                        next_cursor: string | null;
                    };
                };
            };
            /** @description Missing, invalid, revoked or expired key or session, or one of another workspace */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Your role does not allow this, or a session write without the CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid fields (body or query parameters), each listed in details */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed credentials from this address; retry after Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postHeartbeats: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    display_name: string;
                    escalation_policy_id?: string;
                    grace_seconds?: number;
                    paused?: boolean;
                    period_seconds?: number;
                    /** @description Cron schedule: five fields (e.g. "0 3 * * 1-5") or @hourly, @daily, @weekly, @monthly. */
                    schedule?: string;
                    /** @description Name in slug ping URLs, /hb/ping/{ping_key}/{slug}; unique in the workspace. */
                    slug?: string;
                    /** @description IANA time zone the schedule is read in (default UTC). */
                    timezone?: string;
                };
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Heartbeat"];
                };
            };
            /** @description Malformed JSON, or a body that is not application/json */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid, revoked or expired key or session, or one of another workspace */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Your role does not allow this, or a session write without the CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than this endpoint accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid fields (body or query parameters), each listed in details */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed credentials from this address; retry after Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getHeartbeatsByUuid: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                uuid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Heartbeat"];
                };
            };
            /** @description Missing, invalid, revoked or expired key or session, or one of another workspace */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Your role does not allow this, or a session write without the CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such heartbeat in this workspace */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed credentials from this address; retry after Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteHeartbeatsByUuid: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                uuid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Missing, invalid, revoked or expired key or session, or one of another workspace */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Your role does not allow this, or a session write without the CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource in this workspace */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed credentials from this address; retry after Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    patchHeartbeatsByUuid: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                uuid: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    display_name?: string;
                    escalation_policy_id?: string;
                    grace_seconds?: number;
                    paused?: boolean;
                    period_seconds?: number;
                    schedule?: string | null;
                    slug?: string | null;
                    /** @description IANA time zone the schedule is read in (default UTC). */
                    timezone?: string;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Heartbeat"];
                };
            };
            /** @description Malformed JSON, or a body that is not application/json */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid, revoked or expired key or session, or one of another workspace */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Your role does not allow this, or a session write without the CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource in this workspace */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than this endpoint accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid fields (body or query parameters), each listed in details */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed credentials from this address; retry after Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getHeartbeatsByUuidPings: {
        parameters: {
            query?: {
                cursor?: string;
                limit?: number;
            };
            header?: never;
            path: {
                uuid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** Format: date-time */
                            at: string;
                            body: string | null;
                            duration_ms: number | null;
                            exit_status: number | null;
                            id: string;
                            /** @enum {string} */
                            kind: "success" | "start" | "fail";
                            /** Format: date-time */
                            received_at: string;
                            rid: string | null;
                            source: string | null;
                        }[];
                        next_cursor: string | null;
                    };
                };
            };
            /** @description Missing, invalid, revoked or expired key or session, or one of another workspace */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Your role does not allow this, or a session write without the CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource in this workspace */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid fields (body or query parameters), each listed in details */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed credentials from this address; retry after Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getIntegrations: {
        parameters: {
            query?: {
                cursor?: string;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Integration"][];
                        next_cursor: string | null;
                    };
                };
            };
            /** @description Missing, invalid, revoked or expired key or session, or one of another workspace */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Your role does not allow this, or a session write without the CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid fields (body or query parameters), each listed in details */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed credentials from this address; retry after Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postIntegrations: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    escalation_policy_id?: string | null;
                    /** @enum {string} */
                    kind: "webhook" | "alertmanager" | "grafana" | "pagerduty";
                    name: string;
                };
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        created_at: string;
                        endpoint: string;
                        escalation_policy_id: string | null;
                        id: string;
                        key_last_four: string;
                        /** @enum {string} */
                        kind: "webhook" | "alertmanager" | "grafana" | "pagerduty";
                        name: string;
                        service_key: string;
                        /** Format: date-time */
                        updated_at: string;
                    };
                };
            };
            /** @description Malformed JSON, or a body that is not application/json */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid, revoked or expired key or session, or one of another workspace */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Your role does not allow this, or a session write without the CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than this endpoint accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid fields (body or query parameters), each listed in details */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed credentials from this address; retry after Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getIntegrationsByIntegrationId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                integration_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Integration"];
                };
            };
            /** @description Missing, invalid, revoked or expired key or session, or one of another workspace */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Your role does not allow this, or a session write without the CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such integration in this workspace */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed credentials from this address; retry after Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteIntegrationsByIntegrationId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                integration_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Missing, invalid, revoked or expired key or session, or one of another workspace */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Your role does not allow this, or a session write without the CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource in this workspace */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed credentials from this address; retry after Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    patchIntegrationsByIntegrationId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                integration_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    escalation_policy_id?: string | null;
                    name?: string;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Integration"];
                };
            };
            /** @description Malformed JSON, or a body that is not application/json */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid, revoked or expired key or session, or one of another workspace */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Your role does not allow this, or a session write without the CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource in this workspace */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than this endpoint accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid fields (body or query parameters), each listed in details */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed credentials from this address; retry after Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postIntegrationsByIntegrationIdRotateKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                integration_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        created_at: string;
                        endpoint: string;
                        escalation_policy_id: string | null;
                        id: string;
                        key_last_four: string;
                        /** @enum {string} */
                        kind: "webhook" | "alertmanager" | "grafana" | "pagerduty";
                        name: string;
                        service_key: string;
                        /** Format: date-time */
                        updated_at: string;
                    };
                };
            };
            /** @description Malformed JSON, or a body that is not application/json */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid, revoked or expired key or session, or one of another workspace */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Your role does not allow this, or a session write without the CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource in this workspace */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than this endpoint accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid fields (body or query parameters), each listed in details */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed credentials from this address; retry after Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postIntegrationsAlertmanagerEvents: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    alerts: ({
                        annotations?: {
                            [key: string]: string;
                        };
                        endsAt?: string;
                        fingerprint: string;
                        generatorURL?: string;
                        labels: {
                            [key: string]: string;
                        };
                        startsAt?: string;
                        /** @enum {string} */
                        status: "firing" | "resolved";
                    } & {
                        [key: string]: unknown;
                    })[];
                    externalURL?: string;
                    receiver?: string;
                    /** @enum {string} */
                    status: "firing" | "resolved";
                    /** @constant */
                    version: "4";
                } & {
                    [key: string]: unknown;
                };
            };
        };
        responses: {
            /** @description {"status": "ok", "events": [{"action", "dedup_key", "outcome", "alert_id"}]} */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        events: {
                            /** @enum {string} */
                            action: "trigger" | "acknowledge" | "resolve";
                            alert_id: string | null;
                            dedup_key: string;
                            /** @enum {string} */
                            outcome: "created" | "updated" | "resolved" | "acknowledged" | "already_acknowledged" | "not_open";
                        }[];
                        /** @constant */
                        status: "ok";
                    };
                };
            };
            /** @description Malformed JSON, or a body that is not application/json */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No service key, an unknown one, or one of another kind of integration */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than this endpoint accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid fields (body or query parameters), each listed in details */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed credentials from this address; retry after Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postIntegrationsGrafanaEvents: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    alerts: ({
                        annotations?: {
                            [key: string]: string;
                        };
                        dashboardURL?: string;
                        endsAt?: string;
                        fingerprint: string;
                        generatorURL?: string;
                        labels: {
                            [key: string]: string;
                        };
                        panelURL?: string;
                        silenceURL?: string;
                        startsAt?: string;
                        /** @enum {string} */
                        status: "firing" | "resolved";
                        valueString?: string;
                    } & {
                        [key: string]: unknown;
                    })[];
                    externalURL?: string;
                    receiver?: string;
                    /** @enum {string} */
                    status: "firing" | "resolved";
                } & {
                    [key: string]: unknown;
                };
            };
        };
        responses: {
            /** @description {"status": "ok", "events": [{"action", "dedup_key", "outcome", "alert_id"}]} */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        events: {
                            /** @enum {string} */
                            action: "trigger" | "acknowledge" | "resolve";
                            alert_id: string | null;
                            dedup_key: string;
                            /** @enum {string} */
                            outcome: "created" | "updated" | "resolved" | "acknowledged" | "already_acknowledged" | "not_open";
                        }[];
                        /** @constant */
                        status: "ok";
                    };
                };
            };
            /** @description Malformed JSON, or a body that is not application/json */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No service key, an unknown one, or one of another kind of integration */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than this endpoint accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid fields (body or query parameters), each listed in details */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed credentials from this address; retry after Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postIntegrationsPagerdutyV2Enqueue: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    client?: string;
                    client_url?: string;
                    dedup_key?: string;
                    /** @enum {string} */
                    event_action: "trigger" | "acknowledge" | "resolve";
                    payload?: {
                        class?: string;
                        component?: string;
                        custom_details?: unknown;
                        group?: string;
                        /** @enum {string} */
                        severity: "critical" | "error" | "warning" | "info";
                        source: string;
                        summary: string;
                        timestamp?: string;
                    } & {
                        [key: string]: unknown;
                    };
                    routing_key: string;
                } & {
                    [key: string]: unknown;
                };
            };
        };
        responses: {
            /** @description {"status": "success", "message": "Event processed", "dedup_key": "..."} */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        dedup_key: string;
                        message: string;
                        /** @constant */
                        status: "success";
                    };
                };
            };
            /** @description Malformed JSON, or a body that is not application/json */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No routing_key, or an unknown one (checked before the rest of the event) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than this endpoint accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid fields (body or query parameters), each listed in details */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed credentials from this address; retry after Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postIntegrationsWebhookEvents: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    dedup_key?: string;
                    description?: string | null;
                    /** @enum {string} */
                    severity?: "critical" | "warning" | "info";
                    title: string;
                };
            };
        };
        responses: {
            /** @description {"status": "ok", "events": [{"action", "dedup_key", "outcome", "alert_id"}]} */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        events: {
                            /** @enum {string} */
                            action: "trigger" | "acknowledge" | "resolve";
                            alert_id: string | null;
                            dedup_key: string;
                            /** @enum {string} */
                            outcome: "created" | "updated" | "resolved" | "acknowledged" | "already_acknowledged" | "not_open";
                        }[];
                        /** @constant */
                        status: "ok";
                    };
                };
            };
            /** @description Malformed JSON, or a body that is not application/json */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No service key, an unknown one, or one of another kind of integration */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than this endpoint accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid fields (body or query parameters), each listed in details */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed credentials from this address; retry after Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postInvitationsAccept: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    password: string;
                    token: string;
                };
            };
        };
        responses: {
            /** @description Joined and signed in */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Session"];
                };
            };
            /** @description Malformed JSON, or a body that is not application/json */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown link, or one of another workspace */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The link was used already or has expired */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than this endpoint accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Password too short */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getMaintenanceWindows: {
        parameters: {
            query?: {
                cursor?: string;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["MaintenanceWindow"][];
                        next_cursor: string | null;
                    };
                };
            };
            /** @description Missing, invalid, revoked or expired key or session, or one of another workspace */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Your role does not allow this, or a session write without the CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid fields (body or query parameters), each listed in details */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed credentials from this address; retry after Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postMaintenanceWindows: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: date-time */
                    ends_at: string;
                    name: string;
                    scope_id?: string;
                    /** @enum {string} */
                    scope_type: "workspace" | "monitor" | "heartbeat";
                    /** Format: date-time */
                    starts_at: string;
                };
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MaintenanceWindow"];
                };
            };
            /** @description Malformed JSON, or a body that is not application/json */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid, revoked or expired key or session, or one of another workspace */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Your role does not allow this, or a session write without the CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than this endpoint accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid fields (body or query parameters), each listed in details */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed credentials from this address; retry after Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getMaintenanceWindowsById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MaintenanceWindow"];
                };
            };
            /** @description Missing, invalid, revoked or expired key or session, or one of another workspace */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Your role does not allow this, or a session write without the CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such window in this workspace */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed credentials from this address; retry after Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteMaintenanceWindowsById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Missing, invalid, revoked or expired key or session, or one of another workspace */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Your role does not allow this, or a session write without the CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such window in this workspace */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed credentials from this address; retry after Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    patchMaintenanceWindowsById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: date-time */
                    ends_at?: string;
                    name?: string;
                    /** Format: date-time */
                    starts_at?: string;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MaintenanceWindow"];
                };
            };
            /** @description Malformed JSON, or a body that is not application/json */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid, revoked or expired key or session, or one of another workspace */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Your role does not allow this, or a session write without the CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such window in this workspace */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The window has ended */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than this endpoint accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid fields (body or query parameters), each listed in details */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed credentials from this address; retry after Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postMaintenanceWindowsByIdEnd: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MaintenanceWindow"];
                };
            };
            /** @description Malformed JSON, or a body that is not application/json */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid, revoked or expired key or session, or one of another workspace */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Your role does not allow this, or a session write without the CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such window in this workspace */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not active */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than this endpoint accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid fields (body or query parameters), each listed in details */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed credentials from this address; retry after Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getMonitors: {
        parameters: {
            query?: {
                cursor?: string;
                limit?: number;
                monitor_type?: "http" | "api" | "dns" | "tcp" | "domain";
                paused?: "true" | "false";
                q?: string;
                search?: string;
                status?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Monitor"][];
                        next_cursor: string | null;
                    };
                };
            };
            /** @description Missing, invalid, revoked or expired key or session, or one of another workspace */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Your role does not allow this, or a session write without the CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid fields (body or query parameters), each listed in details */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed credentials from this address; retry after Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getMonitorsById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Monitor"];
                };
            };
            /** @description Missing, invalid, revoked or expired key or session, or one of another workspace */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Your role does not allow this, or a session write without the CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such monitor in this workspace */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed credentials from this address; retry after Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteMonitorsById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Missing, invalid, revoked or expired key or session, or one of another workspace */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Your role does not allow this, or a session write without the CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such monitor in this workspace */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed credentials from this address; retry after Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    patchMonitorsById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    auth?: ({
                        password: string;
                        /** @constant */
                        type: "basic";
                        username: string;
                    } | {
                        token: string;
                        /** @constant */
                        type: "bearer";
                    }) | null;
                    check_interval_seconds?: number;
                    check_locations?: string[];
                    display_name?: string;
                    dns_expected_values?: string[];
                    /** @enum {string} */
                    dns_record_type?: "A" | "AAAA" | "CNAME" | "MX" | "TXT" | "NS";
                    dns_resolver?: string | null;
                    domain_expiry_alert_days?: number;
                    escalation_policy_id?: string;
                    expected_status_code?: number;
                    failure_threshold?: number;
                    follow_redirects?: boolean;
                    /** @enum {string} */
                    http_method?: "GET" | "HEAD" | "POST" | "PUT" | "PATCH" | "DELETE" | "OPTIONS";
                    /** @enum {string} */
                    monitor_type?: "http" | "api" | "dns" | "tcp" | "domain";
                    paused?: boolean;
                    port?: number;
                    request_body?: string | null;
                    request_headers?: {
                        [key: string]: string;
                    };
                    required_keyword?: string | null;
                    response_time_threshold_ms?: number | null;
                    retry_interval_seconds?: number;
                    ssl_cert_expiry_alert_days?: number;
                    ssl_cert_monitoring?: boolean;
                    timeout_seconds?: number;
                    url?: string;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        auth: ({
                            /** @constant */
                            type: "basic";
                            username: string;
                        } | {
                            /** @constant */
                            type: "bearer";
                        }) | null;
                        check_interval_seconds: number;
                        check_locations: string[];
                        /** Format: date-time */
                        created_at: string;
                        display_name: string;
                        dns_expected_values: string[];
                        dns_record_type: ("A" | "AAAA" | "CNAME" | "MX" | "TXT" | "NS") | null;
                        dns_resolver: string | null;
                        domain_expiry_alert_days: number;
                        escalation_policy_id: string;
                        expected_status_code: number;
                        failure_threshold: number;
                        follow_redirects: boolean;
                        http_method: string | null;
                        id: string;
                        last_checked_at: string | null;
                        last_response_time_ms: number | null;
                        /** @enum {string} */
                        monitor_type: "http" | "api" | "dns" | "tcp" | "domain";
                        paused: boolean;
                        port: number | null;
                        recent_checks: {
                            /** Format: date-time */
                            at: string;
                            location: string;
                            ok: boolean;
                            response_time_ms: number | null;
                        }[];
                        request_body: string | null;
                        request_headers: {
                            [key: string]: string;
                        };
                        required_keyword: string | null;
                        response_time_threshold_ms: number | null;
                        retry_interval_seconds: number;
                        ssl_cert_expiry_alert_days: number;
                        ssl_cert_monitoring: boolean;
                        /** @enum {string} */
                        status: "up" | "down" | "paused" | "pending" | "maintenance";
                        timeout_seconds: number;
                        /** Format: date-time */
                        updated_at: string;
                        uptime_24h: number | null;
                        uptime_30d: number | null;
                        url: string;
                        version: number;
                        warnings: {
                            field: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Malformed JSON, or a body that is not application/json */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid, revoked or expired key or session, or one of another workspace */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Your role does not allow this, or a session write without the CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such monitor in this workspace */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Changed concurrently; retry */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than this endpoint accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid fields (body or query parameters), each listed in details */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed credentials from this address; retry after Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postMonitorsByIdCheck: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Requested: `{"requested": [locations]}` */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        requested: string[];
                    };
                };
            };
            /** @description Malformed JSON, or a body that is not application/json */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid, revoked or expired key or session, or one of another workspace */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Your role does not allow this, or a session write without the CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such monitor in this workspace */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The monitor is paused */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than this endpoint accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid fields (body or query parameters), each listed in details */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed credentials from this address; retry after Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postMonitorsByIdPause: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Monitor"];
                };
            };
            /** @description Malformed JSON, or a body that is not application/json */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid, revoked or expired key or session, or one of another workspace */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Your role does not allow this, or a session write without the CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such monitor in this workspace */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than this endpoint accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid fields (body or query parameters), each listed in details */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed credentials from this address; retry after Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getMonitorsByIdResults: {
        parameters: {
            query?: {
                cursor?: string;
                limit?: number;
                location?: string;
                since?: string;
                until?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["CheckResult"][];
                        next_cursor: string | null;
                    };
                };
            };
            /** @description Missing, invalid, revoked or expired key or session, or one of another workspace */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Your role does not allow this, or a session write without the CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource in this workspace */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid fields (body or query parameters), each listed in details */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed credentials from this address; retry after Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postMonitorsByIdResume: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Monitor"];
                };
            };
            /** @description Malformed JSON, or a body that is not application/json */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid, revoked or expired key or session, or one of another workspace */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Your role does not allow this, or a session write without the CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such monitor in this workspace */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than this endpoint accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid fields (body or query parameters), each listed in details */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed credentials from this address; retry after Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getMonitorsByIdUptime: {
        parameters: {
            query?: {
                since?: string;
                until?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        monitor_id: string;
                        /** Format: date-time */
                        since: string;
                        successful_checks: number;
                        total_checks: number;
                        /** Format: date-time */
                        until: string;
                        uptime_percentage: number | null;
                    };
                };
            };
            /** @description Missing, invalid, revoked or expired key or session, or one of another workspace */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Your role does not allow this, or a session write without the CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource in this workspace */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid fields (body or query parameters), each listed in details */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed credentials from this address; retry after Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postMonitorsBatch: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    monitors: {
                        auth?: ({
                            password: string;
                            /** @constant */
                            type: "basic";
                            username: string;
                        } | {
                            token: string;
                            /** @constant */
                            type: "bearer";
                        }) | null;
                        check_interval_seconds?: number;
                        check_locations?: string[];
                        display_name: string;
                        dns_expected_values?: string[];
                        /** @enum {string} */
                        dns_record_type?: "A" | "AAAA" | "CNAME" | "MX" | "TXT" | "NS";
                        dns_resolver?: string | null;
                        domain_expiry_alert_days?: number;
                        escalation_policy_id?: string;
                        expected_status_code?: number;
                        failure_threshold?: number;
                        follow_redirects?: boolean;
                        /** @enum {string} */
                        http_method?: "GET" | "HEAD" | "POST" | "PUT" | "PATCH" | "DELETE" | "OPTIONS";
                        /** @enum {string} */
                        monitor_type: "http" | "api" | "dns" | "tcp" | "domain";
                        paused?: boolean;
                        port?: number;
                        request_body?: string | null;
                        request_headers?: {
                            [key: string]: string;
                        };
                        required_keyword?: string | null;
                        response_time_threshold_ms?: number | null;
                        retry_interval_seconds?: number;
                        ssl_cert_expiry_alert_days?: number;
                        ssl_cert_monitoring?: boolean;
                        timeout_seconds?: number;
                        url: string;
                    }[];
                };
            };
        };
        responses: {
            /** @description The monitors, in the order sent, with `warnings` */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Monitor"][];
                        warnings: {
                            field: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Malformed JSON, or a body that is not application/json */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid, revoked or expired key or session, or one of another workspace */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The batch does not fit under the plan monitor limit: nothing was created */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Your role does not allow this, or a session write without the CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than this endpoint accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid fields (body or query parameters), each listed in details */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed credentials from this address; retry after Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postMonitorsBatchCheck: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    in_other_batches?: number;
                    monitors: {
                        auth?: ({
                            password: string;
                            /** @constant */
                            type: "basic";
                            username: string;
                        } | {
                            token: string;
                            /** @constant */
                            type: "bearer";
                        }) | null;
                        check_interval_seconds?: number;
                        check_locations?: string[];
                        display_name: string;
                        dns_expected_values?: string[];
                        /** @enum {string} */
                        dns_record_type?: "A" | "AAAA" | "CNAME" | "MX" | "TXT" | "NS";
                        dns_resolver?: string | null;
                        domain_expiry_alert_days?: number;
                        escalation_policy_id?: string;
                        expected_status_code?: number;
                        failure_threshold?: number;
                        follow_redirects?: boolean;
                        /** @enum {string} */
                        http_method?: "GET" | "HEAD" | "POST" | "PUT" | "PATCH" | "DELETE" | "OPTIONS";
                        /** @enum {string} */
                        monitor_type: "http" | "api" | "dns" | "tcp" | "domain";
                        paused?: boolean;
                        port?: number;
                        request_body?: string | null;
                        request_headers?: {
                            [key: string]: string;
                        };
                        required_keyword?: string | null;
                        response_time_threshold_ms?: number | null;
                        retry_interval_seconds?: number;
                        ssl_cert_expiry_alert_days?: number;
                        ssl_cert_monitoring?: boolean;
                        timeout_seconds?: number;
                        url: string;
                    }[];
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        count: number;
                        warnings: {
                            field: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Malformed JSON, or a body that is not application/json */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid, revoked or expired key or session, or one of another workspace */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The batch does not fit under the plan monitor limit */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Your role does not allow this, or a session write without the CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than this endpoint accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid fields (body or query parameters), each listed in details */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed credentials from this address; retry after Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postMonitorsCreate: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    auth?: ({
                        password: string;
                        /** @constant */
                        type: "basic";
                        username: string;
                    } | {
                        token: string;
                        /** @constant */
                        type: "bearer";
                    }) | null;
                    check_interval_seconds?: number;
                    check_locations?: string[];
                    display_name: string;
                    dns_expected_values?: string[];
                    /** @enum {string} */
                    dns_record_type?: "A" | "AAAA" | "CNAME" | "MX" | "TXT" | "NS";
                    dns_resolver?: string | null;
                    domain_expiry_alert_days?: number;
                    escalation_policy_id?: string;
                    expected_status_code?: number;
                    failure_threshold?: number;
                    follow_redirects?: boolean;
                    /** @enum {string} */
                    http_method?: "GET" | "HEAD" | "POST" | "PUT" | "PATCH" | "DELETE" | "OPTIONS";
                    /** @enum {string} */
                    monitor_type: "http" | "api" | "dns" | "tcp" | "domain";
                    paused?: boolean;
                    port?: number;
                    request_body?: string | null;
                    request_headers?: {
                        [key: string]: string;
                    };
                    required_keyword?: string | null;
                    response_time_threshold_ms?: number | null;
                    retry_interval_seconds?: number;
                    ssl_cert_expiry_alert_days?: number;
                    ssl_cert_monitoring?: boolean;
                    timeout_seconds?: number;
                    url: string;
                };
            };
        };
        responses: {
            /** @description The monitor, with `warnings` */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        auth: ({
                            /** @constant */
                            type: "basic";
                            username: string;
                        } | {
                            /** @constant */
                            type: "bearer";
                        }) | null;
                        check_interval_seconds: number;
                        check_locations: string[];
                        /** Format: date-time */
                        created_at: string;
                        display_name: string;
                        dns_expected_values: string[];
                        dns_record_type: ("A" | "AAAA" | "CNAME" | "MX" | "TXT" | "NS") | null;
                        dns_resolver: string | null;
                        domain_expiry_alert_days: number;
                        escalation_policy_id: string;
                        expected_status_code: number;
                        failure_threshold: number;
                        follow_redirects: boolean;
                        http_method: string | null;
                        id: string;
                        last_checked_at: string | null;
                        last_response_time_ms: number | null;
                        /** @enum {string} */
                        monitor_type: "http" | "api" | "dns" | "tcp" | "domain";
                        paused: boolean;
                        port: number | null;
                        recent_checks: {
                            /** Format: date-time */
                            at: string;
                            location: string;
                            ok: boolean;
                            response_time_ms: number | null;
                        }[];
                        request_body: string | null;
                        request_headers: {
                            [key: string]: string;
                        };
                        required_keyword: string | null;
                        response_time_threshold_ms: number | null;
                        retry_interval_seconds: number;
                        ssl_cert_expiry_alert_days: number;
                        ssl_cert_monitoring: boolean;
                        /** @enum {string} */
                        status: "up" | "down" | "paused" | "pending" | "maintenance";
                        timeout_seconds: number;
                        /** Format: date-time */
                        updated_at: string;
                        uptime_24h: number | null;
                        uptime_30d: number | null;
                        url: string;
                        version: number;
                        warnings: {
                            field: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Malformed JSON, or a body that is not application/json */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid, revoked or expired key or session, or one of another workspace */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Plan monitor limit reached: upgrade to add more */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Your role does not allow this, or a session write without the CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than this endpoint accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid fields (body or query parameters), each listed in details */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed credentials from this address; retry after Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getPingKey: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PingKey"];
                };
            };
            /** @description Missing, invalid, revoked or expired key or session, or one of another workspace */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Your role does not allow this, or a session write without the CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed credentials from this address; retry after Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postPingKeyRegenerate: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PingKey"];
                };
            };
            /** @description Malformed JSON, or a body that is not application/json */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid, revoked or expired key or session, or one of another workspace */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Your role does not allow this, or a session write without the CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than this endpoint accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid fields (body or query parameters), each listed in details */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed credentials from this address; retry after Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getRegions: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["RegionHealth"][];
                        next_cursor: string | null;
                    };
                };
            };
            /** @description Missing, invalid, revoked or expired key or session, or one of another workspace */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Your role does not allow this, or a session write without the CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed credentials from this address; retry after Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getSession: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Session"];
                };
            };
            /** @description Not signed in, or the session ended or belongs to another workspace */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Called with an API key (this needs a web app session), or without the CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed credentials from this address; retry after Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postSession: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    email: string;
                    password: string;
                };
            };
        };
        responses: {
            /** @description Signed in */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Session"];
                };
            };
            /** @description Malformed JSON, or a body that is not application/json */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Email or password is incorrect */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No workspace at this address */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than this endpoint accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid fields (body or query parameters), each listed in details */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins: from this browser (one that signed in to the account before), or, for other browsers, from this address, to this account from this address, or to this account */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteSession: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Not signed in, or the session ended or belongs to another workspace */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Called with an API key (this needs a web app session), or without the CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed credentials from this address; retry after Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postSessionPassword: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    current_password: string;
                    new_password: string;
                };
            };
        };
        responses: {
            /** @description Changed; a new session */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Session"];
                };
            };
            /** @description Malformed JSON, or a body that is not application/json */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not signed in, or the session ended or belongs to another workspace */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Called with an API key (this needs a web app session), or without the CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than this endpoint accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Wrong current password, or a new one too short */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed credentials from this address; retry after Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getSettingsMail: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MailSettings"];
                };
            };
            /** @description Missing, invalid, revoked or expired key or session, or one of another workspace */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Your role does not allow this, or a session write without the CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed credentials from this address; retry after Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    putSettingsMail: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    from_address: string;
                    host: string;
                    /** @description Write-only. Omitted: the stored one is kept; null: removed. */
                    password?: string | null;
                    port: number;
                    /**
                     * @description starttls (587, 25; required), tls (465) or none
                     * @enum {string}
                     */
                    tls: "starttls" | "tls" | "none";
                    username?: string | null;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MailSettings"];
                };
            };
            /** @description Malformed JSON, or a body that is not application/json */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid, revoked or expired key or session, or one of another workspace */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Your role does not allow this, or a session write without the CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than this endpoint accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid fields (body or query parameters), each listed in details */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed credentials from this address; retry after Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteSettingsMail: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Missing, invalid, revoked or expired key or session, or one of another workspace */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Your role does not allow this, or a session write without the CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed credentials from this address; retry after Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postSettingsMailTest: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: email
                     * @description Default: the calling admin’s own address.
                     */
                    to?: string;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string | null;
                        ok: boolean;
                        /** @enum {string} */
                        outcome: "sent" | "failed";
                        status_code: number | null;
                        to: string;
                        /** @enum {string} */
                        transport: "workspace" | "deployment" | "none";
                        would_retry: boolean;
                    };
                };
            };
            /** @description Malformed JSON, or a body that is not application/json */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid, revoked or expired key or session, or one of another workspace */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Your role does not allow this, or a session write without the CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than this endpoint accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid fields (body or query parameters), each listed in details */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed credentials from this address; retry after Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getStatusPages: {
        parameters: {
            query?: {
                cursor?: string;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["StatusPage"][];
                        next_cursor: string | null;
                    };
                };
            };
            /** @description Missing, invalid, revoked or expired key or session, or one of another workspace */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Your role does not allow this, or a session write without the CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid fields (body or query parameters), each listed in details */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed credentials from this address; retry after Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postStatusPages: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    accent_color?: string | null;
                    /** @default false */
                    auto_draft_incidents?: boolean;
                    /** @default [] */
                    components?: {
                        description?: string | null;
                        group?: string | null;
                        heartbeat_id?: string | null;
                        id?: string;
                        monitor_id?: string | null;
                        name: string;
                        /** @enum {string} */
                        status?: "operational" | "degraded_performance" | "partial_outage" | "major_outage" | "under_maintenance";
                    }[];
                    custom_domain?: string | null;
                    name: string;
                    password?: string;
                    slug: string;
                    /**
                     * @default public
                     * @enum {string}
                     */
                    visibility?: "public" | "password";
                };
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["StatusPage"];
                };
            };
            /** @description Malformed JSON, or a body that is not application/json */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid, revoked or expired key or session, or one of another workspace */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Plan status page limit reached: upgrade to add more */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Your role does not allow this, or a session write without the CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The slug is taken in this workspace, or another page has proved the custom domain */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than this endpoint accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid fields (body or query parameters), each listed in details */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed credentials from this address; retry after Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getStatusPagesById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["StatusPage"];
                };
            };
            /** @description Missing, invalid, revoked or expired key or session, or one of another workspace */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Your role does not allow this, or a session write without the CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such status page in this workspace */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed credentials from this address; retry after Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteStatusPagesById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Missing, invalid, revoked or expired key or session, or one of another workspace */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Your role does not allow this, or a session write without the CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such status page in this workspace */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed credentials from this address; retry after Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    patchStatusPagesById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    accent_color?: string | null;
                    auto_draft_incidents?: boolean;
                    components?: {
                        description?: string | null;
                        group?: string | null;
                        heartbeat_id?: string | null;
                        id?: string;
                        monitor_id?: string | null;
                        name: string;
                        /** @enum {string} */
                        status?: "operational" | "degraded_performance" | "partial_outage" | "major_outage" | "under_maintenance";
                    }[];
                    custom_domain?: string | null;
                    name?: string;
                    password?: string;
                    slug?: string;
                    /** @enum {string} */
                    visibility?: "public" | "password";
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["StatusPage"];
                };
            };
            /** @description Malformed JSON, or a body that is not application/json */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid, revoked or expired key or session, or one of another workspace */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Your role does not allow this, or a session write without the CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such status page in this workspace */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The slug is taken in this workspace, or another page has proved the custom domain */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than this endpoint accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid fields (body or query parameters), each listed in details */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed credentials from this address; retry after Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postStatusPagesByIdCustomDomainVerify: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["StatusPage"];
                };
            };
            /** @description Malformed JSON, or a body that is not application/json */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid, revoked or expired key or session, or one of another workspace */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Your role does not allow this, or a session write without the CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such status page in this workspace */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than this endpoint accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The page has no custom domain */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Checked less than 10 s ago */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getStatusPagesByIdIncidents: {
        parameters: {
            query?: {
                cursor?: string;
                limit?: number;
                published?: "true" | "false";
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Incident"][];
                        next_cursor: string | null;
                    };
                };
            };
            /** @description Missing, invalid, revoked or expired key or session, or one of another workspace */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Your role does not allow this, or a session write without the CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such status page in this workspace */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid fields (body or query parameters), each listed in details */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed credentials from this address; retry after Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postStatusPagesByIdIncidents: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @default {} */
                    components?: {
                        [key: string]: "operational" | "degraded_performance" | "partial_outage" | "major_outage" | "under_maintenance";
                    };
                    message: string;
                    /** @default true */
                    published?: boolean;
                    /**
                     * @default investigating
                     * @enum {string}
                     */
                    status?: "investigating" | "identified" | "monitoring" | "resolved";
                    title: string;
                };
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Incident"];
                };
            };
            /** @description Malformed JSON, or a body that is not application/json */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid, revoked or expired key or session, or one of another workspace */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Your role does not allow this, or a session write without the CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such status page in this workspace */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than this endpoint accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid fields (body or query parameters), each listed in details */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed credentials from this address; retry after Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getStatusPagesByIdIncidentsByIncidentId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                incident_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Incident"];
                };
            };
            /** @description Missing, invalid, revoked or expired key or session, or one of another workspace */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Your role does not allow this, or a session write without the CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such status page or incident in this workspace */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed credentials from this address; retry after Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteStatusPagesByIdIncidentsByIncidentId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                incident_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Missing, invalid, revoked or expired key or session, or one of another workspace */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Your role does not allow this, or a session write without the CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such status page or incident in this workspace */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed credentials from this address; retry after Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    patchStatusPagesByIdIncidentsByIncidentId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                incident_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    postmortem?: string | null;
                    title?: string;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Incident"];
                };
            };
            /** @description Malformed JSON, or a body that is not application/json */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid, revoked or expired key or session, or one of another workspace */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Your role does not allow this, or a session write without the CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such status page or incident in this workspace */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than this endpoint accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid fields (body or query parameters), each listed in details */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed credentials from this address; retry after Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postStatusPagesByIdIncidentsByIncidentIdDiscard: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                incident_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Incident"];
                };
            };
            /** @description Malformed JSON, or a body that is not application/json */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid, revoked or expired key or session, or one of another workspace */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Your role does not allow this, or a session write without the CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such status page or incident in this workspace */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Published: resolve it instead */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than this endpoint accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid fields (body or query parameters), each listed in details */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed credentials from this address; retry after Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postStatusPagesByIdIncidentsByIncidentIdPublish: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                incident_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Incident"];
                };
            };
            /** @description Malformed JSON, or a body that is not application/json */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid, revoked or expired key or session, or one of another workspace */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Your role does not allow this, or a session write without the CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such status page or incident in this workspace */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Already published */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than this endpoint accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid fields (body or query parameters), each listed in details */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed credentials from this address; retry after Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postStatusPagesByIdIncidentsByIncidentIdUpdates: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                incident_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    components?: {
                        [key: string]: "operational" | "degraded_performance" | "partial_outage" | "major_outage" | "under_maintenance";
                    };
                    message: string;
                    /** @enum {string} */
                    status: "investigating" | "identified" | "monitoring" | "resolved";
                };
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Incident"];
                };
            };
            /** @description Malformed JSON, or a body that is not application/json */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid, revoked or expired key or session, or one of another workspace */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Your role does not allow this, or a session write without the CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such status page or incident in this workspace */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than this endpoint accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid fields (body or query parameters), each listed in details */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed credentials from this address; retry after Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getStatusPagesByIdSubscribers: {
        parameters: {
            query?: {
                cursor?: string;
                limit?: number;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["StatusPageSubscriber"][];
                        next_cursor: string | null;
                    };
                };
            };
            /** @description Missing, invalid, revoked or expired key or session, or one of another workspace */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Your role does not allow this, or a session write without the CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such status page in this workspace */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid fields (body or query parameters), each listed in details */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed credentials from this address; retry after Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteStatusPagesByIdSubscribersBySubscriberId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                subscriber_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Missing, invalid, revoked or expired key or session, or one of another workspace */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Your role does not allow this, or a session write without the CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such status page or subscriber in this workspace */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed credentials from this address; retry after Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getUsers: {
        parameters: {
            query?: {
                cursor?: string;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Member"][];
                        next_cursor: string | null;
                    };
                };
            };
            /** @description Missing, invalid, revoked or expired key or session, or one of another workspace */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Your role does not allow this, or a session write without the CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid fields (body or query parameters), each listed in details */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed credentials from this address; retry after Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postUsers: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: email */
                    email: string;
                    /** @enum {string} */
                    role: "admin" | "member" | "viewer";
                };
            };
        };
        responses: {
            /** @description Invited: the user, invitation_url and invitation_expires_at */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        created_at: string;
                        email: string;
                        failed_sign_ins: {
                            count: number;
                            last_address: string | null;
                            last_at: string | null;
                            since: string | null;
                        };
                        id: string;
                        invitation_expires_at: string | null;
                        invitation_url: string;
                        last_sign_in_at: string | null;
                        /** @enum {string} */
                        role: "admin" | "member" | "viewer";
                        /** @enum {string} */
                        status: "active" | "invited";
                    };
                };
            };
            /** @description Malformed JSON, or a body that is not application/json */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid, revoked or expired key or session, or one of another workspace */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Your role does not allow this, or a session write without the CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A user with this email has already joined */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than this endpoint accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid fields (body or query parameters), each listed in details */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed credentials from this address; retry after Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteUsersById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Missing, invalid, revoked or expired key or session, or one of another workspace */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Your role does not allow this, or a session write without the CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such user in this workspace */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The last admin of the workspace, or the only one notified by a step of the escalation policies named */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed credentials from this address; retry after Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    patchUsersById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    role: "admin" | "member" | "viewer";
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Member"];
                };
            };
            /** @description Malformed JSON, or a body that is not application/json */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid, revoked or expired key or session, or one of another workspace */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Your role does not allow this, or a session write without the CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such user in this workspace */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description This is the last admin of the workspace */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than this endpoint accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid fields (body or query parameters), each listed in details */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed credentials from this address; retry after Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getUsersMe: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Member"];
                };
            };
            /** @description Missing, invalid, revoked or expired key or session, or one of another workspace */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Your role does not allow this, or a session write without the CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed credentials from this address; retry after Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getUsersMeContactMethods: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        available_types: ("email" | "sms" | "telegram" | "ntfy" | "pushover")[];
                        data: components["schemas"]["ContactMethod"][];
                        next_cursor: null;
                    };
                };
            };
            /** @description Missing, invalid, revoked or expired key or session, or one of another workspace */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Your role does not allow this, or a session write without the CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed credentials from this address; retry after Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postUsersMeContactMethods: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: email */
                    address: string;
                    /** @constant */
                    type: "email";
                } | {
                    phone: string;
                    /** @constant */
                    type: "sms";
                } | {
                    chat_id: string;
                    /** @constant */
                    type: "telegram";
                } | {
                    /** @default null */
                    access_token?: string | null;
                    /** @default https://ntfy.sh */
                    server_url?: string;
                    topic: string;
                    /** @constant */
                    type: "ntfy";
                } | {
                    /** @constant */
                    type: "pushover";
                    user_key: string;
                };
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ContactMethod"];
                };
            };
            /** @description Malformed JSON, or a body that is not application/json */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid, revoked or expired key or session, or one of another workspace */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Your role does not allow this, or a session write without the CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description You have this method already, or 10 methods */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than this endpoint accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid fields, or the type is not set up here */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed credentials from this address; retry after Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteUsersMeContactMethodsById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Missing, invalid, revoked or expired key or session, or one of another workspace */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Your role does not allow this, or a session write without the CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such contact method of yours */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed credentials from this address; retry after Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postUsersMeContactMethodsByIdSendCode: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code_expires_at: string | null;
                        contact_method: components["schemas"]["ContactMethod"];
                        error: string | null;
                        response: string | null;
                        sent: boolean;
                        status_code: number | null;
                    };
                };
            };
            /** @description Malformed JSON, or a body that is not application/json */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid, revoked or expired key or session, or one of another workspace */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Your role does not allow this, or a session write without the CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such contact method of yours */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than this endpoint accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid fields (body or query parameters), each listed in details */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A code was sent less than a minute ago, or too many to this destination, by you or in this workspace (3, 5 and 50 an hour; 10, 20 and 200 a day) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postUsersMeContactMethodsByIdVerify: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    code: string;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ContactMethod"];
                };
            };
            /** @description Malformed JSON, or a body that is not application/json */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid, revoked or expired key or session, or one of another workspace */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Your role does not allow this, or a session write without the CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such contact method of yours */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than this endpoint accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Wrong, expired or used-up code */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed credentials from this address; retry after Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getWorkspaceConnectedApps: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["ConnectedApp"][];
                        next_cursor: string | null;
                    };
                };
            };
            /** @description Not signed in, or the session ended or belongs to another workspace */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not an admin, or called with an API key */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed credentials from this address; retry after Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postWorkspaceConnectedAppsByIdRevoke: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Revoked */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConnectedApp"];
                };
            };
            /** @description Malformed JSON, or a body that is not application/json */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not signed in, or the session ended or belongs to another workspace */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not an admin, or called with an API key */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such connected app */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than this endpoint accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid fields (body or query parameters), each listed in details */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed credentials from this address; retry after Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Something went wrong on our side (logged; the message never leaks internals) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
}
