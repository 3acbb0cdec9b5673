/**
 * Values a user would set for the `${LOOKOUT_IMPORT_…}` variables the Healthchecks and UptimeRobot
 * importers write, shaped for each field (a PagerDuty routing key is 32 characters, a Pushover key 30).
 */
export const importSecretValue = (env: string) => {
  if (/ROUTING_KEY$/.test(env)) return 'R1'.repeat(16);
  if (/USER_KEY$|APP_TOKEN$/.test(env)) return 'P2'.repeat(15);
  if (/URL$/.test(env)) return `https://hooks.example.com/${env.toLowerCase()}`;
  if (/AUTHORIZATION$/.test(env)) return 'Bearer set-by-the-user';
  return `set-by-the-user-${env.length}`;
};
