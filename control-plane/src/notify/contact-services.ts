import type { Config } from '../config.js';
import type { ContactServices } from '../domain/contacts/contact-methods.js';

/**
 * The deployment's accounts behind users' contact methods (domain/contacts/contact-methods.ts), from
 * configuration: a service is set up only when all of its settings are.
 */
export const contactServicesFromConfig = (config: Config): ContactServices => ({
  telegram: config.telegram_bot_token
    ? { bot_token: config.telegram_bot_token, api_url: config.telegram_api_url }
    : null,
  twilio:
    config.twilio_account_sid && config.twilio_auth_token && config.twilio_from
      ? {
          account_sid: config.twilio_account_sid,
          auth_token: config.twilio_auth_token,
          from: config.twilio_from,
          api_url: config.twilio_api_url,
        }
      : null,
  pushover: config.pushover_app_token
    ? { app_token: config.pushover_app_token, api_url: config.pushover_api_url }
    : null,
});
