/** Small pieces shared by the pages: a copyable value (secrets shown once), a snippet, a field with its problem. */
import { type ComponentChildren, Fragment } from 'preact';
import { useState } from 'preact/hooks';
import { ApiError } from './api.js';

/** A read-only value with a Copy button and what happened. */
export const CopyValue = (props: {
  label: string;
  value: string;
  copyLabel?: string;
  multiline?: boolean;
  /** Shown under the value until it is copied. */
  hint?: string;
}) => {
  const [copied, setCopied] = useState<'yes' | 'no' | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(props.value);
      setCopied('yes');
    } catch {
      setCopied('no');
    }
  };
  return (
    <div>
      <div class="key-value">
        <input
          type="text"
          readOnly
          value={props.value}
          aria-label={props.label}
          onFocus={(e) => e.currentTarget.select()}
        />
        <button type="button" class="button primary" onClick={copy} aria-label={props.copyLabel}>
          Copy
        </button>
      </div>
      <p class="hint" role="status">
        {copied === 'yes'
          ? 'Copied to the clipboard.'
          : copied === 'no'
            ? 'The browser did not allow copying; select the value and copy it yourself.'
            : (props.hint ?? '')}
      </p>
    </div>
  );
};

/**
 * An address (URL, host:port, API path) in code type that wraps only after a slash, never inside a
 * host name, a number or a word: "http://" "127.0.0.1:18939/" "health" are its unbreakable parts.
 */
export const Address = (props: { value: string }) => (
  <code class="address">
    {props.value.split(/(?<=\/)(?=[^/])/).map((part, i) => (
      <Fragment key={i}>
        {i > 0 && <wbr />}
        <span>{part}</span>
      </Fragment>
    ))}
  </code>
);

/**
 * A code snippet with its own copy button. Commands `wrap` (at spaces, in a URL anywhere) so nothing
 * runs out of sight; files whose indentation means something (YAML) scroll sideways instead.
 */
export const Snippet = (props: { title: string; code: string; wrap?: boolean }) => {
  const [copied, setCopied] = useState(false);
  return (
    <figure class="snippet" aria-label={props.title}>
      <div class="snippet-head">
        <span>{props.title}</span>
        <button
          type="button"
          class="button subtle small"
          aria-label={`Copy ${props.title}`}
          onClick={async () => {
            try {
              await navigator.clipboard.writeText(props.code);
              setCopied(true);
            } catch {
              setCopied(false);
            }
          }}
        >
          {copied ? 'Copied' : 'Copy'}
        </button>
      </div>
      <pre class={props.wrap ? 'wrap' : undefined}>
        <code>{props.code}</code>
      </pre>
    </figure>
  );
};

/** Problems by field name, plus one for the form; from an API error or from checks in the page. */
export type Problems = Record<string, string | undefined> & { form?: string };

export const problemsOf = (e: unknown): Problems => {
  if (e instanceof ApiError) {
    const p: Problems = {};
    for (const d of e.details) p[d.field] ??= d.message;
    if (!e.details.length) p.form = e.message;
    return p;
  }
  return { form: e instanceof Error ? e.message : 'That did not work.' };
};

/** A labelled control with its problem under it, tied together by aria-describedby. */
export const Field = (props: {
  id: string;
  label: string;
  problem?: string | undefined;
  hint?: string;
  class?: string;
  children: (a: { id: string; 'aria-invalid'?: true; 'aria-describedby'?: string }) => ComponentChildren;
}) => {
  const describedBy = props.problem ? `${props.id}-problem` : props.hint ? `${props.id}-hint` : undefined;
  return (
    <div class={`field ${props.class ?? ''}`}>
      <label for={props.id}>{props.label}</label>
      {props.children({
        id: props.id,
        ...(props.problem ? { 'aria-invalid': true as const } : {}),
        ...(describedBy ? { 'aria-describedby': describedBy } : {}),
      })}
      {props.problem ? (
        <span class="field-problem" id={`${props.id}-problem`}>
          {props.problem}
        </span>
      ) : (
        props.hint && (
          <span class="hint tight" id={`${props.id}-hint`}>
            {props.hint}
          </span>
        )
      )}
    </div>
  );
};

export const FormError = (props: { message?: string | undefined }) =>
  props.message ? (
    <p class="error-box" role="alert">
      {props.message}
    </p>
  ) : null;

/** Shown to members and viewers on a routing page: the nav hides these, a typed address lands here. */
export const AdminsOnly = (props: { title: string }) => (
  <section class="page">
    <h1>{props.title}</h1>
    <p class="notice">Only admins of the workspace manage routing.</p>
  </section>
);

/** "1 day", "30 min", "90 s". */
export const duration = (seconds: number) =>
  seconds % 86_400 === 0
    ? `${seconds / 86_400} ${seconds === 86_400 ? 'day' : 'days'}`
    : seconds % 3600 === 0
      ? `${seconds / 3600} h`
      : seconds % 60 === 0
        ? `${seconds / 60} min`
        : `${seconds} s`;
