import type { z } from 'zod';

/** The deployment's accounts behind the kinds that need one; null: not set up here. */
export interface ContactServices {
  telegram: { bot_token: string; api_url: string } | null;
  twilio: { account_sid: string; auth_token: string; from: string; api_url: string } | null;
  pushover: { app_token: string; api_url: string } | null;
}

export const CONTACT_INPUTS = ['text', 'email', 'tel', 'numeric', 'key', 'password'] as const;
export type ContactInput = (typeof CONTACT_INPUTS)[number];

/** How the web form shows one field of a kind's body (its rules: the body's zod schema). */
export interface ContactField {
  label: string;
  hint?: string;
  /**
   * The input's kind: `tel` also drops spaces, dashes and parentheses before sending; `key` is text
   * the browser does not remember; `password` is hidden too, and sent as typed.
   */
  input?: ContactInput;
  placeholder?: string;
}

/** A method's address of one kind: its `type` and its body's fields, as stored. */
export type AddressOf<T extends string, S extends z.ZodRawShape> = { type: T } & z.output<z.ZodObject<S>>;

/**
 * A personal contact-method kind (a user's own way to be reached): one file each beside this one, and
 * its line in index.ts. The body's zod shape drives the API's validation, its document and the web
 * form (GET /contact-method-kinds); `target` makes a method a notification target of a channel kind
 * (notify/kinds/), through which its verification code and its alerts are sent alike.
 */
export interface ContactKind<
  T extends string = string,
  S extends z.ZodRawShape = z.ZodRawShape,
  R extends z.ZodRawShape = z.ZodRawShape,
> {
  type: T;
  /** The kind as people know it ("Telegram"). */
  label: string;
  /** The fields a new method takes besides `type`, in the service's own words. */
  body: S;
  /** The web form's fields, in the order shown: every field of `body`. */
  form: { [K in keyof S]: ContactField };
  /** The fields the API shows besides the common ones: secrets as hints. */
  response: R;
  shown(a: AddressOf<T, S>): z.output<z.ZodObject<R>>;
  /** How a method appears to people and in the delivery log: never a secret. */
  describe(a: AddressOf<T, S>): string;
  /** What identifies its destination, to refuse the same one twice. */
  destination(a: AddressOf<T, S>): string;
  /** Where a code would arrive, in one spelling, for the limits on codes sent (code-limits.ts). */
  codeDestination(a: AddressOf<T, S>): string;
  /**
   * The deployment's account it needs (`name` as the API document says it: "a Telegram bot") and the
   * settings that set it up; null: none.
   */
  service: { key: keyof ContactServices; name: string; setting: string } | null;
  /** A body field holding an address the user names, refused when private (destinations.ts). */
  userUrl?: keyof S & string;
  /** The channel kind and its config that reach a method; null when its service is not set up. */
  target(
    a: AddressOf<T, S>,
    services: ContactServices,
  ): { kind: string; config: Record<string, unknown> } | null;
  /** True when alerts go to the deployment's service address, not one the user named. */
  operatorAddress: boolean;
}

// biome-ignore lint/suspicious/noExplicitAny: the registry holds kinds of every address shape
export type AnyContactKind = ContactKind<string, any, any>;

export const defineContactKind = <T extends string, S extends z.ZodRawShape, R extends z.ZodRawShape>(
  k: ContactKind<T, S, R>,
) => k;

/** The last four characters of a secret, as the API shows it. */
export const hint = (s: string) => `••••${s.slice(-4)}`;
