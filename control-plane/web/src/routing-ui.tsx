/** Small pieces shared by the pages: a copyable value (secrets shown once), an address, a snippet. */
import { Fragment } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { type Policy, routingApi } from './api-routing.js';

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

/** A part of an address longer than this (a long query string or token) may break anywhere. */
const LONG_ADDRESS_PART = 40;

/**
 * An address (URL, host:port, API path) in code type that wraps only after a slash, never inside a
 * host name, a number or a word: "http://" "127.0.0.1:18939/" "health" are its unbreakable parts. A
 * part longer than `LONG_ADDRESS_PART` breaks where it must, rather than widen its table past the window.
 */
export const Address = (props: { value: string }) => (
  <code class="address">
    {props.value.split(/(?<=\/)(?=[^/])/).map((part, i) => (
      <Fragment key={i}>
        {i > 0 && <wbr />}
        <span class={part.length > LONG_ADDRESS_PART ? 'long' : undefined}>{part}</span>
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

/** Shown to members and viewers on a routing page: the nav hides these, a typed address lands here. */
export const AdminsOnly = (props: { title: string }) => (
  <section class="page">
    <h1>{props.title}</h1>
    <p class="notice">Only admins of the workspace manage routing.</p>
  </section>
);

/** The workspace's escalation policies, for a choice in a form: null while loading, [] when they cannot be read. */
export const usePolicies = () => {
  const [policies, setPolicies] = useState<Policy[] | null>(null);
  useEffect(() => {
    routingApi.listPolicies().then(
      (p) => setPolicies(p.data),
      () => setPolicies([]),
    );
  }, []);
  return policies;
};

/** One option per policy, the default marked. */
export const PolicyOptions = (props: { policies: Policy[] | null }) => (
  <>
    {props.policies?.map((p) => (
      <option key={p.id} value={p.id}>
        {p.name}
        {p.is_default ? ' (default)' : ''}
      </option>
    ))}
  </>
);
