import { useState } from 'preact/hooks';

/** Recovery codes shown this once: copy, download, and "I have saved them". */
export const RecoveryCodes = (props: { codes: string[]; onDone: () => void }) => {
  const [copied, setCopied] = useState(false);
  const text = `Lookout recovery codes (${location.hostname})\nEach works once in place of an authenticator code.\n\n${props.codes.join('\n')}\n`;
  const copy = async () => {
    await navigator.clipboard.writeText(text);
    setCopied(true);
  };
  const download = () => {
    const a = document.createElement('a');
    a.href = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    a.download = 'lookout-recovery-codes.txt';
    a.click();
    URL.revokeObjectURL(a.href);
  };
  return (
    <section aria-labelledby="recovery-codes-title">
      <h3 id="recovery-codes-title" class="recovery-codes-title">
        Your recovery codes
      </h3>
      <p class="ok-box" role="status">
        Save these codes somewhere safe now: they are shown only this once. If you lose your phone, each code
        signs you in once in place of an authenticator code.
      </p>
      <ul class="recovery-codes" aria-label="Recovery codes">
        {props.codes.map((c) => (
          <li key={c}>
            <code>{c}</code>
          </li>
        ))}
      </ul>
      <p class="form-actions">
        <button type="button" class="button" onClick={copy}>
          {copied ? 'Copied' : 'Copy codes'}
        </button>
        <button type="button" class="button" onClick={download}>
          Download codes
        </button>
        <button type="button" class="button primary" onClick={props.onDone}>
          I have saved them
        </button>
      </p>
    </section>
  );
};
